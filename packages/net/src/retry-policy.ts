/** The most retries after the first attempt. */
export const MAX_RETRIES = 2;

/** The longest Retry-After that is waited out; a longer one ends retrying and is reported instead. */
export const MAX_RETRY_AFTER_WAIT_MS = 5000;

/**
 * The first backoff after a failure without Retry-After; it doubles per retry, so with
 * {@link MAX_RETRIES} the longest backoff is 500 ms.
 */
export const RETRY_BACKOFF_BASE_MS = 250;

const retryableStatuses = new Set([408, 425, 429]);

// Transport failures that may well go away on a second try. DNS "not found", TLS certificate
// problems and protocol errors are not in this list: repeating them only spends the deadline.
const retryableErrorCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Whether an HTTP status is worth another attempt: 408, 425, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status) || (status >= 500 && status <= 599);
}

/** Whether a transport error (a Node or undici error code, also on `cause`) is transient. */
export function isRetryableError(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && retryableErrorCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The wait before retry number `retry` (0-based) when the server named none. */
export function backoffDelay(retry: number): number {
  return RETRY_BACKOFF_BASE_MS * 2 ** Math.min(retry, MAX_RETRIES - 1);
}

/**
 * A Retry-After header as milliseconds from `now`: delay-seconds or an HTTP date (a past date is 0).
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
