// The command line's options and help text, shared by the bin's CommonJS entry (which answers `--help`
// and `--version` itself, without starting Node's ES module loader) and by runCli.
import { parseArgs } from 'node:util';
import { CONFIG_ENV_VARIABLES } from './config/config-env-variables.js';
import { EXIT_CODES } from './exit-codes.js';

/** The help text of the `mono-agent-web` bin. */
export function helpText(version: string): string {
  return `mono-agent-web ${version}
WebSearch and WebFetch for AI agents: find pages on the public web and read them as compact,
model-readable Markdown, local-first (no account, no API key, no daemon).

Usage:
  mono-agent-web search <query> [--limit N] [--alternate Q]... [--domain D]... [--exclude-domain D]...
                                [--language L] [--time-range day|month|year]
  mono-agent-web fetch <url> [--format markdown|text|raw] [--start-line N] [--max-lines N]
                             [--max-output-chars N] [--render never|auto|always]
  mono-agent-web extract [file|-] --url <url> [--content-type T] [--format markdown|text|raw]
  mono-agent-web web-control status|reset [--json]
  mono-agent-web validate [--no-liveness] [--json]
  mono-agent-web mcp [--run-idle-seconds N]
                                serve WebSearch and WebFetch to an MCP client over stdio; a burst
                                of calls is one run, and a call after N idle seconds (default 300)
                                starts a fresh run with a fresh search budget

Options:
  --config <file>  agent configuration file (JSON; keys under tools.web, network, artifacts)
  --json           print the outcome as JSON instead of the text a model would read
  -h, --help       show this help and exit
  -v, --version    print the version and exit

Environment (overrides the configuration file):
${CONFIG_ENV_VARIABLES.map((row) => `  ${row.env}`).join('\n')}

Exit codes:
  ${EXIT_CODES.success}   success
  ${EXIT_CODES.invalidInput}   invalid arguments, options or configuration
  ${EXIT_CODES.policyDenied}   the network policy refused the destination
  ${EXIT_CODES.backendFailure}   every usable backend failed or was blocked
  ${EXIT_CODES.internalError}  internal error
`;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  limit: { type: 'string' },
  alternate: { type: 'string', multiple: true },
  domain: { type: 'string', multiple: true },
  'exclude-domain': { type: 'string', multiple: true },
  language: { type: 'string' },
  'time-range': { type: 'string' },
  format: { type: 'string' },
  'start-line': { type: 'string' },
  'max-lines': { type: 'string' },
  'max-output-chars': { type: 'string' },
  render: { type: 'string' },
  url: { type: 'string' },
  'content-type': { type: 'string' },
  'no-liveness': { type: 'boolean' },
  'run-idle-seconds': { type: 'string' },
} as const;

/** Parses a command line strictly: an unknown option or a missing value throws. */
export function parseCliArguments(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: OPTIONS });
}

/**
 * The text `argv` asks for when it asks only for the help or the version (as runCli would answer it),
 * else `undefined`: any other command line, a malformed one included, is runCli's to handle.
 */
export function helpOrVersion(argv: readonly string[], version: () => string): string | undefined {
  let parsed: ReturnType<typeof parseCliArguments>;
  try {
    parsed = parseCliArguments(argv);
  } catch {
    return undefined;
  }
  if (parsed.values.version) return `${version()}\n`;
  if (parsed.values.help || parsed.positionals.length === 0) return helpText(version());
  return undefined;
}
