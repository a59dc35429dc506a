import { reclaimLeases } from './admission-policy.js';
import type { BucketState, CooldownCause } from './bucket-state.js';
import type { ScopeKind } from './scope-limits.js';

/** Operational metadata of one scope, keyed by its hash. */
export interface ScopeStatus {
  /** SHA-256 of the scope name. */
  key: string;
  /** What the scope guards. */
  kind: ScopeKind;
  /** Requests in flight (live leases). */
  activeRequests: number;
  /** Whether a cooldown is running. */
  coolingDown: boolean;
  /** Epoch milliseconds the cooldown ends, while cooling down. */
  cooldownUntil?: number;
  /** What opened the cooldown, while cooling down or probing. */
  cooldownCause?: CooldownCause;
  /** Whether the cooldown ended and the next admission will be the probe. */
  probeDue: boolean;
  /** Whether the probe is out. */
  probeInFlight: boolean;
  /** Consecutive throttles. */
  throttleStreak: number;
  /** Consecutive infrastructure failures. */
  failureStreak: number;
  /** Epoch milliseconds of the last start, if any. */
  lastStartAt?: number;
  /** Admissions since the scope was first seen. */
  admissions: number;
}

/** The status of one stored bucket at `now`, leaving out leases that expired or whose owner died. */
export function scopeStatus(
  key: string,
  bucket: BucketState,
  context: Parameters<typeof reclaimLeases>[1],
): ScopeStatus {
  const live = structuredClone(bucket);
  reclaimLeases(live, context);
  const coolingDown = live.cooldownUntil > context.now;
  const probeInFlight = !coolingDown && live.cooldownUntil !== 0 && live.leases.some((lease) => lease.probe);
  return {
    key,
    kind: live.kind,
    activeRequests: live.leases.length,
    coolingDown,
    ...(coolingDown ? { cooldownUntil: live.cooldownUntil } : {}),
    ...(live.cooldownUntil !== 0 && live.cooldownCause !== undefined
      ? { cooldownCause: live.cooldownCause }
      : {}),
    probeDue: !coolingDown && live.cooldownUntil !== 0 && !probeInFlight,
    probeInFlight,
    throttleStreak: live.throttleStreak,
    failureStreak: live.failureStreak,
    ...(live.lastStartAt === 0 ? {} : { lastStartAt: live.lastStartAt }),
    admissions: live.admissions,
  };
}
