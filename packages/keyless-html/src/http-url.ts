/**
 * Resolves `href` against `base` and returns it only when the result is an absolute `http:` or
 * `https:` URL; anything else (`javascript:`, `data:`, unparsable text) gives `undefined`.
 */
export function toHttpUrl(href: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** Whether `hostname` is `domain` itself or one of its subdomains. */
export function isHostOf(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}
