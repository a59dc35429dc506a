// The command line's grammar and help text, shared by the bin's CommonJS entry (which answers help
// and `--version` itself, without starting Node's ES module loader) and by runCli. The parser is the
// CLI's own, not node:util's, so that every refusal names the option and the command in the CLI's
// words and points at that command's help.
import { CONFIG_ENV_VARIABLES } from './config/config-env-variables.js';
import { EXIT_CODES } from './exit-codes.js';
import {
  DEFAULT_RUN_IDLE_SECONDS,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from './runtime/idle-run-rotation.js';

/** The commands of the `mono-agent-web` bin. */
export const COMMAND_NAMES = ['search', 'fetch', 'extract', 'web-control', 'validate', 'mcp'] as const;

/** One command of the bin. */
export type CommandName = (typeof COMMAND_NAMES)[number];

// Shown in the help, and the same numbers the tool argument schemas enforce (cli-usage.test.ts
// checks them against the schemas' constants, which the bin's small entry does not load).
/** The WebSearch `limit` when none is given. */
export const HELP_DEFAULT_SEARCH_LIMIT = 5;
/** The largest WebSearch `limit`. */
export const HELP_MAX_SEARCH_LIMIT = 10;
/** The most alternate queries one search takes. */
export const HELP_MAX_ALTERNATE_QUERIES = 3;
/** The lines a sliced WebFetch returns when `max_lines` is not given. */
export const HELP_DEFAULT_SLICE_LINES = 200;
/** The largest WebFetch `max_lines`. */
export const HELP_MAX_FETCH_LINES = 10_000;
/** The WebFetch character cap when none is given. */
export const HELP_DEFAULT_FETCH_OUTPUT_CHARS = 50_000;

/** One option of the command line. */
interface OptionSpec {
  /** Placeholder of its value; absent for a flag. */
  readonly value?: string;
  /** Whether it may be given more than once (each adds a value). */
  readonly multiple?: true;
  /** One-letter alias. */
  readonly short?: string;
  /** What it does, with its default, for the help. */
  readonly help: string;
  /** The commands that take it (`all`: every command). */
  readonly commands: readonly CommandName[] | 'all';
}

const OPTION_SPECS = {
  limit: {
    value: 'N',
    help: `results to return, 1-${HELP_MAX_SEARCH_LIMIT} (default ${HELP_DEFAULT_SEARCH_LIMIT})`,
    commands: ['search'],
  },
  alternate: {
    value: 'Q',
    multiple: true,
    help: `another wording, tried only while nothing relevant was found (up to ${HELP_MAX_ALTERNATE_QUERIES}; default none)`,
    commands: ['search'],
  },
  domain: {
    value: 'D',
    multiple: true,
    help: 'only results from this domain and its subdomains (repeatable; default any)',
    commands: ['search'],
  },
  'exclude-domain': {
    value: 'D',
    multiple: true,
    help: 'never results from this domain (repeatable; default none)',
    commands: ['search'],
  },
  language: {
    value: 'L',
    help: 'preferred language tag such as en or pt-BR (default none)',
    commands: ['search'],
  },
  'time-range': {
    value: 'day|month|year',
    help: 'prefer results from the last day, month or year (default any time)',
    commands: ['search'],
  },
  format: {
    value: 'markdown|text|raw',
    help: 'article Markdown, plain text or the decoded body (default markdown)',
    commands: ['fetch', 'extract'],
  },
  'start-line': {
    value: 'N',
    help: 'first line to return, 1-based (default 1)',
    commands: ['fetch'],
  },
  'max-lines': {
    value: 'N',
    help: `lines to return, 1-${HELP_MAX_FETCH_LINES} (default ${HELP_DEFAULT_SLICE_LINES} when --start-line is given, else all)`,
    commands: ['fetch'],
  },
  'max-output-chars': {
    value: 'N',
    help: `character cap of the output (default ${HELP_DEFAULT_FETCH_OUTPUT_CHARS})`,
    commands: ['fetch'],
  },
  render: {
    value: 'never|auto|always',
    help: 'ask for browser rendering; the configured ceiling (tools.web.fetch.render) decides (default: no request)',
    commands: ['fetch'],
  },
  url: {
    value: 'url',
    help: 'the http(s) address the bytes came from; links resolve against it (required)',
    commands: ['extract'],
  },
  'content-type': {
    value: 'T',
    help: 'media type of the bytes, such as text/html (default: sniffed from the bytes)',
    commands: ['extract'],
  },
  'no-liveness': {
    help: 'check the configuration only; send no query to any backend (default: probe them)',
    commands: ['validate'],
  },
  'run-idle-seconds': {
    value: 'N',
    help: `a call after N idle seconds starts a fresh run and search budget, ${MIN_RUN_IDLE_SECONDS}-${MAX_RUN_IDLE_SECONDS} (default ${DEFAULT_RUN_IDLE_SECONDS}, or tools.web.mcp.runIdleSeconds)`,
    commands: ['mcp'],
  },
  config: {
    value: 'file',
    help: 'agent configuration file, JSON with keys under tools.web, network, artifacts (default none)',
    commands: 'all',
  },
  json: {
    help: 'print the outcome as JSON instead of the text a model reads (default off)',
    commands: ['search', 'fetch', 'extract', 'web-control', 'validate'],
  },
  help: { short: 'h', help: 'show this help and exit', commands: 'all' },
  version: { short: 'v', help: 'print the version and exit', commands: 'all' },
} as const satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTION_SPECS;

/** The options of a parsed command line, by long name. */
export type CliValues = {
  -readonly [Name in OptionName]?: (typeof OPTION_SPECS)[Name] extends { value: string }
    ? (typeof OPTION_SPECS)[Name] extends { multiple: true }
      ? string[]
      : string
    : boolean;
};

/** A command line that cannot run, in words that name what is wrong and where. */
export class CommandLineError extends Error {
  /** The command whose help explains the fix, when one is known. */
  readonly command: CommandName | undefined;

  constructor(message: string, command?: CommandName) {
    super(message);
    this.name = 'CommandLineError';
    this.command = command;
  }
}

/** A parsed command line. */
export interface ParsedCommandLine {
  /** The command, when one was given (`help <command>` gives its command here too). */
  command: CommandName | undefined;
  /** Positional arguments after the command. */
  positionals: string[];
  /** The options given. */
  values: CliValues;
}

function isCommand(word: string | undefined): word is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(word ?? '');
}

