import { canonicalLanguageTag } from './search-request.js';

/**
 * The User-Agent of every keyless request: one fixed, current desktop browser, as the engines' own
 * forms are submitted by one. It never varies per request, so nothing about the caller leaks into it.
 */
export const KEYLESS_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** The Accept a browser sends when it navigates to a page (a form submission included). */
export const KEYLESS_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The Accept-Language of a browser set to English, sent when the search names no language. */
export const KEYLESS_DEFAULT_ACCEPT_LANGUAGE = 'en-US,en;q=0.5';

/**
 * The Accept-Language a browser set to `language` sends: the tag, then its base language, then
 * English at a lower weight (`pt-BR,pt;q=0.9,en;q=0.5`). The default when the tag is absent or not a
 * plausible BCP 47 tag, so a malformed value never reaches a header.
 */
export function browserAcceptLanguage(language: string | undefined): string {
  const tag = canonicalLanguageTag(language);
  if (tag === undefined) return KEYLESS_DEFAULT_ACCEPT_LANGUAGE;
  const base = tag.split('-')[0]!;
  const ranges = [tag];
  if (base !== tag) ranges.push(`${base};q=0.9`);
  if (base !== 'en') ranges.push('en;q=0.5');
  return ranges.join(',');
}
