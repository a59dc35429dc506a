/**
 * Waits `ms` milliseconds; resolves `false` early when `signal` aborts. The timer is cleared on abort, so
 * a client that leaves (or a fixture that closes) never leaves a pending timer behind.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
