// What `validate` reports, and the options it takes: shared by the structural checks and by the
// checks that start a program or send a query.

/**
 * How one finding of `validate` came out: `ok` (checked and fine), `note` (not checked, or checked
 * only later, and the detail says which and why), `warn` (works, but probably not as meant) or `fail`.
 */
export type ValidationStatus = 'ok' | 'note' | 'warn' | 'fail';

/** One finding of `validate`. */
export interface ValidationCheck {
  /** A stable name, e.g. `network.searxng`. */
  name: string;
  /** What the check found; `note` when it did not check, saying why. */
  status: ValidationStatus;
  /** What was found, in a sentence. */
  detail: string;
}

/** The "Web search & fetch" section of `validate`. */
export interface ValidationReport {
  /** Section title. */
  section: 'Web search & fetch';
  /** Whether external probes ran. */
  liveness: boolean;
  /** Every check, in order. */
  checks: ValidationCheck[];
  /** True when no check failed. */
  ok: boolean;
}

/** Options of `validateWebConfig`. */
export interface ValidateOptions {
  /** Run the bounded external probes (default true). */
  liveness?: boolean;
  /** The `codex` executable search would start (default `codex` on the PATH). */
  codexCommand?: string;
  /** Runs `browserCommand --version`; injectable for tests. */
  runVersion?: (command: string) => Promise<string>;
  /** Finds an executable as a direct start would (default: the PATH); injectable for tests. */
  findCommand?: (command: string) => string | undefined;
}
