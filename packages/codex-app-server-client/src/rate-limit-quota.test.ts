import { describe, expect, it } from 'vitest';
import {
  createQuotaCache,
  evaluateQuota,
  mergeRateLimitsUpdate,
  parseRateLimitsResult,
  QUOTA_MAX_AGE_MS,
  QUOTA_RESERVE_THRESHOLD_PERCENT,
} from './rate-limit-quota.js';

const window = (usedPercent: number, resetsAt: number | null = 1_800_000_000) => ({
  usedPercent,
  windowDurationMins: 300,
  resetsAt,
});
const read = (primary: unknown, secondary: unknown, extra: Record<string, unknown> = {}) => ({
  ordinaryUsageAllowed: true,
  rateLimits: {
    limitId: 'codex',
    primary,
    secondary,
    credits: null,
    planType: 'plus',
    rateLimitReachedType: null,
  },
  rateLimitsByLimitId: null,
  ...extra,
});

describe('quota', () => {
  it('allows just below the reserve threshold and skips at it, on either window', () => {
    const now = 1_000;
    expect(evaluateQuota({ primary: window(89.9), secondary: window(89) }, now, now).available).toBe(true);
    expect(
      evaluateQuota({ primary: window(QUOTA_RESERVE_THRESHOLD_PERCENT), secondary: window(1) }, now, now),
    ).toMatchObject({
      available: false,
      reason: 'reserve',
      retryAt: 1_800_000_000_000,
    });
    expect(evaluateQuota({ primary: null, secondary: window(90, null) }, now, now)).toEqual({
      available: false,
      reason: 'reserve',
      snapshot: { primary: null, secondary: window(90, null) },
      observedAt: now,
    });
  });

  it('trusts a snapshot for exactly QUOTA_MAX_AGE_MS and not a millisecond more', () => {
    const snapshot = { primary: window(1), secondary: window(1) };
    expect(evaluateQuota(snapshot, 0, QUOTA_MAX_AGE_MS).available).toBe(true);
    expect(evaluateQuota(snapshot, 0, QUOTA_MAX_AGE_MS + 1)).toMatchObject({
      available: false,
      reason: 'stale',
    });
    const cache = createQuotaCache();
    cache.recordRead(read(window(1), window(1)), 0);
    expect(cache.isFresh(QUOTA_MAX_AGE_MS)).toBe(true);
    expect(cache.isFresh(QUOTA_MAX_AGE_MS + 1)).toBe(false);
  });

  it('skips when the snapshot is missing, has no window, or is malformed', () => {
    expect(evaluateQuota(undefined, undefined, 0)).toEqual({ available: false, reason: 'missing' });
    expect(evaluateQuota({ primary: null, secondary: null }, 0, 0)).toMatchObject({ reason: 'invalid' });
    const cache = createQuotaCache();
    cache.recordRead(read({ usedPercent: 'ninety' }, null), 0);
    expect(cache.status(0)).toEqual({ available: false, reason: 'invalid' });
    cache.recordRead({ nothing: true }, 0);
    expect(cache.status(0)).toMatchObject({ reason: 'invalid' });
    expect(parseRateLimitsResult(read(window(-1), null))).toBeUndefined();
  });

  it('prefers the codex entry of the multi-bucket view', () => {
    const result = read(window(5), window(5), {
      rateLimitsByLimitId: {
        other: { primary: window(99), secondary: null },
        codex: { primary: window(95), secondary: null },
      },
    });
    expect(parseRateLimitsResult(result)).toEqual({ primary: window(95), secondary: null });
  });

  it('merges sparse updates, ignores other limits, and refreshes the timestamp', () => {
    const base = { primary: window(10), secondary: window(20) };
    expect(
      mergeRateLimitsUpdate(base, { rateLimits: { limitId: 'codex', primary: window(91), secondary: null } }),
    ).toEqual({
      primary: window(91),
      secondary: window(20),
    });
    expect(
      mergeRateLimitsUpdate(base, { rateLimits: { limitId: 'other', primary: window(99), secondary: null } }),
    ).toBeUndefined();
    const cache = createQuotaCache();
    cache.recordRead(read(window(10), window(20)), 0);
    cache.recordUpdate({ rateLimits: { limitId: null, primary: null, secondary: window(95) } }, 50_000);
    expect(cache.status(50_000 + QUOTA_MAX_AGE_MS)).toMatchObject({
      available: false,
      reason: 'reserve',
      observedAt: 50_000,
    });
    expect(cache.status(50_000 + QUOTA_MAX_AGE_MS).snapshot).toEqual({
      primary: window(10),
      secondary: window(95),
    });
  });

  it('accepts an update as the first snapshot', () => {
    const cache = createQuotaCache();
    cache.recordUpdate({ rateLimits: { limitId: 'codex', primary: window(3), secondary: null } }, 7);
    expect(cache.status(7).available).toBe(true);
  });
});
