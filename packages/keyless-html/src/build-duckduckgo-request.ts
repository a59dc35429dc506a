import { browserAcceptLanguage, KEYLESS_ACCEPT, KEYLESS_USER_AGENT } from './browser-headers.js';
import { duckDuckGoRegion } from './duckduckgo-region.js';
import type { FilterSupport } from './filter-support.js';
import {
  assertSearchRequest,
  type KeylessHttpRequest,
  type KeylessSearchRequest,
  type TimeRange,
} from './search-request.js';

/** The endpoint of DuckDuckGo's JavaScript-free result pages. */
export const DUCKDUCKGO_HTML_ENDPOINT = 'https://html.duckduckgo.com/html/';

/**
 * What DuckDuckGo HTML does with the tool's filters: the language travels as a `kl` region hint plus
 * `Accept-Language`, the time range as `df`, which does not guarantee fresh results.
 */
export const duckDuckGoFilterSupport: Readonly<FilterSupport> = Object.freeze({
  language: 'hint',
  timeRange: 'advisory',
});

const dateFilters: Readonly<Record<TimeRange, string>> = { day: 'd', month: 'm', year: 'y' };

/**
 * The request for the first DuckDuckGo HTML result page: a form `POST`, as the page's own search
 * form sends it. Send it without following redirects; no cookies are needed or wanted.
 */
export function buildDuckDuckGoRequest(request: KeylessSearchRequest): KeylessHttpRequest {
  assertSearchRequest(request);
  // `b` is empty on the first page, as in the page's own form.
  const form = new URLSearchParams({ q: request.query, b: '' });
  const region = request.language === undefined ? undefined : duckDuckGoRegion(request.language);
  if (region !== undefined) form.set('kl', region);
  if (request.timeRange !== undefined) form.set('df', dateFilters[request.timeRange]);

  // What a browser sends when the page's own form is submitted: a fixed browser User-Agent (DuckDuckGo
  // answers a request without one with its bot challenge), Accept and Accept-Language, and the page as
  // Referer.
  const headers: Record<string, string> = {
    'user-agent': KEYLESS_USER_AGENT,
    accept: KEYLESS_ACCEPT,
    'accept-language': browserAcceptLanguage(request.language),
    'content-type': 'application/x-www-form-urlencoded',
    // DuckDuckGo checks that the form was posted from its own page, as a browser would.
    referer: 'https://html.duckduckgo.com/',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'same-origin',
    'sec-fetch-user': '?1',
  };

  return { method: 'POST', url: DUCKDUCKGO_HTML_ENDPOINT, headers, body: form.toString() };
}
