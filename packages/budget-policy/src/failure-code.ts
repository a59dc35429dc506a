/**
 * The one vocabulary of failure categories used across mono-agent-web. Decisions (retry, cooldown,
 * fallback, rendering) read these codes, never an error's message.
 */
export const FAILURE_CODES = [
  /** Input broke a documented rule: a bad argument, header, URL or config value. */
  'validation_error',
  /** The configuration is unusable as written (e.g. a SearXNG instance with JSON output off). */
  'configuration_error',
  /** The network policy refused a destination; no connection was made. */
  'policy_denied',
  /** The backend said, directly or through a block signal, that it is throttling us. */
  'rate_limited',
  /** The backend could not be reached or failed in a way that is not throttling. */
  'backend_unavailable',
  /** A deadline ran out. */
  'timeout',
  /** The caller's AbortSignal fired. */
  'cancelled',
  /** A body or document passed a byte, character or count bound. */
  'too_large',
  /** The server answered with a non-success HTTP status. */
  'http_status',
  /** Too many redirect hops, or a redirect where none is allowed. */
  'redirect_refused',
  /** The content kind cannot be extracted. */
  'unsupported_content',
  /** A declared charset is unknown or the bytes cannot be decoded with it. */
  'charset_error',
  /** A strict parser (JSON, XML, PDF, search response) rejected the body. */
  'parse_error',
  /** The run's request budget is spent; no request was sent. */
  'search_budget_exhausted',
  /** The scope is cooling down after throttling or failures; no request was sent. */
  'cooldown',
  /** A subscription quota is near its limit or unknown; no request was sent. */
  'quota_unavailable',
  /** A page requires signing in. */
  'authentication_required',
  /** A page answered with a CAPTCHA or access challenge. */
  'access_challenge',
  /** The shared host state file is unsafe (permissions, owner, symlink) or corrupt. */
  'state_unsafe',
  /** A bounded table (e.g. host state buckets) is full. */
  'capacity_exceeded',
  /** A protocol peer (e.g. `codex app-server`) broke its contract. */
  'protocol_error',
  /** Something that should not happen did; a bug to report. */
  'internal_error',
] as const;

/** One failure category. */
export type FailureCode = (typeof FAILURE_CODES)[number];

const codes = new Set<string>(FAILURE_CODES);

/** Whether a string is one of the failure codes. */
export function isFailureCode(value: unknown): value is FailureCode {
  return typeof value === 'string' && codes.has(value);
}
