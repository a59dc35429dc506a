import type { ReleaseOutcome } from './admission-policy.js';
import type { CooldownCause } from './bucket-state.js';
import type { ScopeKind } from './scope-limits.js';
import type { ScopeStatus } from './scope-status.js';

/** Where a store keeps its state, for status output. */
export interface StoreDescription {
  /** `process` (memory), `host` (the state file) or `redis` (a shared Redis server). */
  mode: 'process' | 'host' | 'redis';
  /** The state file, for host stores. */
  stateFile?: string;
  /** The Redis server as `redis://host:port/db`, without user name or password, for Redis stores. */
  server?: string;
  /** The most buckets the store keeps. */
  maxBuckets: number;
  /** The most bytes the store keeps, when it is bounded in bytes. */
  maxBytes?: number;
}

/** One admission attempt as a store receives it: validated, with the key already hashed. */
export interface StoreAdmitRequest {
  /** What the scope guards. */
  kind: ScopeKind;
  /** Requests allowed in flight at once. */
  concurrency: number;
  /** Minimum milliseconds between two starts. */
  spacingMs: number;
  /** How long an unreleased lease lives. */
  leaseTtlMs: number;
}

/**
 * A store's verdict on one admission attempt. Every variant carries `now`, the store's clock when it
 * answered, so a caller whose clock differs (another machine, a Redis server) can turn store times into
 * waits of its own.
 */
export type StoreAdmission =
  | {
      type: 'granted';
      /** The lease to release. */
      leaseId: string;
      /** Whether this is the single probe after a cooldown. */
      probe: boolean;
      /** The start slot, in store time: the caller may send at this moment and not before. */
      startAt: number;
      now: number;
      /**
       * How much later than `now` the store's clock may already be when the answer arrives (a remote
       * store: the round trip). Waits use `now`, so no caller goes before its slot; the start recorded
       * at release uses `now` plus this, so the next slot is never too early. 0 when omitted.
       */
      clockUncertaintyMs?: number;
    }
  | {
      type: 'skipped';
      reason: 'cooldown' | 'probe_in_flight';
      retryAt: number;
      /** What opened the cooldown, when recorded. */
      cause?: CooldownCause;
      now: number;
    }
  | { type: 'wait'; reason: 'slot' | 'spacing'; waitMs: number; now: number };

/** One release as a store receives it. */
export interface StoreRelease {
  /** The lease to free. */
  leaseId: string;
  /** The lease's start slot, as granted. */
  startAt: number;
  /** How the request ended. */
  outcome: ReleaseOutcome;
  /** The server's Retry-After in milliseconds, when it sent one. */
  retryAfterMs?: number;
  /** When the caller was actually let go, in store time; spaces the next start from it. */
  startedAt?: number;
}

/** What a release left behind. */
export interface StoreReleaseResult {
  /** Whether the lease was still held (false when it had expired or been reclaimed). */
  leaseHeld: boolean;
  /** Store time the scope's cooldown ends, when it is cooling down. */
  cooldownUntil?: number;
  /** What opened that cooldown, when cooling down. */
  cooldownCause?: CooldownCause;
  /** The store's clock when it answered. */
  now: number;
}

/** A consistent view of every scope. */
export interface StoreSnapshot {
  /** Every stored scope, live leases only. */
  scopes: ScopeStatus[];
  /** Bytes the store uses, when it is bounded in bytes. */
  bytes?: number;
  /** The store's clock when it answered. */
  now: number;
}

/** The result of {@link CoordinationStore.reset}. */
export type StoreResetResult =
  | { reset: true; clearedBuckets: number }
  | { reset: false; activeRequests: number };

/** Options of one store operation. */
export interface StoreOperationOptions {
  /** Stops waiting for the store's lock or connection. */
  signal?: AbortSignal;
}

/**
 * Keeps the admission state of every scope for a coordinator. Each operation is atomic with respect to
 * every other process sharing the store: a mutex-free update in memory, a lock plus atomic replace for
 * the host file, one server-side script for Redis. Keys are already hashed; a store never sees a scope
 * name. The same behavioural suite (`test/store-behaviour.ts`) runs against every store.
 */
export interface CoordinationStore {
  /** Where the state lives. */
  describe(): StoreDescription;
  /**
   * Decides one admission: skip while cooling down, wait for a slot or the spacing, or grant a lease
   * with a start slot. Throws `capacity_exceeded` when a new scope does not fit once idle ones are dropped.
   */
  admit(key: string, request: StoreAdmitRequest, options?: StoreOperationOptions): Promise<StoreAdmission>;
  /** Frees a lease and applies its outcome (cooldowns, doubling, the probe's verdict). */
  release(key: string, release: StoreRelease, options?: StoreOperationOptions): Promise<StoreReleaseResult>;
  /** Every scope's operational metadata, without taking part in admission. */
  snapshot(options?: StoreOperationOptions): Promise<StoreSnapshot>;
  /** Clears every scope when no request is in flight; refuses otherwise. */
  reset(options?: StoreOperationOptions): Promise<StoreResetResult>;
  /**
   * Waits until the bucket may have changed: at most `maxMs` (when given), and at most the store's own
   * polling interval for `attempt` when it cannot be told about changes. Rejects with `cancelled`.
   */
  waitForChange(
    key: string,
    options: { maxMs: number | undefined; attempt: number; signal?: AbortSignal },
  ): Promise<void>;
  /**
   * Ends this process's wait for `key` (the admission was decided, failed or was cancelled): a store that
   * lines waiters up across processes lets the next one move up. Optional; safe to call when not waiting.
   */
  stopWaiting?(key: string): void;
  /** Frees connections and watches; the store is unusable afterwards. */
  close(): Promise<void>;
}
