/** The smallest result limit a search may ask for. */
export const MIN_RESULT_LIMIT = 1;
/** The largest result limit a search may ask for. */
export const MAX_RESULT_LIMIT = 10;

/** The time ranges a search may be restricted to. */
export const TIME_RANGES = ['day', 'month', 'year'] as const;

/** How recent results should be. */
export type TimeRange = (typeof TIME_RANGES)[number];

/** What to search for; the same input for every keyless engine. */
export interface KeylessSearchRequest {
  /** The query, sent exactly as given: quotes and `site:` operators are never altered. */
  query: string;
  /** A BCP 47 language tag such as `en`, `en-GB` or `pt-BR`; a hint where the engine takes one. */
  language?: string;
  /** How recent results should be; advisory on both engines. */
  timeRange?: TimeRange;
  /** How many results the caller wants, 1–10; one page of either engine carries up to 10. */
  limit?: number;
}

/** An HTTP request for the caller to send, with redirects not followed. */
export interface KeylessHttpRequest {
  /** The HTTP method. */
  method: 'GET' | 'POST';
  /** The absolute URL, query string included. */
  url: string;
  /** Request headers with lower-case names; never cookies or credentials. */
  headers: Record<string, string>;
  /** The form-encoded body of a `POST`. */
  body?: string;
}

/**
 * Throws when `request` breaks a documented rule. These are programming errors of the caller, which
 * validates tool input before it builds a request, so they are plain `TypeError`/`RangeError`s.
 */
export function assertSearchRequest(request: KeylessSearchRequest): void {
  if (typeof request.query !== 'string' || request.query.trim() === '') {
    throw new TypeError('query must be a non-empty string');
  }
  if (request.timeRange !== undefined && !(TIME_RANGES as readonly string[]).includes(request.timeRange)) {
    throw new RangeError(`timeRange must be one of ${TIME_RANGES.join(', ')}`);
  }
  assertResultLimit(request.limit);
}

/** Throws a `RangeError` unless `limit` is absent or an integer from 1 through 10. */
export function assertResultLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < MIN_RESULT_LIMIT || limit > MAX_RESULT_LIMIT) {
    throw new RangeError(`limit must be an integer from ${MIN_RESULT_LIMIT} through ${MAX_RESULT_LIMIT}`);
  }
}

const languageTagPattern = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/**
 * The language tag in the canonical case (`pt-BR`), or `undefined` when it is not a plausible
 * BCP 47 tag; a malformed value must never reach a header.
 */
export function canonicalLanguageTag(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const tag = language.trim().replaceAll('_', '-');
  if (!languageTagPattern.test(tag)) return undefined;
  return tag
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}
