import { describe, expect, it } from 'vitest';
import { FAILURE_CODES, isFailureCode } from './failure-code.js';
import { WebToolError } from './web-tool-error.js';

describe('WebToolError', () => {
  it('carries a stable code, details and retry hints', () => {
    const error = new WebToolError({
      code: 'rate_limited',
      message: 'DuckDuckGo answered 429',
      details: { backend: 'duckduckgo', status: 429 },
      retryAfterMs: 1000,
      retryAt: 1_700_000_001_000,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('rate_limited');
    expect(error.details).toEqual({ backend: 'duckduckgo', status: 429 });
    expect(Object.isFrozen(error.details)).toBe(true);
    expect(error.toJSON()).toEqual({
      name: 'WebToolError',
      code: 'rate_limited',
      message: 'DuckDuckGo answered 429',
      details: { backend: 'duckduckgo', status: 429 },
      retryAfterMs: 1000,
      retryAt: 1_700_000_001_000,
    });
  });

  it('is recognised through its brand, not its prototype', () => {
    const error = new WebToolError({ code: 'timeout', message: 'deadline' });
    // A copy from another realm or package version: same brand, different prototype.
    const foreign = Object.assign(Object.create(Error.prototype), {
      [Symbol.for('@mono-agent/web-tool-error')]: true,
      code: 'timeout',
    });
    expect(WebToolError.isInstance(error)).toBe(true);
    expect(WebToolError.isInstance(foreign, 'timeout')).toBe(true);
    expect(WebToolError.isInstance(error, 'too_large')).toBe(false);
    expect(WebToolError.isInstance(new Error('timeout'))).toBe(false);
    expect(WebToolError.isInstance(null)).toBe(false);
  });

  it('keeps the cause and omits absent retry hints from JSON', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new WebToolError({ code: 'backend_unavailable', message: 'refused', cause });
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).not.toHaveProperty('retryAfterMs');
  });
});

describe('isFailureCode', () => {
  it('accepts every listed code and nothing else', () => {
    for (const code of FAILURE_CODES) expect(isFailureCode(code)).toBe(true);
    expect(isFailureCode('rate-limited')).toBe(false);
    expect(isFailureCode(429)).toBe(false);
  });
});
