import { WebToolError } from '@mono-agent/budget-policy';
import { isBucketExpired } from './admission-policy.js';
import type { BucketState, BucketTable } from './bucket-state.js';
import type { Clock } from './clock.js';
import { cancelledError } from './clock.js';
import { currentOwner } from './process-identity.js';
import {
  type BucketTableStore,
  createPolicyStore,
  type StoreContext,
  type TableBackedStore,
} from './table-store.js';

/** The most scopes one process keeps in memory, the same bound as the host file. */
export const MAX_MEMORY_BUCKETS = 512;

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The time source. */
  clock: Clock;
}

/** The `process`-mode store: buckets in this process's memory, changes woken without polling. */
export function createMemoryStore(options: MemoryStoreOptions): TableBackedStore {
  return createPolicyStore(createMemoryTable(options));
}

function createMemoryTable(options: MemoryStoreOptions): BucketTableStore {
  const { clock } = options;
  const buckets = new Map<string, BucketState>();
  const listeners = new Map<string, Set<() => void>>();
  const context = (): StoreContext => ({
    now: clock.now(),
    owner: currentOwner(),
    // Every lease here belongs to this process, so only its expiry can reclaim it.
    isOwnerAlive: () => true,
  });
  const notify = (key: string) => {
    const waiting = listeners.get(key);
    if (waiting === undefined) return;
    listeners.delete(key);
    for (const wake of waiting) wake();
  };
  const table = (): BucketTable => structuredClone(Object.fromEntries(buckets));

  return {
    describe: () => ({ mode: 'process', maxBuckets: MAX_MEMORY_BUCKETS }),
    // A change here commits synchronously, before the caller's next line runs: no lead is needed.
    commitMarginMs: () => 0,
    now: () => clock.now(),
    close: async () => {},
    async update(key, change) {
      const current = context();
      const existing = buckets.get(key);
      const { bucket, result } = change(
        existing === undefined ? undefined : structuredClone(existing),
        current,
      );
      if (bucket === undefined) {
        buckets.delete(key);
      } else {
        if (existing === undefined && buckets.size >= MAX_MEMORY_BUCKETS) {
          for (const [other, state] of buckets)
            if (isBucketExpired(state, current.now)) buckets.delete(other);
          if (buckets.size >= MAX_MEMORY_BUCKETS) {
            throw new WebToolError({
              code: 'capacity_exceeded',
              message: `the coordinator already tracks ${MAX_MEMORY_BUCKETS} active scopes; a new scope is refused`,
              details: { limit: MAX_MEMORY_BUCKETS },
            });
          }
        }
        buckets.set(key, bucket);
      }
      notify(key);
      return result;
    },
    async updateAll(change) {
      const current = context();
      const { buckets: next, result } = change(table(), current);
      if (next !== undefined) {
        const keys = new Set([...buckets.keys(), ...Object.keys(next)]);
        buckets.clear();
        for (const [key, state] of Object.entries(next)) buckets.set(key, state);
        for (const key of keys) notify(key);
      }
      return result;
    },
    async read() {
      return { buckets: table(), context: context() };
    },
    waitForChange(key, { maxMs, signal }) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(cancelledError(signal));
          return;
        }
        const timer = maxMs === undefined ? undefined : new AbortController();
        let waiting = listeners.get(key);
        if (waiting === undefined) {
          waiting = new Set();
          listeners.set(key, waiting);
        }
        const line = waiting;
        const done = () => {
          line.delete(wake);
          signal?.removeEventListener('abort', onAbort);
          timer?.abort();
        };
        const wake = () => {
          done();
          resolve();
        };
        const onAbort = () => {
          done();
          reject(cancelledError(signal));
        };
        line.add(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (timer !== undefined && maxMs !== undefined) {
          clock.sleep(maxMs, timer.signal).then(wake, () => {});
        }
      });
    },
  };
}
