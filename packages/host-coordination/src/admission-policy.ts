import type { BucketState, CooldownCause, Lease, LeaseOwner } from './bucket-state.js';
import type { ScopeKind } from './scope-limits.js';

/** Throttle cooldown of a search scope without Retry-After. */
export const SEARCH_THROTTLE_COOLDOWN_MS = 5 * 60_000;
/** Throttle cooldown of a fetch origin without Retry-After. */
export const FETCH_THROTTLE_COOLDOWN_MS = 60_000;
/** Repeated throttling doubles the cooldown up to this; a longer Retry-After is also capped here. */
export const MAX_COOLDOWN_MS = 60 * 60_000;
/** Consecutive infrastructure failures that open a cooldown. */
export const INFRASTRUCTURE_FAILURE_THRESHOLD = 2;
/** The cooldown opened by repeated infrastructure failures. */
export const INFRASTRUCTURE_FAILURE_COOLDOWN_MS = 60_000;

/** The throttle cooldown of a scope kind when the server gave no Retry-After. */
export const DEFAULT_THROTTLE_COOLDOWN_MS: Readonly<Record<ScopeKind, number>> = {
  search: SEARCH_THROTTLE_COOLDOWN_MS,
  fetch: FETCH_THROTTLE_COOLDOWN_MS,
};

/** How a request ended, as far as the scope's health is concerned. */
export type ReleaseOutcome =
  /** The backend answered (any answer that is not throttling). */
  | 'success'
  /** The backend throttled (429, block page, challenge). */
  | 'throttled'
  /** The backend could not be reached or broke (connection refused, 5xx, timeout). */
  | 'infrastructure_failure'
  /** No verdict: the request was cancelled or never sent; only the slot is freed. */
  | 'abandoned';

/** What the admission policy needs besides the bucket. */
export interface PolicyContext {
  /** Epoch milliseconds. */
  now: number;
  /** The admitting process. */
  owner: LeaseOwner;
  /** Whether a lease's owner is still running. */
  isOwnerAlive(owner: LeaseOwner): boolean;
}

/** One admission request, validated. */
export interface PolicyRequest {
  kind: ScopeKind;
  concurrency: number;
  spacingMs: number;
  leaseTtlMs: number;
  /**
   * How far ahead of now a start slot is granted when the scope has spacing: the store's estimate of
   * how long committing the grant and answering takes, so the caller can be released exactly at the
   * slot instead of whenever the commit happens to finish. 0 grants at once.
   */
  marginMs: number;
}

/** The verdict of one admission attempt. */
export type AdmissionDecision =
  | { type: 'granted'; lease: Lease }
  | {
      type: 'skipped';
      reason: 'cooldown' | 'probe_in_flight';
      retryAt: number;
      /** What opened the cooldown, when the bucket recorded it. */
      cause?: CooldownCause;
    }
  | {
      type: 'wait';
      reason: 'slot' | 'spacing';
      /** How long from the decision's `now` until an attempt can be granted. */
      waitMs: number;
      /** Epoch milliseconds an attempt can be granted: a store answering later counts its wait from here. */
      readyAt: number;
    };

/** A new, empty bucket. */
export function createBucket(kind: ScopeKind, spacingMs: number, now: number): BucketState {
  return {
    kind,
    spacingMs,
    leases: [],
    lastStartAt: 0,
    cooldownUntil: 0,
    throttleStreak: 0,
    failureStreak: 0,
    admissions: 0,
    updatedAt: now,
  };
}

/** Drops leases that expired or whose owner is proven dead; returns how many were dropped. */
export function reclaimLeases(bucket: BucketState, context: PolicyContext): number {
  const before = bucket.leases.length;
  bucket.leases = bucket.leases.filter(
    (lease) => lease.expiresAt > context.now && context.isOwnerAlive(lease.owner),
  );
  return before - bucket.leases.length;
}

/**
 * Whether a bucket holds nothing worth keeping: no live lease, no cooldown or probe due, spacing
 * passed, and no failure streak younger than the longest cooldown.
 */
export function isBucketExpired(bucket: BucketState, now: number): boolean {
  if (bucket.leases.some((lease) => lease.expiresAt > now)) return false;
  if (bucket.cooldownUntil !== 0) return false;
  if (bucket.lastStartAt + bucket.spacingMs > now) return false;
  const streaks = bucket.throttleStreak + bucket.failureStreak;
  return streaks === 0 || now - bucket.updatedAt >= MAX_COOLDOWN_MS;
}