function takes(name: OptionName, command: CommandName): boolean {
  const commands: readonly CommandName[] | 'all' = OPTION_SPECS[name].commands;
  return commands === 'all' || commands.includes(command);
}

/** Edit distance of two short words, to suggest the option a typo meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

function suggestion(word: string, command: CommandName | undefined): string {
  const candidates = (Object.keys(OPTION_SPECS) as OptionName[]).filter(
    (name) => command === undefined || takes(name, command),
  );
  let best: { name: string; score: number } | undefined;
  for (const name of candidates) {
    const score = distance(word, name);
    if (score <= Math.max(1, Math.floor(name.length / 3)) && (best === undefined || score < best.score))
      best = { name, score };
  }
  return best === undefined ? '' : ` (did you mean --${best.name}?)`;
}

function helpPointer(command: CommandName | undefined): string {
  return command === undefined ? "see 'mono-agent-web --help'" : `see 'mono-agent-web help ${command}'`;
}

/** An option starts with a dash; a lone `-` (standard input) and a negative number are arguments. */
function isOptionWord(word: string): boolean {
  return word.startsWith('-') && word !== '-' && !/^-\d/.test(word);
}

/** The command named by a command line, if any, before the rest is checked. */
function commandOf(argv: readonly string[]): CommandName | undefined {
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') return isCommand(argv[index + 1]) ? (argv[index + 1] as CommandName) : undefined;
    if (word.startsWith('--')) {
      const spec = (OPTION_SPECS as Record<string, OptionSpec>)[word.slice(2)];
      if (spec?.value !== undefined && !word.includes('=')) index++;
      continue;
    }
    if (isOptionWord(word)) continue;
    if (word === 'help') return isCommand(argv[index + 1]) ? (argv[index + 1] as CommandName) : undefined;
    return isCommand(word) ? word : undefined;
  }
  return undefined;
}

/** The long name an option word gives, and its `=value` when it has one (only a long option can). */
function optionName(word: string, command: CommandName | undefined): { name: string; inline?: string } {
  if (word.startsWith('--')) {
    const equals = word.indexOf('=');
    return equals === -1
      ? { name: word.slice(2) }
      : { name: word.slice(2, equals), inline: word.slice(equals + 1) };
  }
  const long = (Object.keys(OPTION_SPECS) as OptionName[]).find(
    (key) => (OPTION_SPECS[key] as OptionSpec).short === word.slice(1),
  );
  if (long === undefined) {
    throw new CommandLineError(`unknown option '${word}'; ${helpPointer(command)}`, command);
  }
  return { name: long };
}

