import { classifyAddress } from '@mono-agent/net';
import type { ConfigField } from './config-field.js';
import type { ConfigProblems } from './config-problem.js';

/**
 * Checks a SearXNG endpoint (or its legacy alias): an unauthenticated loopback `http://` URL with no
 * query or fragment. Every broken rule is recorded; the normalised URL is returned only when none is.
 * Messages never repeat the URL, which may carry credentials.
 */
export function checkSearxngEndpoint(
  text: string,
  field: ConfigField,
  problems: ConfigProblems,
): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.add(field.key, 'url', 'is not a URL', field.label);
    return undefined;
  }
  const before = problems.size;
  if (url.protocol !== 'http:') {
    problems.add(
      field.key,
      'scheme',
      `must use http:// (the SearXNG companion is a loopback service), not ${url.protocol}//`,
      field.label,
    );
  }
  if (hasCredentials(text, url)) {
    problems.add(field.key, 'credentials', 'must not contain a user name or password', field.label);
  }
  if (url.search !== '' || text.includes('?')) {
    problems.add(field.key, 'query', 'must not contain a query', field.label);
  }
  if (url.hash !== '' || text.includes('#')) {
    problems.add(field.key, 'fragment', 'must not contain a fragment', field.label);
  }
  if (!isLoopbackHost(url.hostname)) {
    problems.add(
      field.key,
      'loopback',
      `must be on a loopback address (127.0.0.0/8, [::1] or localhost), not ${url.hostname}`,
      field.label,
    );
  }
  return problems.size === before ? url.href : undefined;
}

/** Whether a URL host name (as the WHATWG parser leaves it) is loopback: 127.0.0.0/8, [::1] or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || classifyAddress(hostname)?.loopback === true;
}

/** Whether a URL carries credentials, including an empty `user@` the parser would drop. */
export function hasCredentials(text: string, url: URL): boolean {
  return url.username !== '' || url.password !== '' || /^[a-z][a-z\d+.-]*:\/*[^/?#]*@/i.test(text.trim());
}
