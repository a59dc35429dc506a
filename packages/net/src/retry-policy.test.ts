import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryableError,
  isRetryableStatus,
  MAX_RETRIES,
  parseRetryAfter,
  RETRY_BACKOFF_BASE_MS,
} from './retry-policy.js';

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads HTTP dates relative to the clock, a past date meaning now', () => {
    expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', '-5', '1.5', 'soon', 'next Tuesday-ish']) {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    }
  });
});

describe('retry classification', () => {
  it('retries 408, 425, 429 and 5xx only', () => {
    expect([408, 425, 429, 500, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 301, 400, 401, 403, 404, 410, 600].some(isRetryableStatus)).toBe(false);
  });

  it('retries transient transport codes, also when wrapped as a cause', () => {
    expect(isRetryableError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryableError(new Error('wrapped', { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('tls'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }))).toBe(
      false,
    );
    expect(isRetryableError(undefined)).toBe(false);
  });

  it('backs off 250 ms then 500 ms, and never longer', () => {
    expect(Array.from({ length: MAX_RETRIES + 2 }, (_, retry) => backoffDelay(retry))).toEqual([
      RETRY_BACKOFF_BASE_MS,
      RETRY_BACKOFF_BASE_MS * 2,
      RETRY_BACKOFF_BASE_MS * 2,
      RETRY_BACKOFF_BASE_MS * 2,
    ]);
  });
});
