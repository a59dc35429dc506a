import { words } from './choose-article.js';

/**
 * Words of text from which a `<noscript>` in the body counts as content rather than a notice. A
 * notice ("enable JavaScript", a consent banner's fallback, a comment widget's excuse) says a sentence
 * or two; a tracking pixel or an image fallback says nothing. Forum engines such as Discourse and
 * Flarum send the whole thread in a `<noscript>` for readers that run no scripts.
 */
export const NOSCRIPT_CONTENT_MIN_WORDS = 40;

/**
 * Replaces every `<noscript>` of the body that holds at least {@link NOSCRIPT_CONTENT_MIN_WORDS}
 * words by its children. This extractor runs no scripts, so what a
 * page shows a reader without them is its content; the smaller `<noscript>`s are left for the caller
 * to remove with the other non-content elements.
 */
export function unwrapContentNoscripts(document: Document): void {
  for (const noscript of Array.from(document.body?.querySelectorAll('noscript') ?? [])) {
    if (noscript.parentNode === null) continue;
    if (shownWords(noscript) < NOSCRIPT_CONTENT_MIN_WORDS) continue;
    noscript.replaceWith(...Array.from(noscript.childNodes));
  }
}

/** Words of an element's text outside the styles, scripts and templates it holds. */
function shownWords(element: Element): number {
  let count = words(element.textContent ?? '').length;
  for (const hidden of Array.from(element.querySelectorAll('style, script, template'))) {
    count -= words(hidden.textContent ?? '').length;
  }
  return count;
}
