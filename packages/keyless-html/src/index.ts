export {
  browserAcceptLanguage,
  KEYLESS_ACCEPT,
  KEYLESS_DEFAULT_ACCEPT_LANGUAGE,
  KEYLESS_USER_AGENT,
} from './browser-headers.js';
export {
  buildDuckDuckGoRequest,
  DUCKDUCKGO_HTML_ENDPOINT,
  duckDuckGoFilterSupport,
} from './build-duckduckgo-request.js';
export {
  buildStartpageRequest,
  STARTPAGE_SEARCH_ENDPOINT,
  startpageFilterSupport,
} from './build-startpage-request.js';
export { DUCKDUCKGO_REGIONS, duckDuckGoRegion } from './duckduckgo-region.js';
export type { FilterSupport, FilterSupportLevel } from './filter-support.js';
export type { HeaderRecord, HeadersLike, KeylessResponse } from './keyless-response.js';
export { parseDuckDuckGoHtml } from './parse-duckduckgo-html.js';
export type {
  KeylessNoResultsOutcome,
  KeylessParseOptions,
  KeylessParseOutcome,
  KeylessRateLimitedOutcome,
  KeylessResult,
  KeylessResultsOutcome,
  KeylessUnavailableOutcome,
  RateLimitSignal,
} from './parse-outcome.js';
export { parseStartpageHtml } from './parse-startpage-html.js';
export {
  type KeylessHttpRequest,
  type KeylessSearchRequest,
  MAX_RESULT_LIMIT,
  MIN_RESULT_LIMIT,
  TIME_RANGES,
  type TimeRange,
} from './search-request.js';
