import { type FSWatcher, watch } from 'node:fs';

interface SharedWatch {
  watcher: FSWatcher | undefined;
  listeners: Map<string, Set<() => void>>;
}

const watches = new Map<string, SharedWatch>();

function close(directory: string, shared: SharedWatch): void {
  shared.watcher?.close();
  watches.delete(directory);
}

/**
 * Calls `onChange` whenever an entry named `name` in `directory` is created, renamed or removed.
 * One watch per directory is shared by every listener and closed with the last one. Where the
 * platform offers no watch this does nothing, and callers fall back on their polling.
 */
export function watchEntry(directory: string, name: string, onChange: () => void): () => void {
  let shared = watches.get(directory);
  if (shared === undefined) {
    const created: SharedWatch = { watcher: undefined, listeners: new Map() };
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
        created.watcher?.close();
        created.watcher = undefined;
      });
    } catch {
      created.watcher = undefined;
    }
    shared = created;
    watches.set(directory, shared);
  }
  const active = shared;
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
    if (active.listeners.size === 0 && watches.get(directory) === active) close(directory, active);
  };
}

type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * Sleeps up to `ms` with `sleep`, ending early when the wake `subscribe` is given is called.
 * `subscribe` returns how to unsubscribe, or `'now'` when what is waited for has happened already.
 * Rejects only when `signal` aborts.
 */
async function sleepUntilWoken(
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
  return sleepUntilWoken(ms, sleep, signal, onAbort, (wake) => {
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
  });
}