/** Decides one admission attempt and updates `bucket` in place when it grants. */
export function decideAdmission(
  bucket: BucketState,
  request: PolicyRequest,
  context: PolicyContext,
): AdmissionDecision {
  const { now } = context;
  bucket.kind = request.kind;
  bucket.spacingMs = request.spacingMs;
  reclaimLeases(bucket, context);
  if (bucket.cooldownUntil > now) {
    return {
      type: 'skipped',
      reason: 'cooldown',
      retryAt: bucket.cooldownUntil,
      ...(bucket.cooldownCause === undefined ? {} : { cause: bucket.cooldownCause }),
    };
  }
  const probing = bucket.cooldownUntil !== 0;
  if (probing) {
    const probe = bucket.leases.find((lease) => lease.probe);
    if (probe !== undefined) {
      return {
        type: 'skipped',
        reason: 'probe_in_flight',
        retryAt: probe.expiresAt,
        ...(bucket.cooldownCause === undefined ? {} : { cause: bucket.cooldownCause }),
      };
    }
  }
  if (bucket.leases.length >= request.concurrency) {
    // Nothing frees a slot but a release or a lease running out, so wake at the earliest expiry.
    const earliest = Math.min(...bucket.leases.map((lease) => lease.expiresAt));
    return { type: 'wait', reason: 'slot', waitMs: Math.max(1, earliest - now), readyAt: earliest };
  }
  // With spacing, the start is a slot a little in the future (see PolicyRequest.marginMs), and never
  // sooner than the spacing after the last slot; a slot further off than the margin is waited for.
  const soonest = request.spacingMs > 0 ? now + request.marginMs : now;
  const slot = bucket.lastStartAt === 0 ? soonest : Math.max(soonest, bucket.lastStartAt + request.spacingMs);
  if (slot > soonest) {
    // An attempt is granted once its own soonest start reaches the slot, `marginMs` before it.
    return {
      type: 'wait',
      reason: 'spacing',
      waitMs: Math.max(1, slot - soonest),
      readyAt: slot - request.marginMs,
    };
  }
  const lease: Lease = {
    id: process.getBuiltinModule('node:crypto').randomUUID(),
    owner: context.owner,
    acquiredAt: slot,
    expiresAt: slot + request.leaseTtlMs,
    probe: probing,
  };
  bucket.leases.push(lease);
  bucket.lastStartAt = slot;
  bucket.admissions += 1;
  bucket.updatedAt = now;
  return { type: 'granted', lease };
}

/** What a release changed. */
export interface ReleaseEffect {
  /** Epoch milliseconds the scope's cooldown ends, when it is cooling down after this release. */
  cooldownUntil: number | undefined;
  /** What opened that cooldown, when cooling down. */
  cooldownCause: CooldownCause | undefined;
  /** Whether the permit's lease was still held (false when it had been reclaimed). */
  leaseHeld: boolean;
}

function throttleDelay(bucket: BucketState, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_COOLDOWN_MS);
  const doubled = DEFAULT_THROTTLE_COOLDOWN_MS[bucket.kind] * 2 ** Math.max(0, bucket.throttleStreak - 1);
  return Math.min(doubled, MAX_COOLDOWN_MS);
}

/**
 * Frees a lease and applies its outcome to the scope's cooldown state, in place. `startedAt` is when the
 * caller was actually let go, in the store's time.
 */
export function applyRelease(
  bucket: BucketState,
  leaseId: string,
  outcome: ReleaseOutcome,
  retryAfterMs: number | undefined,
  now: number,
  startedAt?: number,
): ReleaseEffect {
  const index = bucket.leases.findIndex((lease) => lease.id === leaseId);
  const lease = index === -1 ? undefined : bucket.leases[index];
  if (index !== -1) bucket.leases.splice(index, 1);
  // A caller let go later than its slot (a slow commit, a late timer) really started then, and the
  // next start is spaced from that moment; only the latest slot is moved. The reported start is the
  // caller's own estimate of the store's clock (its permit's `admittedAt`), which for a store on
  // another machine may run ahead of `now` by up to the admission's round trip: it is kept as
  // reported, so the next caller's `admittedAt` is never less than one spacing after it, and bounded
  // by the lease's expiry, so no report can hold the scope longer than the lease could.
  if (
    lease !== undefined &&
    startedAt !== undefined &&
    lease.acquiredAt === bucket.lastStartAt &&
    startedAt > bucket.lastStartAt
  ) {
    bucket.lastStartAt = Math.min(startedAt, lease.expiresAt);
  }
  const probe = lease?.probe === true;
  const coolingDown = bucket.cooldownUntil > now;
  bucket.updatedAt = now;
  switch (outcome) {
    case 'success':
      // A success that started before a cooldown opened says nothing about the scope now; only
      // the probe (or a request outside any cooldown) closes it.
      if (probe || bucket.cooldownUntil === 0) {
        bucket.cooldownUntil = 0;
        delete bucket.cooldownCause;
        bucket.throttleStreak = 0;
        bucket.failureStreak = 0;
      }
      break;
    case 'throttled':
      if (coolingDown && !probe) {
        // Another request of the same burst: honour a longer Retry-After, but do not double again.
        if (retryAfterMs !== undefined) {
          bucket.cooldownUntil = Math.max(
            bucket.cooldownUntil,
            now + Math.min(retryAfterMs, MAX_COOLDOWN_MS),
          );
        }
        break;
      }
      bucket.throttleStreak += 1;
      bucket.cooldownUntil = now + throttleDelay(bucket, retryAfterMs);
      bucket.cooldownCause = 'throttled';
      break;
    case 'infrastructure_failure':
      bucket.failureStreak += 1;
      if (bucket.failureStreak >= INFRASTRUCTURE_FAILURE_THRESHOLD) {
        const until = now + INFRASTRUCTURE_FAILURE_COOLDOWN_MS;
        // A running throttle cooldown that ends later keeps its cause: it is what the wait is for.
        if (until > bucket.cooldownUntil) {
          bucket.cooldownUntil = until;
          bucket.cooldownCause = 'infrastructure_failure';
        }
      }
      break;
    case 'abandoned':
      break;
  }
  const cooling = bucket.cooldownUntil > now;
  return {
    cooldownUntil: cooling ? bucket.cooldownUntil : undefined,
    cooldownCause: cooling ? bucket.cooldownCause : undefined,
    leaseHeld: lease !== undefined,
  };
}
