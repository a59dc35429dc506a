import { WebToolError } from '@mono-agent/budget-policy';

/** Where the coordinator reads the time and waits; tests pass {@link createManualClock}. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects with a `cancelled` WebToolError when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The error every aborted wait rejects with. */
export function cancelledError(signal?: AbortSignal): WebToolError {
  return new WebToolError({
    code: 'cancelled',
    message: 'admission was cancelled by the caller',
    cause: signal?.reason,
  });
}

/** The real clock: `Date.now()` and timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelledError(signal));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelledError(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/** A clock that moves only when told to: for tests of waits and cooldowns without sleeping. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing due sleeps in order and letting their continuations run. */
  advance(ms: number): Promise<void>;
  /** Sleeps not yet due. */
  readonly pendingSleeps: number;
}

interface PendingSleep {
  at: number;
  order: number;
  resolve: () => void;
}

async function settle(): Promise<void> {
  // A few macrotask turns let chains of awaited promises (store updates, queue hand-offs) finish.
  for (let turn = 0; turn < 5; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Creates a {@link ManualClock} starting at `start` epoch milliseconds. */
export function createManualClock(start = 1_700_000_000_000): ManualClock {
  let current = start;
  let order = 0;
  const sleeps = new Set<PendingSleep>();
  return {
    now: () => current,
    get pendingSleeps() {
      return sleeps.size;
    },
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(cancelledError(signal));
          return;
        }
        const pending: PendingSleep = {
          at: current + Math.max(0, ms),
          order: order++,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleeps.delete(pending);
          reject(cancelledError(signal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleeps.add(pending);
      });
    },
    async advance(ms) {
      const target = current + ms;
      await settle();
      for (;;) {
        let next: PendingSleep | undefined;
        for (const pending of sleeps) {
          if (pending.at > target) continue;
          if (
            next === undefined ||
            pending.at < next.at ||
            (pending.at === next.at && pending.order < next.order)
          ) {
            next = pending;
          }
        }
        if (next === undefined) break;
        sleeps.delete(next);
        current = Math.max(current, next.at);
        next.resolve();
        await settle();
      }
      current = target;
      await settle();
    },
  };
}
