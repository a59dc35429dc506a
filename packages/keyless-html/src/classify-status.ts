import { toHttpUrl } from './http-url.js';
import { type KeylessResponse, readHeader } from './keyless-response.js';
import type { KeylessRateLimitedOutcome, KeylessUnavailableOutcome } from './parse-outcome.js';

/** What the status line alone says about an engine response. */
export interface StatusRules {
  /** The engine's name, for reasons. */
  engine: string;
  /** Statuses that mean throttling whatever the body says. */
  rateLimitStatuses: ReadonlySet<number>;
  /** Where relative `Location` headers and links resolve when the response carries no URL. */
  baseUrl: string;
}

// Path words of the pages both engines redirect a throttled client to (Startpage's
// `/sp/captcha…` and `/sp/captcha-block`, DuckDuckGo's anomaly check).
const blockPagePattern = /captcha|challenge|anomaly|block/i;

/** Whether a redirect target is a captcha, challenge or block page. */
export function isBlockPageUrl(url: URL): boolean {
  return blockPagePattern.test(url.pathname);
}

/**
 * Classifies a response by its status: throttling statuses and redirects to block pages are
 * `rate_limited`, other non-2xx statuses `unavailable`; `undefined` means a 2xx whose body decides.
 */
export function classifyStatus(
  response: KeylessResponse,
  rules: StatusRules,
): KeylessRateLimitedOutcome | KeylessUnavailableOutcome | undefined {
  const { status } = response;
  if (rules.rateLimitStatuses.has(status)) {
    return { kind: 'rate_limited', signal: 'status', reason: `${rules.engine} answered HTTP ${status}` };
  }
  if (status >= 200 && status <= 299) return undefined;
  if (status >= 300 && status <= 399) {
    const location = readHeader(response.headers, 'location');
    const target = location === undefined ? undefined : toHttpUrl(location, response.url ?? rules.baseUrl);
    if (target !== undefined && isBlockPageUrl(target)) {
      return {
        kind: 'rate_limited',
        signal: 'redirect',
        reason: `${rules.engine} redirected to a block page (${target.origin}${target.pathname})`,
      };
    }
    return {
      kind: 'unavailable',
      status,
      reason:
        target === undefined
          ? `${rules.engine} answered HTTP ${status} without a usable Location`
          : `${rules.engine} answered HTTP ${status} redirecting to ${target.origin}${target.pathname}; search redirects are not followed`,
    };
  }
  return { kind: 'unavailable', status, reason: `${rules.engine} answered HTTP ${status}` };
}
