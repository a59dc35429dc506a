import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A function that collects the calling thread's heap in full. A process started with `--expose-gc`
 * already gives one; otherwise V8 gives one only to a context made while that flag is set, and the
 * flag is unset again at once, so no other context of the process gets it.
 */
export function fullCollector(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
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
