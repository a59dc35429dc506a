/** Process exit codes of the `mono-agent-web` CLI; scripts may rely on them. */
export const EXIT_CODES = {
  /** The command did what was asked. */
  success: 0,
  /** Arguments, options, configuration or an input file were invalid or unreadable. */
  invalidInput: 2,
  /** The network policy refused every destination the command needed. */
  policyDenied: 3,
  /** Every backend the command could use failed or was blocked. */
  backendFailure: 4,
  /** A bug: something that should not happen did. */
  internalError: 70,
} as const;

/** One of the CLI's exit codes. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The start of an internal-error report's file name, in the temporary folder. */
export const INTERNAL_ERROR_REPORT_PREFIX = 'mono-agent-web-internal-error-';

/** Where an internal error was reported, and the line the operator reads. */
export interface InternalErrorReport {
  /** The report's file, when it could be written. */
  file: string | undefined;
  /** One line: what failed and where the full report is. */
  line: string;
}

function firstLine(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : typeof error === 'string'
        ? error
        : String(error);
  return text.split('\n', 1)[0]!.slice(0, 300);
}

/**
 * Writes the full report of a bug (its stack, the versions, the command) to a new file in the
 * temporary folder and returns one line naming the failure and that file: a stack trace is for a bug
 * report, not for the terminal or the stdout a script or model reads.
 */
export function reportInternalError(
  error: unknown,
  context: { command?: string | undefined; version?: string | undefined } = {},
): InternalErrorReport {
  const { mkdtempSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const { tmpdir } = process.getBuiltinModule('node:os');
  const { join } = process.getBuiltinModule('node:path');
  const summary = firstLine(error);
  let file: string | undefined;
  let unwritten = '';
  try {
    // A fresh folder of its own: the name cannot be taken over by another user's file.
    const folder = mkdtempSync(join(tmpdir(), INTERNAL_ERROR_REPORT_PREFIX));
    file = join(folder, 'report.txt');
    const stack = error instanceof Error ? (error.stack ?? summary) : summary;
    const cause =
      error instanceof Error && error.cause !== undefined ? `\ncause: ${String(error.cause)}` : '';
    writeFileSync(
      file,
      [
        'mono-agent-web internal error',
        `time: ${new Date().toISOString()}`,
        `version: ${context.version ?? 'unknown'}`,
        `node: ${process.version} ${process.platform}-${process.arch}`,
        `command: ${context.command ?? 'unknown'}`,
        '',
        `${stack}${cause}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
  } catch (writeError) {
    file = undefined;
    unwritten = ` (no report written: ${firstLine(writeError)})`;
  }
  return {
    file,
    line: `mono-agent-web: internal error: ${summary}${file === undefined ? unwritten : `; full report in ${file}`}`,
  };
}

/** Reports a bug that reached the top of the CLI (one line on stderr, the report in a file) and sets exit code 70. */
export function exitWithInternalError(
  error: unknown,
  context: { command?: string | undefined; version?: string | undefined } = {},
): void {
  process.stderr.write(`${reportInternalError(error, context).line}\n`);
  process.exitCode = EXIT_CODES.internalError;
}
