import { type FSWatcher, watch } from 'node:fs';

interface SharedWatch {
  watcher: FSWatcher | undefined;
  listeners: Map<string, Set<() => void>>;
  /** Closes the watch once it has had no listener for {@link WATCH_LINGER_MS}. */
  linger: NodeJS.Timeout | undefined;
}

/**
 * How long a directory watch outlives its last listener. Waiters come back to the same directory many
 * times a second under contention; setting a watch up and tearing it down each time cost more than
 * the waits themselves.
 */
const WATCH_LINGER_MS = 1_000;

const watches = new Map<string, SharedWatch>();

function close(directory: string, shared: SharedWatch): void {
  shared.watcher?.close();
  if (watches.get(directory) === shared) watches.delete(directory);
}

/**
 * Calls `onChange` whenever an entry named `name` in `directory` is created, renamed or removed.
 * One watch per directory is shared by every listener and closed with the last one. Where the
 * platform offers no watch this does nothing, and callers fall back on their polling.
 */
export function watchEntry(directory: string, name: string, onChange: () => void): () => void {
  let shared = watches.get(directory);
  if (shared === undefined) {
    const created: SharedWatch = { watcher: undefined, listeners: new Map(), linger: undefined };
    try {
      created.watcher = watch(directory, { persistent: false }, (_event, changed) => {
        const notify = (listeners: Set<() => void> | undefined) => {
          for (const listener of [...(listeners ?? [])]) listener();
        };
        // Some platforms omit the name; then every listener of the directory is told.
        if (changed === null) for (const listeners of created.listeners.values()) notify(listeners);
        else notify(created.listeners.get(changed));
      });
      created.watcher.on('error', () => {
        // A watch that broke (its directory removed, say) is dropped, so the next listener makes anew.
        clearTimeout(created.linger);
        close(directory, created);
        created.watcher = undefined;
      });
    } catch {
      created.watcher = undefined;
    }
    shared = created;
    watches.set(directory, shared);
  }
  const active = shared;
  clearTimeout(active.linger);
  active.linger = undefined;
  let listeners = active.listeners.get(name);
  if (listeners === undefined) {
    listeners = new Set();
    active.listeners.set(name, listeners);
  }
  const own = listeners;
  own.add(onChange);
  return () => {
    own.delete(onChange);
    if (own.size === 0) active.listeners.delete(name);
    if (active.listeners.size === 0 && watches.get(directory) === active && active.linger === undefined) {
      active.linger = setTimeout(() => {
        active.linger = undefined;
        if (active.listeners.size === 0) close(directory, active);
      }, WATCH_LINGER_MS);
      active.linger.unref();
    }
  };
}

/** A clock's sleep. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * Sleeps up to `ms` with `sleep`, ending early when the wake `subscribe` is given is called.
 * `subscribe` returns how to unsubscribe, or `'now'` when what is waited for has happened already.
 * Rejects only when `signal` aborts.
 */
export async function sleepUntilWoken(
  ms: number,
  sleep: Sleep,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
  subscribe: (wake: () => void) => (() => void) | 'now',
): Promise<void> {
  if (signal?.aborted) throw onAbort();
  const timer = new AbortController();
  const wake = () => timer.abort();
  const stop = subscribe(wake);
  if (stop === 'now') return;
  signal?.addEventListener('abort', wake, { once: true });
  try {
    await sleep(ms, timer.signal);
  } catch (error) {
    if (!timer.signal.aborted) throw error;
  } finally {
    stop();
    signal?.removeEventListener('abort', wake);
  }
  if (signal?.aborted) throw onAbort();
}

/**
 * Sleeps up to `ms` with `sleep`, ending early when `name` in `directory` changes. Rejects only when
 * `signal` aborts.
 */
export function sleepUntilEntryChanges(
  directory: string,
  name: string,
  ms: number,
  sleep: Sleep,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<void> {
  return sleepUntilWoken(ms, sleep, signal, onAbort, (wake) => watchEntry(directory, name, wake));
}

/**
 * Sleeps up to `ms`, ending early when the file at `path` changes (is removed, above all). A path that is
 * already gone ends the sleep at once. Rejects only when `signal` aborts.
 */
export function sleepUntilFileChanges(
  path: string,
  ms: number,
  sleep: Sleep,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<void> {
  return sleepUntilWoken(ms, sleep, signal, onAbort, (wake) => watchFile(path, wake));
}

/**
 * Calls `wake` when the file at `path` changes (is removed, above all); returns how to stop, or
 * `'now'` when the path is already gone.
 */
export function watchFile(path: string, wake: () => void): (() => void) | 'now' {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path, { persistent: false }, wake);
    watcher.on('error', wake);
  } catch (error) {
    // Gone already: what was waited for has happened. Any other failure (no watches left, a file
    // system without them) leaves the plain sleep.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'now';
  }
  return () => watcher?.close();
}
