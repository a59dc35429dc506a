import type { ScopeKind } from './scope-limits.js';

/** What opened a scope's cooldown: the backend throttled, or it failed repeatedly. */
export type CooldownCause = 'throttled' | 'infrastructure_failure';

/** Who holds a lease: enough to tell a live owner from a dead one or a reused PID. */
export interface LeaseOwner {
  /** The process id. */
  pid: number;
  /** The host name; a lease from another host is never judged dead by PID. */
  host: string;
  /** Boot id plus process start time, so a reused PID is not mistaken for the owner. */
  incarnation: string;
}

/** One admitted request. */
export interface Lease {
  /** Random id, so a permit finds its own lease. */
  id: string;
  /** The holder. */
  owner: LeaseOwner;
  /** Epoch milliseconds of admission. */
  acquiredAt: number;
  /** Epoch milliseconds after which the lease is reclaimed even if its owner lives. */
  expiresAt: number;
  /** Whether this lease is the single probe after a cooldown. */
  probe: boolean;
}

/** The operational state of one scope. Only counters and times: never query text, URLs or content. */
export interface BucketState {
  /** What the scope guards. */
  kind: ScopeKind;
  /** The spacing last requested, kept so an idle bucket can be judged expired. */
  spacingMs: number;
  /** Requests in flight. */
  leases: Lease[];
  /** Epoch milliseconds of the last admission (0 = never). */
  lastStartAt: number;
  /** Epoch milliseconds a cooldown ends (0 = none); once passed, a probe is due. */
  cooldownUntil: number;
  /** What opened the running cooldown; absent in state written before causes were recorded. */
  cooldownCause?: CooldownCause;
  /** Consecutive throttles without a success. */
  throttleStreak: number;
  /** Consecutive infrastructure failures without a success. */
  failureStreak: number;
  /** Admissions granted since the bucket was created. */
  admissions: number;
  /** Epoch milliseconds of the last change. */
  updatedAt: number;
}

/** Every bucket, by hashed scope key. */
export type BucketTable = Record<string, BucketState>;