/** The spec of an option the command takes; an unknown option, or another command's, is refused. */
function optionSpec(name: string, command: CommandName | undefined): OptionSpec {
  const spec = (OPTION_SPECS as Record<string, OptionSpec>)[name];
  if (spec === undefined) {
    const where = command === undefined ? '' : ` for ${command}`;
    throw new CommandLineError(
      `unknown option '--${name}'${where}${suggestion(name, command)}; ${helpPointer(command)}`,
      command,
    );
  }
  if (command !== undefined && !takes(name as OptionName, command)) {
    const owners = spec.commands === 'all' ? [] : spec.commands;
    throw new CommandLineError(
      `--${name} is not an option of ${command}${owners.length > 0 ? ` (it belongs to ${owners.join(', ')})` : ''}; ${helpPointer(command)}`,
      command,
    );
  }
  return spec;
}

/** The value of an option given as the next word; a missing one, or another option, is refused. */
function nextValue(
  next: string | undefined,
  name: string,
  spec: OptionSpec,
  command: CommandName | undefined,
): string {
  if (next === undefined || isOptionWord(next)) {
    throw new CommandLineError(
      `--${name} needs a value (${spec.value})${next === undefined ? '' : `, got the option '${next}'`}; ${helpPointer(command)}`,
      command,
    );
  }
  return next;
}

/** Records an option's value: a repeatable option collects them, any other takes exactly one. */
function addValue(
  values: Record<string, string | string[] | boolean>,
  name: string,
  spec: OptionSpec,
  value: string,
  command: CommandName | undefined,
): void {
  if (spec.multiple) {
    values[name] = [...((values[name] as string[] | undefined) ?? []), value];
    return;
  }
  if (values[name] !== undefined) {
    throw new CommandLineError(`--${name} is given more than once; ${helpPointer(command)}`, command);
  }
  values[name] = value;
}

/** The command line the arguments left after the options make: none, `help`, or a command. */
function commandLineOf(words: readonly string[], values: CliValues): ParsedCommandLine {
  const [first, ...rest] = words;
  if (first === undefined) return { command: undefined, positionals: [], values };
  if (first === 'help') {
    const [topic, ...extra] = rest;
    if (topic !== undefined && !isCommand(topic)) {
      throw new CommandLineError(`no help for '${topic}': the commands are ${COMMAND_NAMES.join(', ')}`);
    }
    if (extra.length > 0)
      throw new CommandLineError(`help takes one command, got '${extra.join(' ')}'`, topic);
    return { command: topic, positionals: [], values: { ...values, help: true } };
  }
  if (!isCommand(first)) {
    throw new CommandLineError(
      `unknown command '${first}': the commands are ${COMMAND_NAMES.join(', ')}; ${helpPointer(undefined)}`,
    );
  }
  return { command: first, positionals: rest, values };
}

/**
 * Parses a command line strictly. Throws {@link CommandLineError} for an unknown or misplaced option,
 * a missing value, a flag given a value, an option repeated that takes one value, an unknown command,
 * and `help` of an unknown command.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const command = commandOf(argv);
  const values: Record<string, string | string[] | boolean> = {};
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') {
      words.push(...argv.slice(index + 1));
      break;
    }
    if (!isOptionWord(word)) {
      words.push(word);
      continue;
    }
    const { name, inline } = optionName(word, command);
    const spec = optionSpec(name, command);
    if (spec.value === undefined) {
      if (inline !== undefined) {
        throw new CommandLineError(
          `--${name} takes no value, got '${inline}'; ${helpPointer(command)}`,
          command,
        );
      }
      values[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = nextValue(argv[index + 1], name, spec, command);
      index++;
    }
    addValue(values, name, spec, value, command);
  }
  return commandLineOf(words, values as CliValues);
}

/** What each command does, how it is called and one example, for its help. */
const COMMAND_HELP: Record<CommandName, { synopsis: string; summary: string; examples: string[] }> = {
  search: {
    synopsis: 'mono-agent-web search <query> [options]',
    summary:
      'Searches the web with the configured backend and prints the ranked results as a model reads them.\nThe query is one argument: quote it.',
    examples: ["mono-agent-web search 'night bus pilot council vote' --limit 3 --time-range month"],
  },
  fetch: {
    synopsis: 'mono-agent-web fetch <url> [options]',
    summary:
      'Reads one http(s) page and prints it as compact Markdown framed as untrusted content, or a slice\nof its lines.',
    examples: ['mono-agent-web fetch https://example.com/ --start-line 1 --max-lines 50'],
  },
  extract: {
    synopsis: 'mono-agent-web extract [file|-] --url <url> [options]',
    summary:
      'Extracts readable content from bytes already on disk or on standard input (no file, or -).\nNo network.',
    examples: ['curl -s https://example.com/ | mono-agent-web extract - --url https://example.com/'],
  },
  'web-control': {
    synopsis: 'mono-agent-web web-control status|reset --json',
    summary:
      'Shows (status) or clears (reset) the shared host state: admission counts and cooldowns, as\nhashed scope keys. reset clears only when no request is active.',
    examples: ['mono-agent-web web-control status --json'],
  },
  validate: {
    synopsis: 'mono-agent-web validate [options]',
    summary:
      'Checks the configuration and, unless --no-liveness, sends one bounded probe to each configured\nbackend. Exits 2 for a structural failure and 4 for a failed probe.',
    examples: ['mono-agent-web validate --no-liveness --config agent.json'],
  },
  mcp: {
    synopsis: 'mono-agent-web mcp [options]',
    summary:
      'Serves WebSearch and WebFetch to an MCP client over stdio. A burst of calls is one run; a call\nafter the idle gap starts a fresh run with a fresh search budget.',
    examples: ['mono-agent-web mcp --run-idle-seconds 600'],
  },
};

