import { WebToolError } from '@mono-agent/budget-policy';

/** The most results taken from one search item; the rest are dropped. */
export const MAX_SEARCH_RESULTS = 50;

/** One search result. */
export interface SearchResult {
  /** The page title, or an empty string when the entry has none. */
  title: string;
  /** The absolute http(s) URL of the page. */
  url: string;
  /** A text excerpt, when the entry has one. */
  snippet?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const firstString = (entry: Record<string, unknown>, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const value = entry[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
};

const httpUrl = (value: string | undefined): string | undefined => {
  if (value === undefined || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
};

/**
 * Reads the opaque `results` array of a completed `webSearch` item. The protocol leaves the entry
 * shape open, so entries are read by the usual field names and entries without an http(s) URL are
 * skipped. An empty array is a real "nothing found"; a non-empty array with no readable entry is a
 * protocol error, never an empty success.
 */
export function parseSearchResults(results: readonly unknown[]): SearchResult[] {
  const parsed: SearchResult[] = [];
  for (const entry of results) {
    if (parsed.length === MAX_SEARCH_RESULTS) break;
    if (!isObject(entry)) continue;
    const url = httpUrl(firstString(entry, ['url', 'link', 'uri']));
    if (url === undefined) continue;
    const title = firstString(entry, ['title', 'name']) ?? '';
    const snippet = firstString(entry, ['snippet', 'description', 'summary', 'text', 'content']);
    parsed.push(snippet === undefined ? { title, url } : { title, url, snippet });
  }
  if (parsed.length === 0 && results.length > 0) {
    throw new WebToolError({
      code: 'protocol_error',
      message:
        'the webSearch item carried results, but none had a title and http(s) URL this client can read',
      details: { entries: results.length },
    });
  }
  return parsed;
}
