import { KEYLESS_ACCEPT, KEYLESS_DEFAULT_ACCEPT_LANGUAGE, KEYLESS_USER_AGENT } from './browser-headers.js';
import type { FilterSupport } from './filter-support.js';
import {
  assertSearchRequest,
  type KeylessHttpRequest,
  type KeylessSearchRequest,
  type TimeRange,
} from './search-request.js';

/** The endpoint of Startpage's web result pages. */
export const STARTPAGE_SEARCH_ENDPOINT = 'https://www.startpage.com/sp/search';

/**
 * What Startpage does with the tool's filters: the time range travels as an advisory `with_date`;
 * no language is sent.
 */
export const startpageFilterSupport: Readonly<FilterSupport> = Object.freeze({
  language: 'unsupported',
  timeRange: 'advisory',
});

const dateFilters: Readonly<Record<TimeRange, string>> = { day: 'd', month: 'm', year: 'y' };

/**
 * The request for the first Startpage web result page: a plain `GET`. Send it without following
 * redirects: Startpage answers a throttled client with a redirect to its captcha page.
 */
export function buildStartpageRequest(request: KeylessSearchRequest): KeylessHttpRequest {
  assertSearchRequest(request);
  const parameters = new URLSearchParams({ query: request.query, cat: 'web' });
  if (request.timeRange !== undefined) parameters.set('with_date', dateFilters[request.timeRange]);
  return {
    method: 'GET',
    url: `${STARTPAGE_SEARCH_ENDPOINT}?${parameters.toString()}`,
    // What a browser sends from Startpage's own search form: a fixed browser User-Agent, Accept, its
    // default Accept-Language (the search's language is not sent, as the filter support says) and the
    // home page as Referer.
    headers: {
      'user-agent': KEYLESS_USER_AGENT,
      accept: KEYLESS_ACCEPT,
      'accept-language': KEYLESS_DEFAULT_ACCEPT_LANGUAGE,
      referer: 'https://www.startpage.com/',
    },
  };
}
