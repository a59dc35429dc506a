/**
 * Text of a `<noscript>` that is markup written as text: it starts with a tag (`<img`, `<a`, `</p`,
 * `<!--`) and holds a tag's end. A page saved by a browser that ran scripts, or a server that
 * escapes its fallback, leaves the fallback as `&lt;img src=…&gt;`, which a parser reads as text.
 */
const ESCAPED_MARKUP = /^\s*<(?:[a-z][\w-]*|\/[a-z][\w-]*|!--)[\s\S]*>/i;

/**
 * Parses the text of each `<noscript>` of `document` that is markup written as text
 * ({@link ESCAPED_MARKUP}) as the markup it is, so that its images and text take part in
 * extraction like any other fallback (and a small one is dropped with the others) instead of
 * reaching the reader as literal tags. Returns how many it parsed.
 */
export function parseEscapedNoscripts(document: Document): number {
  let parsed = 0;
  for (const noscript of Array.from(document.querySelectorAll('noscript'))) {
    if (noscript.children.length > 0) continue;
    const text = noscript.textContent ?? '';
    if (!ESCAPED_MARKUP.test(text)) continue;
    noscript.innerHTML = text;
    parsed++;
  }
  return parsed;
}
