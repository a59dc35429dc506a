import type { Document } from 'domhandler';
import { DUCKDUCKGO_HTML_ENDPOINT } from './build-duckduckgo-request.js';
import { findCaptcha, findDuckDuckGoChallenge, findProofOfWorkInterstitial } from './challenge-markers.js';
import { classifyStatus, type StatusRules } from './classify-status.js';
import { elementText, findElement, findElements, hasClass, parseHtml } from './html-query.js';
import type { KeylessResponse } from './keyless-response.js';
import type { KeylessParseOptions, KeylessParseOutcome, KeylessResult } from './parse-outcome.js';
import { assertResultLimit } from './search-request.js';
import { unwrapDuckDuckGoUrl } from './unwrap-duckduckgo-url.js';

const rules: StatusRules = {
  engine: 'DuckDuckGo',
  // 202 is the status of DuckDuckGo's anomaly page; no credentials are sent, so 403 is a block too.
  rateLimitStatuses: new Set([202, 403, 429]),
  baseUrl: DUCKDUCKGO_HTML_ENDPOINT,
};

// Organic items only: ads are `result--ad`, the empty-answer notice is `result--no-result`.
function readResults(document: Document, base: string): KeylessResult[] {
  const scope = findElement(document, (element) => element.attribs['id'] === 'links') ?? document;
  const items = findElements(
    scope,
    (element) =>
      hasClass(element, 'result') &&
      !hasClass(element, 'result--ad') &&
      !hasClass(element, 'result--no-result'),
  );
  const results: KeylessResult[] = [];
  for (const item of items) {
    const link = findElement(item, (element) => element.name === 'a' && hasClass(element, 'result__a'));
    const href = link?.attribs['href'];
    if (link === undefined || href === undefined) continue;
    const url = unwrapDuckDuckGoUrl(href, base);
    const title = elementText(link);
    if (url === undefined || title === '') continue;
    const snippetElement = findElement(item, (element) => hasClass(element, 'result__snippet'));
    results.push({ title, url, snippet: snippetElement === undefined ? '' : elementText(snippetElement) });
  }
  return results;
}

/**
 * Reads one DuckDuckGo HTML response: its organic results, a throttling signal (HTTP 202/403/429, a
 * redirect to a block page, or an empty page carrying a bot challenge), a genuine empty answer, or
 * an unavailable backend.
 */
export function parseDuckDuckGoHtml(
  response: KeylessResponse,
  options: KeylessParseOptions = {},
): KeylessParseOutcome {
  assertResultLimit(options.limit);
  const byStatus = classifyStatus(response, rules);
  if (byStatus !== undefined) return byStatus;
  const document = parseHtml(response.body);
  const results = readResults(document, response.url ?? DUCKDUCKGO_HTML_ENDPOINT);
  if (results.length > 0) return { kind: 'results', results: results.slice(0, options.limit) };
  const marker =
    findDuckDuckGoChallenge(document) ??
    findCaptcha(document, response.url) ??
    findProofOfWorkInterstitial(document);
  if (marker !== undefined) {
    return { kind: 'rate_limited', signal: marker.signal, reason: marker.description };
  }
  return { kind: 'no_results' };
}
