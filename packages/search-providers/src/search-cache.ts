/** How long a successful search is reused process-wide. */
export const SEARCH_CACHE_TTL_MS = 15 * 60_000;
/** The most searches the process cache keeps; the oldest go first. */
export const SEARCH_CACHE_MAX_ENTRIES = 256;

/** Options of {@link createSearchCache}. */
export interface SearchCacheOptions {
  /** Milliseconds an entry lives (default 15 minutes). */
  ttlMs?: number;
  /** Entries kept at most (default 256). */
  maxEntries?: number;
  /** The time source, epoch milliseconds. */
  now?: () => number;
}

/**
 * The process-wide store of successful search outcomes plus the map of searches in flight, so that
 * sibling runs and identical concurrent calls share one upstream request. Failures are never stored.
 */
export interface SearchCache<Value> {
  /** The stored value for `key`, if it has not expired. */
  get(key: string): Value | undefined;
  /** Stores a successful value. */
  set(key: string, value: Value): void;
  /**
   * Runs `work` unless the same key is already running, in which case the caller joins that run.
   * `leader` tells the caller whether it did the work.
   */
  share(key: string, work: () => Promise<Value>): { leader: boolean; promise: Promise<Value> };
  /** Entries stored now. */
  readonly size: number;
  /** Forgets everything stored (runs in flight finish normally). */
  clear(): void;
  /**
   * A view of this cache whose keys live under `namespace`: views with different namespaces never see
   * each other's entries or in-flight work, while all of them share this cache's storage and bounds.
   */
  scoped(namespace: string): SearchCache<Value>;
}

/** Creates a bounded, expiring cache with in-flight sharing. */
export function createSearchCache<Value>(options: SearchCacheOptions = {}): SearchCache<Value> {
  const ttlMs = options.ttlMs ?? SEARCH_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? SEARCH_CACHE_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: Value; expiresAt: number }>();
  const inFlight = new Map<string, Promise<Value>>();
  const root: SearchCache<Value> = {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
    },
    share(key, work) {
      const running = inFlight.get(key);
      if (running !== undefined) return { leader: false, promise: running };
      const promise = work().finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return { leader: true, promise };
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
    scoped(namespace) {
      return scopedView(root, entries, namespace);
    },
  };
  return root;
}

/**
 * A namespaced view: keys are prefixed with the namespace (JSON-quoted, so no namespace is a prefix
 * of another's keys), and clearing it forgets only its own entries.
 */
function scopedView<Value>(
  root: SearchCache<Value>,
  entries: Map<string, unknown>,
  namespace: string,
): SearchCache<Value> {
  const prefix = `${JSON.stringify(namespace)}\u0000`;
  const view: SearchCache<Value> = {
    get: (key) => root.get(prefix + key),
    set: (key, value) => root.set(prefix + key, value),
    share: (key, work) => root.share(prefix + key, work),
    get size() {
      let count = 0;
      for (const key of entries.keys()) if (key.startsWith(prefix)) count += 1;
      return count;
    },
    clear() {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
    scoped: (inner) => scopedView(root, entries, `${prefix}${inner}`),
  };
  return view;
}
