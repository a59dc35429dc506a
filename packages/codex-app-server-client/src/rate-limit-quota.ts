/** The longest a rate-limit snapshot is trusted before it must be read again. */
export const QUOTA_MAX_AGE_MS = 60_000;

/**
 * A window at or above this used percentage skips the search: 10 % of the allowance stays in
 * reserve for the operator's own use of Codex.
 */
export const QUOTA_RESERVE_THRESHOLD_PERCENT = 90;

/** The metered limit whose windows gate a search. */
export const CODEX_LIMIT_ID = 'codex';

/** One rate-limit window as `codex app-server` reports it. */
export interface RateLimitWindow {
  /** How much of the window is used, 0–100. */
  usedPercent: number;
  /** The window's length in minutes, when known. */
  windowDurationMins: number | null;
  /** When the window resets, in Unix seconds, when known. */
  resetsAt: number | null;
}

/** The two windows of the Codex limit. */
export interface RateLimitSnapshot {
  /** The short window (e.g. 5 hours), or null when not reported. */
  primary: RateLimitWindow | null;
  /** The long window (e.g. a week), or null when not reported. */
  secondary: RateLimitWindow | null;
}

/** Why a search may not spend quota. */
export type QuotaSkipReason = 'missing' | 'invalid' | 'stale' | 'reserve';

/** Whether the quota allows one more search, and why not. */
export interface QuotaStatus {
  /** True when both windows are known to be below the reserve threshold and the snapshot is fresh. */
  available: boolean;
  /** Why not, when not available. */
  reason?: QuotaSkipReason;
  /** The snapshot the decision used, when there is one. */
  snapshot?: RateLimitSnapshot;
  /** Epoch milliseconds of the snapshot's last read or update. */
  observedAt?: number;
  /** Epoch milliseconds when the exhausted window resets, when the reason is `reserve` and it is known. */
  retryAt?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalNumber = (value: unknown): number | null | undefined =>
  value === null || value === undefined
    ? null
    : typeof value === 'number' && Number.isFinite(value)
      ? value
      : undefined;

/** Reads one window; `undefined` when it is malformed, `null` when it is absent. */
function parseWindow(value: unknown): RateLimitWindow | null | undefined {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) return undefined;
  const { usedPercent } = value;
  if (typeof usedPercent !== 'number' || !Number.isFinite(usedPercent) || usedPercent < 0) return undefined;
  const windowDurationMins = optionalNumber(value.windowDurationMins);
  const resetsAt = optionalNumber(value.resetsAt);
  if (windowDurationMins === undefined || resetsAt === undefined) return undefined;
  return { usedPercent, windowDurationMins, resetsAt };
}

/** The Codex windows of one `RateLimitSnapshot`; `undefined` when it is malformed. */
function parseSnapshot(value: unknown): RateLimitSnapshot | undefined {
  if (!isObject(value)) return undefined;
  const primary = parseWindow(value.primary);
  const secondary = parseWindow(value.secondary);
  if (primary === undefined || secondary === undefined) return undefined;
  return { primary, secondary };
}

/**
 * The Codex snapshot of an `account/rateLimits/read` result: the `codex` entry of the multi-bucket
 * view when present, else the single-bucket view. `undefined` when the result is malformed.
 */
export function parseRateLimitsResult(result: unknown): RateLimitSnapshot | undefined {
  if (!isObject(result)) return undefined;
  const byLimit = isObject(result.rateLimitsByLimitId) ? result.rateLimitsByLimitId : undefined;
  return parseSnapshot(byLimit?.[CODEX_LIMIT_ID] ?? result.rateLimits);
}

/**
 * Merges an `account/rateLimits/updated` notification into a snapshot. The update is sparse: a window
 * it carries replaces the cached one, a null window keeps it. Updates for other limits, and malformed
 * ones, change nothing (`undefined`).
 */
export function mergeRateLimitsUpdate(
  current: RateLimitSnapshot | undefined,
  params: unknown,
): RateLimitSnapshot | undefined {
  if (!isObject(params) || !isObject(params.rateLimits)) return undefined;
  const { limitId } = params.rateLimits;
  if (limitId !== null && limitId !== undefined && limitId !== CODEX_LIMIT_ID) return undefined;
  const update = parseSnapshot(params.rateLimits);
  if (update === undefined) return undefined;
  return {
    primary: update.primary ?? current?.primary ?? null,
    secondary: update.secondary ?? current?.secondary ?? null,
  };
}

/** Decides whether a snapshot observed at `observedAt` allows a search at `now`. */
export function evaluateQuota(
  snapshot: RateLimitSnapshot | undefined,
  observedAt: number | undefined,
  now: number,
): QuotaStatus {
  if (snapshot === undefined || observedAt === undefined) return { available: false, reason: 'missing' };
  const base = { snapshot, observedAt };
  if (now - observedAt > QUOTA_MAX_AGE_MS) return { available: false, reason: 'stale', ...base };
  const windows = [snapshot.primary, snapshot.secondary].filter((window) => window !== null);
  // A snapshot without any window says nothing about the allowance left.
  if (windows.length === 0) return { available: false, reason: 'invalid', ...base };
  const exhausted = windows.filter((window) => window.usedPercent >= QUOTA_RESERVE_THRESHOLD_PERCENT);
  if (exhausted.length > 0) {
    const resets = exhausted.map((window) => window.resetsAt);
    const retryAt = resets.every((value) => value !== null) ? Math.max(...resets) * 1000 : undefined;
    return { available: false, reason: 'reserve', ...base, ...(retryAt === undefined ? {} : { retryAt }) };
  }
  return { available: true, ...base };
}

/** The cached Codex snapshot, with the time it was last read or updated. */
export interface QuotaCache {
  /** The decision for `now`. */
  status(now: number): QuotaStatus;
  /** Whether the cache holds a fresh, well-formed snapshot at `now` (no read needed). */
  isFresh(now: number): boolean;
  /** Stores the result of a successful read. */
  recordRead(result: unknown, now: number): void;
  /** Merges an update notification. */
  recordUpdate(params: unknown, now: number): void;
}

/** Creates an empty cache. */
export function createQuotaCache(): QuotaCache {
  let snapshot: RateLimitSnapshot | undefined;
  let observedAt: number | undefined;
  let invalid = false;
  return {
    status(now) {
      if (invalid) return { available: false, reason: 'invalid' };
      return evaluateQuota(snapshot, observedAt, now);
    },
    isFresh(now) {
      return (
        !invalid && snapshot !== undefined && observedAt !== undefined && now - observedAt <= QUOTA_MAX_AGE_MS
      );
    },
    recordRead(result, now) {
      snapshot = parseRateLimitsResult(result);
      invalid = snapshot === undefined;
      observedAt = snapshot === undefined ? undefined : now;
    },
    recordUpdate(params, now) {
      const merged = mergeRateLimitsUpdate(snapshot, params);
      if (merged === undefined) return;
      snapshot = merged;
      invalid = false;
      observedAt = now;
    },
  };
}
