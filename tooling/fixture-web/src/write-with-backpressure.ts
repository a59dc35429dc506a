import type { ServerResponse } from 'node:http';

/**
 * Writes one chunk and, when the socket buffer is full, waits for `drain`. Resolves to `false` once the
 * client is gone, so a producing loop stops instead of filling memory with bytes nobody will read.
 */
export function writeWithBackpressure(
  response: ServerResponse,
  chunk: Uint8Array,
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted || response.destroyed) return Promise.resolve(false);
  if (response.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (writable: boolean) => {
      response.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(writable);
    };
    const onDrain = () => finish(true);
    const onAbort = () => finish(false);
    response.once('drain', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Writes every chunk with backpressure and ends the response; stops early when the client leaves. */
export async function writeAll(
  response: ServerResponse,
  chunks: Iterable<Uint8Array>,
  signal: AbortSignal,
): Promise<void> {
  for (const chunk of chunks) {
    if (!(await writeWithBackpressure(response, chunk, signal))) return;
  }
  if (!signal.aborted) response.end();
}
