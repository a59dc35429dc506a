const SAFE_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Resolves a link target against the document URL and keeps it only when the result is an
 * http(s) URL without credentials; `javascript:`, `data:`, `file:`, `mailto:` and anything
 * unparsable give `undefined`, so the caller keeps the link's text and drops its target.
 */
export function safeAbsoluteUrl(target: string | null | undefined, base: string): string | undefined {
  if (target === null || target === undefined) return undefined;
  // Browsers ignore ASCII tab and newline anywhere in a URL; `java\tscript:` must not slip through.
  const cleaned = target.replace(/[\t\n\r]/g, '').trim();
  if (cleaned === '') return undefined;
  let resolved: URL;
  try {
    resolved = new URL(cleaned, base);
  } catch {
    return undefined;
  }
  if (!SAFE_PROTOCOLS.has(resolved.protocol)) return undefined;
  if (resolved.username !== '' || resolved.password !== '') return undefined;
  return resolved.href;
}
