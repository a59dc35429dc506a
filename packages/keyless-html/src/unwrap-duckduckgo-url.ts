import { isHostOf, toHttpUrl } from './http-url.js';

/**
 * The target of a DuckDuckGo result link, or `undefined` when there is none to keep. GET result
 * pages wrap each target as `//duckduckgo.com/l/?uddg=<target>&rut=<hash>`; POST pages link
 * directly. Targets on DuckDuckGo itself are dropped: that is where ads (`y.js`) lead.
 */
export function unwrapDuckDuckGoUrl(href: string, base: string): string | undefined {
  const link = toHttpUrl(href, base);
  if (link === undefined) return undefined;
  let target: URL | undefined = link;
  if (isHostOf(link.hostname, 'duckduckgo.com') && (link.pathname === '/l/' || link.pathname === '/l')) {
    const wrapped = link.searchParams.get('uddg');
    target = wrapped === null ? undefined : toHttpUrl(wrapped);
  }
  if (target === undefined || isHostOf(target.hostname, 'duckduckgo.com')) return undefined;
  return target.href;
}
