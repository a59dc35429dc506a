import { WebToolError } from '@mono-agent/budget-policy';
import type { ExtractedDocument } from './types.js';

/** The most documents one run's cache holds. */
export const MAX_CACHED_DOCUMENTS = 64;
/** The most document text (UTF-8 bytes of `content`) one run's cache holds: 32 MiB. */
export const MAX_CACHED_TEXT_BYTES = 32 * 1024 * 1024;

/** Everything that changes what a fetch returns; two requests share a cache entry only if all match. */
export interface DocumentCacheKeyParts {
  /** The requested URL. */
  url: string;
  /** The request headers sent (names compared case-insensitively). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The output format. */
  format: string;
  /** The resolved network policy the fetch ran under. */
  policy: unknown;
  /** Extraction or rendering settings (render mode, renderer identity...), when any. */
  settings?: unknown;
}

/** A per-run, least-recently-used cache of extracted documents, bounded by count and text size. */
export interface DocumentCache {
  /** The cached document for a key, marking it most recently used. */
  get(key: string): ExtractedDocument | undefined;
  /** Stores a document, evicting the least recently used ones until both bounds hold; false when it cannot fit at all. */
  set(key: string, document: ExtractedDocument): boolean;
  /** Removes one entry. */
  delete(key: string): boolean;
  /** Empties the cache (the run ended). */
  clear(): void;
  /** The number of cached documents. */
  readonly size: number;
  /** The UTF-8 bytes of cached document text. */
  readonly textBytes: number;
}

/** Options of {@link createDocumentCache}; the bounds may only be lowered. */
export interface DocumentCacheOptions {
  /** At most this many documents (1–64). */
  maxDocuments?: number;
  /** At most this many bytes of text (1–32 MiB). */
  maxTextBytes?: number;
}

/** A stable cache key: URL, sorted lower-cased headers, format, policy and settings. */
export function documentCacheKey(parts: DocumentCacheKeyParts): string {
  const headers = Object.entries(parts.headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return stableStringify([parts.url, headers, parts.format, parts.policy ?? null, parts.settings ?? null]);
}

/** Creates an empty cache for one run. */
export function createDocumentCache(options: DocumentCacheOptions = {}): DocumentCache {
  const maxDocuments = bounded('maxDocuments', options.maxDocuments, MAX_CACHED_DOCUMENTS);
  const maxTextBytes = bounded('maxTextBytes', options.maxTextBytes, MAX_CACHED_TEXT_BYTES);
  const entries = new Map<string, { document: ExtractedDocument; bytes: number }>();
  let textBytes = 0;

  const remove = (key: string): boolean => {
    const entry = entries.get(key);
    if (entry === undefined) return false;
    entries.delete(key);
    textBytes -= entry.bytes;
    return true;
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.document;
    },
    set(key, document) {
      remove(key);
      const bytes = Buffer.byteLength(document.content, 'utf8');
      if (bytes > maxTextBytes) return false;
      for (const oldest of entries.keys()) {
        if (entries.size < maxDocuments && textBytes + bytes <= maxTextBytes) break;
        remove(oldest);
      }
      entries.set(key, { document, bytes });
      textBytes += bytes;
      return true;
    },
    delete: remove,
    clear() {
      entries.clear();
      textBytes = 0;
    },
    get size() {
      return entries.size;
    },
    get textBytes() {
      return textBytes;
    },
  };
}

function bounded(name: string, value: number | undefined, max: number): number {
  if (value === undefined) return max;
  if (Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw new WebToolError({
    code: 'validation_error',
    message: `${name} must be an integer from 1 to ${max}.`,
    details: { field: name, max },
  });
}

function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    // Policies may hold sets, maps or patterns, which JSON would flatten to `{}` and so collide.
    if (item instanceof Set) return { set: [...item].map((entry) => stableStringify(entry)).sort() };
    if (item instanceof Map) return { map: [...item].map((entry) => stableStringify(entry)).sort() };
    if (item instanceof RegExp) return { regexp: String(item) };
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}
