import type { BucketState, BucketTable, LeaseOwner } from './bucket-state.js';

/** What a store hands to every change: the time, the caller's identity and a liveness check. */
export interface StoreContext {
  /** Epoch milliseconds, read once per transaction. */
  now: number;
  /** The process running the transaction. */
  owner: LeaseOwner;
  /** Whether a lease's owner is still running; stores that cannot tell answer true. */
  isOwnerAlive(owner: LeaseOwner): boolean;
}

/** The result of a change to one bucket: its new state (`undefined` deletes it) and a value to return. */
export interface BucketChange<T> {
  /** The bucket to keep, or `undefined` to delete it. */
  bucket: BucketState | undefined;
  /** What {@link CoordinationStore.update} resolves with. */
  result: T;
}

/** The result of a change to every bucket. */
export interface TableChange<T> {
  /** The table to keep, or `undefined` to keep the table as it was. */
  buckets: BucketTable | undefined;
  /** What {@link CoordinationStore.updateAll} resolves with. */
  result: T;
}

/** Options of one store operation. */
export interface StoreOperationOptions {
  /** Stops waiting for the store's lock. */
  signal?: AbortSignal;
}

/** Where a store keeps its state, for status output. */
export interface StoreDescription {
  /** `process` (memory) or `host` (the state file). */
  mode: 'process' | 'host';
  /** The state file, for host stores. */
  stateFile?: string;
  /** The most buckets the store keeps. */
  maxBuckets: number;
  /** The most bytes the store keeps, when it is bounded in bytes. */
  maxBytes?: number;
}

/**
 * Keeps bucket state for a coordinator. A store is the only thing that differs between modes: the
 * admission policy is pure and runs inside {@link CoordinationStore.update}, which a store makes atomic
 * (a mutex in memory, a lock plus atomic replace for the host file, a transaction in a shared database).
 * Keys are already hashed. A change function must be pure: it may run on a copy that is then dropped.
 */
export interface CoordinationStore {
  /** Where the state lives. */
  describe(): StoreDescription;
  /**
   * Runs `change` on the current bucket (a copy; `undefined` when absent) and stores what it returns,
   * atomically with respect to every other process sharing the store. Throws `capacity_exceeded`
   * when a new bucket does not fit once expired ones are evicted.
   */
  update<T>(
    key: string,
    change: (bucket: BucketState | undefined, context: StoreContext) => BucketChange<T>,
    options?: StoreOperationOptions,
  ): Promise<T>;
  /** Runs `change` on a copy of every bucket and stores what it returns, atomically. */
  updateAll<T>(
    change: (buckets: BucketTable, context: StoreContext) => TableChange<T>,
    options?: StoreOperationOptions,
  ): Promise<T>;
  /** A consistent copy of every bucket, without taking part in admission. */
  read(
    options?: StoreOperationOptions,
  ): Promise<{ buckets: BucketTable; bytes?: number; context: StoreContext }>;
  /**
   * Waits until the bucket may have changed: at most `maxMs` (when given), and at most the store's own
   * polling interval for `attempt` when it cannot be told about changes. Rejects with `cancelled`.
   */
  waitForChange(
    key: string,
    options: { maxMs: number | undefined; attempt: number; signal?: AbortSignal },
  ): Promise<void>;
}
