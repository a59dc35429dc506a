import type { FailureCode } from './failure-code.js';

const brand = Symbol.for('@mono-agent/web-tool-error');

/** Options of a {@link WebToolError}. */
export interface WebToolErrorOptions {
  /** The failure category. */
  code: FailureCode;
  /** A human-readable explanation; never parsed by code. */
  message: string;
  /** The underlying error, kept for diagnosis. */
  cause?: unknown;
  /** Bounded, non-secret operational facts (backend, status, rule, limit...). */
  details?: Readonly<Record<string, unknown>>;
  /** How long the caller should wait before trying again, when known. */
  retryAfterMs?: number;
  /** The absolute time (epoch milliseconds) after which trying again can help, when known. */
  retryAt?: number;
}

/**
 * The error every package throws for an expected failure. Code reads {@link WebToolError.code};
 * `isInstance` works across copies of this package (a realm-safe brand), unlike `instanceof`.
 */
export class WebToolError extends Error {
  /** Marks instances across package copies. */
  readonly [brand] = true;
  override readonly name: string = 'WebToolError';
  /** The failure category. */
  readonly code: FailureCode;
  /** Bounded, non-secret operational facts. */
  readonly details: Readonly<Record<string, unknown>>;
  /** How long to wait before trying again, when known. */
  readonly retryAfterMs: number | undefined;
  /** Epoch milliseconds after which trying again can help, when known. */
  readonly retryAt: number | undefined;

  constructor(options: WebToolErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.details = Object.freeze({ ...options.details });
    this.retryAfterMs = options.retryAfterMs;
    this.retryAt = options.retryAt;
  }

  /** Whether `error` is a WebToolError (from any copy of this package), optionally of one code. */
  static isInstance(error: unknown, code?: FailureCode): error is WebToolError {
    if (typeof error !== 'object' || error === null || !(brand in error)) return false;
    return code === undefined || (error as WebToolError).code === code;
  }

  /** A plain object for logs and tool output: code, message, details and retry hints. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      details: this.details,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.retryAt === undefined ? {} : { retryAt: this.retryAt }),
    };
  }
}
