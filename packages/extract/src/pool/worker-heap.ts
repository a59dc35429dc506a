import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A lock over V8's `--expose-gc` flag, shared by every extraction worker of the process (each gets it
 * through its `workerData`). The flag is process-wide: without the lock, one worker that unsets it
 * while another is making its context leaves the other without a collector.
 */
export function createFlagLock(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

const noCollector = () => {};

/**
 * A function that collects the calling thread's heap in full. A process started with `--expose-gc`
 * already gives one; otherwise V8 gives one only to a context made while that flag is set, and the
 * flag is unset again at once, so no other context of the process gets it. Setting and unsetting
 * happen under `lock` when one is given (see {@link createFlagLock}); a thread that still finds no
 * collector (code outside the pool toggling the flag) gets one that does nothing, and its heap is then
 * measured uncollected.
 */
export function fullCollector(lock?: Int32Array): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  if (lock !== undefined) {
    while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1, 100);
  }
  try {
    setFlagsFromString('--expose-gc');
    const made = runInNewContext('typeof gc === "function" ? gc : undefined') as unknown;
    return typeof made === 'function' ? (made as () => void) : noCollector;
  } catch {
    return noCollector;
  } finally {
    setFlagsFromString('--no-expose-gc');
    if (lock !== undefined) {
      Atomics.store(lock, 0, 0);
      Atomics.notify(lock, 0);
    }
  }
}

/**
 * The heap a worker occupies after a task, as `measure` gives it. Past `boundBytes` (the pool's
 * replacement bound) the worker first collects its garbage in full: most of what a page made the
 * heap grow by is garbage by then, and collecting it takes tens of milliseconds where a new worker
 * takes hundreds to start and compile its parsers again. The pool replaces the worker only if the
 * heap stays past the bound.
 */
export function occupiedAfterTask(boundBytes: number, measure: () => number, collect: () => void): number {
  const occupied = measure();
  if (occupied <= boundBytes) return occupied;
  collect();
  return measure();
}
