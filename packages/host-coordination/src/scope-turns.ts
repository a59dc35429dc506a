import { cancelledError } from './clock.js';

interface QueueEntry {
  wake?: () => void;
}

/** Admissions of this process waiting their turn, one line per scope key. */
export interface ScopeTurns {
  /**
   * Waits until the caller heads the line of `key`, in arrival order; resolves with how to leave it.
   * Rejects with `cancelled` when `signal` aborts first.
   */
  take(key: string, signal: AbortSignal | undefined): Promise<() => void>;
}

/** Lines of admissions waiting their turn, one per scope key; a line goes once it is empty. */
export function createScopeTurns(): ScopeTurns {
  const queues = new Map<string, QueueEntry[]>();
  return {
    async take(key, signal) {
      let queue = queues.get(key);
      if (queue === undefined) {
        queue = [];
        queues.set(key, queue);
      }
      const line = queue;
      const entry: QueueEntry = {};
      line.push(entry);
      const leave = () => {
        const index = line.indexOf(entry);
        if (index === -1) return;
        line.splice(index, 1);
        if (line.length === 0) queues.delete(key);
        else if (index === 0) line[0]?.wake?.();
      };
      if (line[0] !== entry) {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            leave();
            reject(cancelledError(signal));
          };
          entry.wake = () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
          if (signal?.aborted) onAbort();
          else signal?.addEventListener('abort', onAbort, { once: true });
        });
      }
      return leave;
    },
  };
}
