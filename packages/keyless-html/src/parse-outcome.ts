/** One organic search result, ready for normalisation by the caller. */
export interface KeylessResult {
  /** The result title: entity-decoded, whitespace-normalised. */
  title: string;
  /** The target URL: absolute `http:` or `https:`, engine redirect wrappers removed. */
  url: string;
  /** The result snippet: entity-decoded, whitespace-normalised; empty when the engine gave none. */
  snippet: string;
}

/** The engine answered with at least one organic result. */
export interface KeylessResultsOutcome {
  /** Discriminant. */
  kind: 'results';
  /** Organic results in engine order; ads and engine-internal links are left out. */
  results: KeylessResult[];
}

/** Which kind of block signal made a response count as throttling. */
export type RateLimitSignal = 'status' | 'redirect' | 'challenge' | 'proof_of_work';

/** The engine is throttling or challenging this client; the caller reports `rate_limited`. */
export interface KeylessRateLimitedOutcome {
  /** Discriminant. */
  kind: 'rate_limited';
  /** Human-readable description of the signal, for logs and tool output; never parsed by code. */
  reason: string;
  /** The kind of signal seen. */
  signal: RateLimitSignal;
}

/** A working engine found nothing for the query: a genuine empty answer. */
export interface KeylessNoResultsOutcome {
  /** Discriminant. */
  kind: 'no_results';
}

/**
 * The engine failed in a way that is not throttling (5xx, an unexpected 4xx or 3xx); the caller
 * reports `backend_unavailable`.
 */
export interface KeylessUnavailableOutcome {
  /** Discriminant. */
  kind: 'unavailable';
  /** Human-readable description of the failure, for logs and tool output; never parsed by code. */
  reason: string;
  /** The HTTP status received. */
  status: number;
}

/** What one keyless engine response means. */
export type KeylessParseOutcome =
  | KeylessResultsOutcome
  | KeylessRateLimitedOutcome
  | KeylessNoResultsOutcome
  | KeylessUnavailableOutcome;

/** Options of the page parsers. */
export interface KeylessParseOptions {
  /** Keep at most this many results (1–10); all results of the page when absent. */
  limit?: number;
}
