import { WebToolError } from '@mono-agent/budget-policy';

// Kept on globalThis under a registered symbol, so every copy of this module in one process (two
// versions installed side by side, a bundled copy) shares one queue.
const QUEUE_KEY = Symbol.for('@mono-agent/codex-app-server-client/search-queue');

interface QueueState {
  tail: Promise<void>;
}

const state = (): QueueState => {
  const holder = globalThis as { [QUEUE_KEY]?: QueueState };
  holder[QUEUE_KEY] ??= { tail: Promise.resolve() };
  return holder[QUEUE_KEY];
};

const cancelled = () =>
  new WebToolError({ code: 'cancelled', message: 'the search was cancelled while waiting for its turn' });

/**
 * Waits until no other subscription search runs in this process, then resolves with the function
 * that lets the next one in. An abort while waiting rejects with `cancelled` and keeps the order.
 */
export function enterSearchQueue(signal?: AbortSignal): Promise<() => void> {
  const queue = state();
  const previous = queue.tail;
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => {
    leave = resolve;
  });
  queue.tail = previous.then(() => mine);
  if (signal?.aborted) {
    void previous.then(leave);
    return Promise.reject(cancelled());
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      void previous.then(leave);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      if (signal?.aborted) return;
      signal?.removeEventListener('abort', onAbort);
      let left = false;
      resolve(() => {
        if (left) return;
        left = true;
        leave();
      });
    });
  });
}
