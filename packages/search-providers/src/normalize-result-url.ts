import { removeTrackingParameters } from './remove-tracking-parameters.js';

/**
 * The URL a result is shown and fetched with: absolute http(s), no credentials, no fragment, no
 * tracking parameters. Returns undefined for anything that is not a usable public-web link.
 */
export function normalizeResultUrl(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  url.hash = '';
  removeTrackingParameters(url);
  // URLSearchParams re-serialises the query; leave it untouched when nothing was removed so
  // percent-encoding the site chose survives.
  const normalized = url.toString();
  return url.search === '' ? normalized.replace(/\?$/, '') : normalized;
}

/**
 * The key two results are the same page by: the normalized URL with the scheme, a leading `www.`,
 * a trailing slash and the order of query parameters ignored.
 */
export function resultIdentity(normalizedUrl: string): string {
  const url = new URL(normalizedUrl);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  const parameters = [...url.searchParams.entries()]
    .sort(([a, aValue], [b, bValue]) => (a === b ? aValue.localeCompare(bValue) : a.localeCompare(b)))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const port = url.port === '' ? '' : `:${url.port}`;
  return `${host}${port}${path}${parameters === '' ? '' : `?${parameters}`}`;
}