function optionLines(names: readonly OptionName[]): string {
  const heads = names.map((name) => {
    const spec: OptionSpec = OPTION_SPECS[name];
    const long = `--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    return spec.short === undefined ? `    ${long}` : `-${spec.short}, ${long}`;
  });
  const width = Math.max(...heads.map((head) => head.length)) + 2;
  return names.map((name, index) => `  ${heads[index]!.padEnd(width)}${OPTION_SPECS[name].help}`).join('\n');
}

/** The help of one command: what it does, its usage, its options with their defaults, an example. */
export function commandHelpText(command: CommandName): string {
  const help = COMMAND_HELP[command];
  const own = (Object.keys(OPTION_SPECS) as OptionName[]).filter(
    (name) => OPTION_SPECS[name].commands !== 'all' && takes(name, command) && name !== 'json',
  );
  const common = (Object.keys(OPTION_SPECS) as OptionName[]).filter((name) =>
    name === 'json' ? takes(name, command) : OPTION_SPECS[name].commands === 'all',
  );
  return `Usage: ${help.synopsis}

${help.summary}
${own.length > 0 ? `\nOptions:\n${optionLines(own)}\n` : ''}
Common options:
${optionLines(common)}

Example${help.examples.length > 1 ? 's' : ''}:
${help.examples.map((example) => `  ${example}`).join('\n')}

Exit codes: ${EXIT_CODES.success} success, ${EXIT_CODES.invalidInput} invalid input, ${EXIT_CODES.policyDenied} refused by the network policy, ${EXIT_CODES.backendFailure} every backend failed,
${EXIT_CODES.internalError} internal error (see 'mono-agent-web --help').
`;
}

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
                                of calls is one run, and a call after N idle seconds (default ${DEFAULT_RUN_IDLE_SECONDS})
                                starts a fresh run with a fresh search budget
  mono-agent-web help <command>   (or <command> --help): that command's options, defaults and an example

Options:
  --config <file>  agent configuration file (JSON; keys under tools.web, network, artifacts)
  --json           print the outcome as JSON instead of the text a model would read
  -h, --help       show this help and exit
  -v, --version    print the version and exit

Environment (overrides the configuration file):
${CONFIG_ENV_VARIABLES.map((row) => `  ${row.env}`).join('\n')}

Exit codes:
  ${EXIT_CODES.success}   success
  ${EXIT_CODES.invalidInput}   invalid arguments, options or configuration, or an input file that cannot be read
  ${EXIT_CODES.policyDenied}   the network policy refused the destination
  ${EXIT_CODES.backendFailure}   every usable backend failed or was blocked
  ${EXIT_CODES.internalError}  internal error: a one-line message names the file holding the full report
`;
}

/**
 * The text `argv` asks for when it asks only for help or the version (as runCli would answer it),
 * else `undefined`: any other command line, a malformed one included, is runCli's to handle.
 */
export function helpOrVersion(argv: readonly string[], version: () => string): string | undefined {
  let parsed: ParsedCommandLine;
  try {
    parsed = parseCommandLine(argv);
  } catch {
    return undefined;
  }
  if (parsed.values.version) return `${version()}\n`;
  if (parsed.values.help)
    return parsed.command === undefined ? helpText(version()) : commandHelpText(parsed.command);
  if (parsed.command === undefined && parsed.positionals.length === 0) return helpText(version());
  return undefined;
}
