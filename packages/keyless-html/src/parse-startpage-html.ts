import type { Document } from 'domhandler';
import { STARTPAGE_SEARCH_ENDPOINT } from './build-startpage-request.js';
import { findCaptcha, findProofOfWorkInterstitial } from './challenge-markers.js';
import { classifyStatus, type StatusRules } from './classify-status.js';
import { elementText, findElement, findElements, hasClass, parseHtml } from './html-query.js';
import { isHostOf, toHttpUrl } from './http-url.js';
import type { KeylessResponse } from './keyless-response.js';
import type { KeylessParseOptions, KeylessParseOutcome, KeylessResult } from './parse-outcome.js';
import { assertResultLimit } from './search-request.js';

const rules: StatusRules = {
  engine: 'Startpage',
  // No credentials are sent, so 403 can only be a block; 429 is throttling everywhere.
  rateLimitStatuses: new Set([403, 429]),
  baseUrl: STARTPAGE_SEARCH_ENDPOINT,
};

// Web results sit in `div.w-gl`; each is a `div.result` with an `a.result-title` around an `h2`.
function readResults(document: Document, base: string): KeylessResult[] {
  const scope = findElement(document, (element) => hasClass(element, 'w-gl')) ?? document;
  const items = findElements(scope, (element) => element.name === 'div' && hasClass(element, 'result'));
  const results: KeylessResult[] = [];
  for (const item of items) {
    const link = findElement(item, (element) => element.name === 'a' && hasClass(element, 'result-title'));
    const href = link?.attribs['href'];
    if (link === undefined || href === undefined) continue;
    const target = toHttpUrl(href, base);
    // Links back into Startpage (anonymous view, settings) are not results.
    if (target === undefined || isHostOf(target.hostname, 'startpage.com')) continue;
    const heading = findElement(link, (element) => element.name === 'h2');
    const title = elementText(heading ?? link);
    if (title === '') continue;
    const snippetElement = findElement(
      item,
      (element) => element.name === 'p' && hasClass(element, 'description'),
    );
    results.push({
      title,
      url: target.href,
      snippet: snippetElement === undefined ? '' : elementText(snippetElement),
    });
  }
  return results;
}

/**
 * Reads one Startpage response: its web results, a throttling signal (HTTP 403/429, a redirect to
 * the captcha or block page, or an empty page carrying a captcha or proof-of-work interstitial), a
 * genuine empty answer, or an unavailable backend.
 */
export function parseStartpageHtml(
  response: KeylessResponse,
  options: KeylessParseOptions = {},
): KeylessParseOutcome {
  assertResultLimit(options.limit);
  const byStatus = classifyStatus(response, rules);
  if (byStatus !== undefined) return byStatus;
  const document = parseHtml(response.body);
  const results = readResults(document, response.url ?? STARTPAGE_SEARCH_ENDPOINT);
  if (results.length > 0) return { kind: 'results', results: results.slice(0, options.limit) };
  const marker = findCaptcha(document, response.url) ?? findProofOfWorkInterstitial(document);
  if (marker !== undefined) {
    return { kind: 'rate_limited', signal: marker.signal, reason: marker.description };
  }
  return { kind: 'no_results' };
}
