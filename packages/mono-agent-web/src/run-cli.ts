import { parseArgs } from 'node:util';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { PACKAGE_VERSION } from './package-version.js';

/** Where the CLI writes; injected so tests and embedding hosts capture output. */
export interface CliOutput {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
}

const HELP = `mono-agent-web ${PACKAGE_VERSION}
WebSearch and WebFetch for AI agents: find pages on the public web and read them as compact,
model-readable Markdown, local-first (no account, no API key, no daemon).

Usage:
  mono-agent-web <command> [options]

Options:
  -h, --help     Show this help and exit.
  -v, --version  Print the version and exit.

Exit codes:
  ${EXIT_CODES.success}   success
  ${EXIT_CODES.invalidInput}   invalid arguments, options or configuration
  ${EXIT_CODES.policyDenied}   the network policy refused the destination
  ${EXIT_CODES.backendFailure}   every usable backend failed or was blocked
  ${EXIT_CODES.internalError}  internal error
`;

/**
 * Runs the CLI with the given arguments (without `node` and the script path) and returns the exit
 * code instead of exiting, so it can be embedded and tested in-process.
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<ExitCode> {
  let parsed: ReturnType<typeof parseCliArguments>;
  try {
    parsed = parseCliArguments(argv);
  } catch (error) {
    output.stderr(`mono-agent-web: ${(error as Error).message}\nRun 'mono-agent-web --help' for usage.\n`);
    return EXIT_CODES.invalidInput;
  }
  if (parsed.values.version) {
    output.stdout(`${PACKAGE_VERSION}\n`);
    return EXIT_CODES.success;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    output.stdout(HELP);
    return EXIT_CODES.success;
  }
  output.stderr(
    `mono-agent-web: unknown command '${parsed.positionals[0]}'\nRun 'mono-agent-web --help' for usage.\n`,
  );
  return EXIT_CODES.invalidInput;
}

function parseCliArguments(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
