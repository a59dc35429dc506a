/** Process exit codes of the `mono-agent-web` CLI; scripts may rely on them. */
export const EXIT_CODES = {
  /** The command did what was asked. */
  success: 0,
  /** Arguments, options or configuration were invalid. */
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

/** Reports a bug that reached the top of the CLI (its stack on stderr) and sets exit code 70. */
export function exitWithInternalError(error: unknown): void {
  process.stderr.write(`mono-agent-web: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exitCode = EXIT_CODES.internalError;
}
