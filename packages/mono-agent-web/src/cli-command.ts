// What every command runner of the CLI shares: where it writes, the usage errors it throws, the exit
// code of a failure, and the loaders of the configuration and the runtime.
import type { FailureCode } from '@mono-agent/budget-policy';
import type { ProgressClock, ProgressStream } from './cli-progress.js';
import type { ParsedCommandLine } from './cli-usage.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import type { WebRuntimeOptions } from './runtime/runtime-types.js';

/** Where the CLI writes and what it reads; injected so tests and embedding hosts capture output. */
export interface CliOutput {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
  /** Standard input, for `extract -`. */
  stdin?: AsyncIterable<Uint8Array | string>;
  /** The environment configuration is read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra runtime options (tests point the keyless engines at a local replay). */
  runtime?: Partial<Omit<WebRuntimeOptions, 'config'>>;
  /**
   * Where a long search or fetch shows what it waits for (the bin passes stderr): drawn only when it
   * is a terminal, never under `--json`. Left out, no progress is shown.
   */
  progress?: ProgressStream;
  /** The progress line's clock (default the process's). */
  progressClock?: ProgressClock;
}

/** A command line that cannot run: exit 2, its message on one line with a pointer to the command's help. */
export class UsageError extends Error {}

/** An input the command cannot use (an unreadable file): exit 2, its message on one line. */
export class InputError extends UsageError {}

/** The whole number an option was given as, or a usage error naming the option. */
export function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got '${value}'`);
  return Number(value);
}

/** The exit code of a command that ended with this failure category (or none). */
export function exitCodeFor(code: FailureCode | undefined): ExitCode {
  switch (code) {
    case undefined:
      return EXIT_CODES.success;
    case 'validation_error':
    case 'configuration_error':
      return EXIT_CODES.invalidInput;
    case 'policy_denied':
      return EXIT_CODES.policyDenied;
    case 'internal_error':
      return EXIT_CODES.internalError;
    default:
      return EXIT_CODES.backendFailure;
  }
}

/** A message on one line, as each line the CLI writes to stderr must be. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

// The configuration loader (and the network and provider modules it checks values with) loads only
// for a command that needs it, so `--help` and `--version` start as fast as Node itself.
/** The configuration as the command line and the environment give it. */
export async function loadConfig(parsed: ParsedCommandLine, output: CliOutput) {
  const { loadWebConfig } = await import('./config/load-web-config.js');
  return await loadWebConfig({
    env: output.env ?? process.env,
    ...(parsed.values.config === undefined ? {} : { file: parsed.values.config }),
  });
}

/** The runtime over the loaded configuration, owning the sweep of its artifact folder. */
export async function loadRuntime(parsed: ParsedCommandLine, output: CliOutput) {
  const config = await loadConfig(parsed, output);
  const { createWebRuntime } = await import('./runtime/web-runtime.js');
  // The CLI and the MCP server own their artifact folder: a bounded sweep runs as they start.
  return await createWebRuntime({
    artifactSweep: true,
    ...output.runtime,
    config,
    ...(output.env ? { env: output.env } : {}),
  });
}
