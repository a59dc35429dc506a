import { describe, expect, it } from 'vitest';
import { createRunDeferrals, DEFAULT_DEFERRAL_RETRY_MS } from './run-deferrals.js';
import { WebToolError } from './web-tool-error.js';

const clock = { now: () => 1_000_000 };

describe('createRunDeferrals', () => {
  it('defers a provider with its Retry-After and an absolute retryAt', () => {
    const deferrals = createRunDeferrals({ clock });
    expect(deferrals.defer('duckduckgo', { retryAfterMs: 30_000 })).toEqual({
      provider: 'duckduckgo',
      retryAfterMs: 30_000,
      retryAt: 1_030_000,
      retryInRun: false,
    });
    expect(deferrals.isDeferred('duckduckgo')).toBe(true);
    expect(deferrals.isDeferred('startpage')).toBe(false);
  });

  it('uses a known cooldown end, else the default search cooldown, when no Retry-After came', () => {
    const deferrals = createRunDeferrals({ clock });
    expect(deferrals.defer('searxng', { retryAt: 2_000_000 })).toEqual({
      provider: 'searxng',
      retryAt: 2_000_000,
      retryInRun: false,
    });
    expect(deferrals.defer('startpage').retryAt).toBe(1_000_000 + DEFAULT_DEFERRAL_RETRY_MS);
    expect(deferrals.get('startpage')).not.toHaveProperty('retryAfterMs');
  });

  it('keeps a provider deferred for the rest of the run and keeps the later retryAt', () => {
    const deferrals = createRunDeferrals({ clock });
    deferrals.defer('ollama', { retryAfterMs: 60_000 });
    deferrals.defer('ollama', { retryAfterMs: 1_000 });
    expect(deferrals.get('ollama')?.retryAt).toBe(1_060_000);
    expect(deferrals.list().map((deferral) => deferral.provider)).toEqual(['ollama']);
  });

  it('hands out copies, so a caller cannot edit the table', () => {
    const deferrals = createRunDeferrals({ clock });
    const deferral = deferrals.defer('codex');
    deferral.retryAt = 0;
    expect(deferrals.get('codex')?.retryAt).toBe(1_000_000 + DEFAULT_DEFERRAL_RETRY_MS);
  });

  it.each([
    ['', {}],
    ['duckduckgo', { retryAfterMs: -1 }],
    ['duckduckgo', { retryAfterMs: Number.NaN }],
    ['duckduckgo', { retryAt: Number.POSITIVE_INFINITY }],
  ])('rejects bad input %j %j and records nothing', (provider, options) => {
    const deferrals = createRunDeferrals({ clock });
    expect(() => deferrals.defer(provider, options)).toThrow(WebToolError);
    expect(deferrals.list()).toEqual([]);
  });
});
