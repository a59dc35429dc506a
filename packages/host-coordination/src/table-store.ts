import {
  type AdmissionDecision,
  applyRelease,
  createBucket,
  decideAdmission,
  type ReleaseEffect,
  reclaimLeases,
} from './admission-policy.js';
import type { BucketState, BucketTable, LeaseOwner } from './bucket-state.js';
import type {
  CoordinationStore,
  StoreAdmitRequest,
  StoreDescription,
  StoreOperationOptions,
  StoreRelease,
  StoreResetResult,
} from './coordination-store.js';
import { scopeStatus } from './scope-status.js';

/** What a table store hands to every change: the time, the caller's identity and a liveness check. */
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
  /** What {@link BucketTableStore.update} resolves with. */
  result: T;
}

/** The result of a change to every bucket. */
export interface TableChange<T> {
  /** The table to keep, or `undefined` to keep the table as it was. */
  buckets: BucketTable | undefined;
  /** What {@link BucketTableStore.updateAll} resolves with. */
  result: T;
}

/**
 * An admission or a release as plain data, so a store can run one process's operation in another
 * process: the host store commits every operation queued behind its lock in one write.
 */
export type TableOperation =
  | { type: 'admit'; request: StoreAdmitRequest; marginMs: number }
  | { type: 'release'; release: StoreRelease };

/** What applying a {@link TableOperation} decided. */
export type TableOperationResult =
  | { type: 'admit'; decision: AdmissionDecision }
  | { type: 'release'; effect: ReleaseEffect | undefined };

/** Applies one operation to a bucket (a copy, changed in place); pure apart from the new lease's id. */
export function applyOperation(
  bucket: BucketState | undefined,
  operation: TableOperation,
  context: StoreContext,
): BucketChange<TableOperationResult> {
  if (operation.type === 'admit') {
    const { request, marginMs } = operation;
    const state = bucket ?? createBucket(request.kind, request.spacingMs, context.now);
    const decision = decideAdmission(state, { ...request, marginMs }, context);
    return { bucket: state, result: { type: 'admit', decision } };
  }
  if (bucket === undefined) return { bucket, result: { type: 'release', effect: undefined } };
  const { release } = operation;
  const effect = applyRelease(
    bucket,
    release.leaseId,
    release.outcome,
    release.retryAfterMs,
    context.now,
    release.startedAt,
  );
  return { bucket, result: { type: 'release', effect } };
}

/** Options of one table update. */
export interface TableUpdateOptions extends StoreOperationOptions {
  /**
   * Goes ahead of ordinary updates waiting for the same table (a release: it frees what the waiting
   * admissions want). Stores without a queue ignore it.
   */
  priority?: boolean;
}

/**
 * A store that keeps the whole bucket table where this process can run the admission policy on it:
 * in memory or in the host state file. {@link createPolicyStore} turns one into a
 * {@link CoordinationStore}. A change function must be pure: it may run on a copy that is then dropped.
 */
export interface BucketTableStore {
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
    options?: TableUpdateOptions,
  ): Promise<T>;
  /**
   * Applies `operation` to the bucket of `key` as {@link update} would with {@link applyOperation}; a
   * store that can run operations of several processes together (one commit for all) offers it.
   */
  apply?(key: string, operation: TableOperation, options?: TableUpdateOptions): Promise<TableOperationResult>;
  /** Runs `change` on a copy of every bucket and stores what it returns, atomically. */
  updateAll<T>(
    change: (buckets: BucketTable, context: StoreContext) => TableChange<T>,
    options?: StoreOperationOptions,
  ): Promise<T>;
  /** A consistent copy of every bucket, without taking part in admission. */
  read(
    options?: StoreOperationOptions,
  ): Promise<{ buckets: BucketTable; bytes?: number; context: StoreContext }>;
  /** See {@link CoordinationStore.waitForChange}. */
  waitForChange: CoordinationStore['waitForChange'];
  /** See {@link CoordinationStore.stopWaiting}. */
  stopWaiting?(key: string): void;
  /** How long committing a change takes here, in milliseconds: the lead a spaced start slot is granted with. */
  commitMarginMs(): number;
  /** The store's clock. */
  now(): number;
  /** Frees what the store holds. */
  close(): Promise<void>;
}

/** A {@link CoordinationStore} over a bucket table, which also offers the table's own operations. */
export type TableBackedStore = CoordinationStore &
  Pick<BucketTableStore, 'update' | 'updateAll' | 'read' | 'commitMarginMs'>;

/** Runs the admission policy on a table store's buckets, one atomic update per operation. */
export function createPolicyStore(table: BucketTableStore): TableBackedStore {
  const run = (key: string, operation: TableOperation, options: TableUpdateOptions | undefined) =>
    table.apply !== undefined
      ? table.apply(key, operation, options)
      : table.update(key, (bucket, context) => applyOperation(bucket, operation, context), options);
  return {
    describe: () => table.describe(),
    update: (key, change, options) => table.update(key, change, options),
    updateAll: (change, options) => table.updateAll(change, options),
    read: (options) => table.read(options),
    commitMarginMs: () => table.commitMarginMs(),
    waitForChange: (key, options) => table.waitForChange(key, options),
    stopWaiting: (key) => table.stopWaiting?.(key),
    close: () => table.close(),
    async admit(key, request, options) {
      const marginMs = table.commitMarginMs();
      const outcome = await run(key, { type: 'admit', request, marginMs }, options);
      if (outcome.type !== 'admit') throw new Error('an admission was answered as a release');
      const { decision } = outcome;
      // The answer's time is read after the commit, and a wait counts from it to the moment the
      // decision named, so the time the commit took is not waited a second time.
      const now = table.now();
      if (decision.type === 'granted') {
        return {
          type: 'granted',
          leaseId: decision.lease.id,
          probe: decision.lease.probe,
          startAt: decision.lease.acquiredAt,
          now,
        };
      }
      if (decision.type === 'wait') {
        const { readyAt, ...wait } = decision;
        return { ...wait, waitMs: Math.max(1, readyAt - now), now };
      }
      return { ...decision, now };
    },
    async release(key, release, options) {
      const outcome = await run(key, { type: 'release', release }, { ...options, priority: true });
      if (outcome.type !== 'release') throw new Error('a release was answered as an admission');
      const { effect } = outcome;
      const now = table.now();
      if (effect === undefined) return { leaseHeld: false, now };
      return {
        leaseHeld: effect.leaseHeld,
        ...(effect.cooldownUntil === undefined ? {} : { cooldownUntil: effect.cooldownUntil }),
        ...(effect.cooldownCause === undefined ? {} : { cooldownCause: effect.cooldownCause }),
        now,
      };
    },
    async snapshot(options) {
      const { buckets, bytes, context } = await table.read(options);
      return {
        scopes: Object.entries(buckets).map(([key, bucket]) => scopeStatus(key, bucket, context)),
        ...(bytes === undefined ? {} : { bytes }),
        now: context.now,
      };
    },
    reset(options) {
      return table.updateAll((buckets, context): TableChange<StoreResetResult> => {
        let activeRequests = 0;
        for (const bucket of Object.values(buckets)) {
          reclaimLeases(bucket, context);
          activeRequests += bucket.leases.length;
        }
        if (activeRequests > 0) return { buckets: undefined, result: { reset: false, activeRequests } };
        return { buckets: {}, result: { reset: true, clearedBuckets: Object.keys(buckets).length } };
      }, options);
    },
  };
}
