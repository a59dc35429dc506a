/**
 * Elements whose text shows markup as written, or is no page text at all: their text stays as it is.
 */
const LITERAL_TEXT =
  'code, pre, kbd, samp, tt, var, xmp, plaintext, listing, textarea, script, style, title, noscript, template, math, svg';

/**
 * Text that opens with a tag of an element that holds page text (a paragraph, a span, a link, a
 * list, a heading, a picture), as markup escaped once too often does. Prose about markup names a
 * tag inside a sentence ("an `<img>` tag"), and a heading about one ("`<ul>` lists") holds no
 * closing tag (see {@link CLOSING_TAG}).
 */
const OPENING_TAG =
  /^\s*<(?:p|div|span|a|br|b|strong|i|em|u|small|sup|sub|ul|ol|li|h[1-6]|img|figure|figcaption|blockquote|table|section|article)\b[^<>]*>/i;

/** A closing tag or a line break: what escaped markup holds and prose about tags rarely does. */
const CLOSING_TAG = /<\/[a-z][\w-]*\s*>|<br\s*\/?>/i;

/** A tag in an attribute's value. */
const TAG = /<\/?[a-z][^<>]*>/gi;

/** Tags that break a line: in a picture's alt text, a space. */
const BREAKING_TAG = /^<\/?(?:br|p|div|li|h[1-6])\b/i;

/**
 * Markup a page writes as text: a tag's `&lt;` in the source, or a tag in an `alt` attribute.
 * Without it, a page has nothing for {@link parseEscapedMarkup} to read.
 */
export const ESCAPED_TAG_MARKUP = /&(?:lt|#0*60|#x0*3c);\/?[a-z]|\balt\s*=\s*["'][^"'<>]*<\/?[a-z]/i;

/**
 * Reads markup that a page gives as text as the markup it is. A server that escapes an excerpt or
 * a body once too often sends `&lt;p&gt;…&lt;/p&gt;`, which a parser reads as text and the answer
 * would show as literal tags: an element holding only such text (it opens with a tag of page text
 * and holds a closing tag or a line break) is given it as its markup, outside code and the other
 * elements that show text as written. A picture's `alt` text that holds markup (a caption's
 * `<br><small>Photo by <a …>…</a></small>`, pasted into the attribute) keeps only its words.
 * Returns how many elements and pictures were rewritten.
 */
export function parseEscapedMarkup(document: Document): number {
  const body = document.body;
  if (body === null) return 0;
  let rewritten = 0;
  for (const element of Array.from(body.querySelectorAll('*'))) {
    if (element.children.length > 0 || element.firstChild === null) continue;
    const text = element.textContent ?? '';
    if (!OPENING_TAG.test(text) || !CLOSING_TAG.test(text)) continue;
    if (element.closest(LITERAL_TEXT) !== null) continue;
    element.innerHTML = text;
    rewritten++;
  }
  for (const image of Array.from(body.querySelectorAll('img[alt]'))) {
    const alt = image.getAttribute('alt') ?? '';
    if (!alt.includes('<') || !CLOSING_TAG.test(alt)) continue;
    const words = alt
      .replace(TAG, (tag) => (BREAKING_TAG.test(tag) ? ' ' : ''))
      .replace(/\s+/g, ' ')
      .trim();
    image.setAttribute('alt', words);
    rewritten++;
  }
  return rewritten;
}
