import { countWords, DEFUDDLE_MIN_OVERLAP, trigramOverlap, words } from './choose-article.js';

/**
 * Words of text from which a `<noscript>` in the body counts as content rather than a notice. A
 * notice ("enable JavaScript", a consent banner's fallback, a comment widget's excuse) says a sentence
 * or two; a tracking pixel or an image fallback says nothing. Forum engines such as Discourse and
 * Flarum send the whole thread in a `<noscript>` for readers that run no scripts.
 */
export const NOSCRIPT_CONTENT_MIN_WORDS = 40;

/**
 * Words from which a content `<noscript>` whose text the page already shows (80 % of its word
 * trigrams, see {@link DEFUDDLE_MIN_OVERLAP}) is taken for a copy of the article sent again for
 * crawlers, and left out rather than read twice. A smaller one is a card of a carousel the page also
 * draws, whose drawn copy the extractors drop as chrome: it is still unwrapped.
 */
export const NOSCRIPT_COPY_MIN_WORDS = 150;

/**
 * Replaces every `<noscript>` of the body that holds at least {@link NOSCRIPT_CONTENT_MIN_WORDS}
 * words by its children, unless it repeats what the page already shows
 * ({@link NOSCRIPT_COPY_MIN_WORDS}). This extractor runs no scripts, so what a page shows a reader
 * without them is its content; the smaller `<noscript>`s are left for the caller to remove with the
 * other non-content elements.
 */
export function unwrapContentNoscripts(document: Document): void {
  const noscripts = Array.from(document.body?.querySelectorAll('noscript') ?? []);
  let shown: string[] | undefined;
  for (const noscript of noscripts) {
    if (noscript.parentNode === null) continue;
    if (shownWords(noscript) < NOSCRIPT_CONTENT_MIN_WORDS) continue;
    // A page that renders its article and sends it again for crawlers shows it once.
    const text = words(noscript.textContent ?? '');
    if (text.length >= NOSCRIPT_COPY_MIN_WORDS) {
      shown ??= words(textOutside(document.body, 'noscript'));
      if (trigramOverlap(text, shown) >= DEFUDDLE_MIN_OVERLAP) continue;
    }
    noscript.replaceWith(...Array.from(noscript.childNodes));
  }
}

const ELEMENT_NODE = 1;
/** Elements whose text a reader never sees. */
const NOT_SHOWN = new Set(['script', 'style', 'template']);
const NOT_SHOWN_SELECTOR = Array.from(NOT_SHOWN).join(', ');
const TEXT_NODE = 3;

/**
 * The text a reader sees in `root` outside the elements named `skipped`: scripts, styles, templates
 * and `hidden` elements left out, a space between text nodes.
 */
function textOutside(root: Element, skipped: string): string {
  const parts: string[] = [];
  // Depth first in document order, without recursion (a hostile page may nest deeply).
  const pending: Node[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.nodeType === TEXT_NODE) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    for (let child = node.lastChild; child !== null; child = child.previousSibling) {
      if (child.nodeType === TEXT_NODE) pending.push(child);
      else if (child.nodeType === ELEMENT_NODE) {
        const element = child as Element;
        const name = element.localName;
        if (name === skipped || NOT_SHOWN.has(name) || element.hasAttribute('hidden')) continue;
        pending.push(child);
      }
    }
  }
  return parts.join(' ');
}

/** Words of an element's text outside the styles, scripts and templates it holds. */
function shownWords(element: Element): number {
  let count = countWords(element.textContent ?? '');
  for (const hidden of Array.from(element.querySelectorAll(NOT_SHOWN_SELECTOR))) {
    count -= countWords(hidden.textContent ?? '');
  }
  return count;
}
