import { visibleChars } from './drawn-text.js';

// Defuddle (0.19.4) removes every link to a place on the page whose class names a reference
// (`a[href^="#"][class*="ref"]`), meant for footnote and citation marks it has already read. Sphinx
// writes each of its cross-references so (`<a class="reference internal" href="#basic-usage">`), and
// a sentence of the Python, Django or Celery documentation lost the words it linked: "see  for the
// options". A reference in running text keeps its words here; the page's table of contents, a list
// of such links alone, is still left to Defuddle, and so are footnote marks.

/**
 * A class name that names a reference (`reference`, `xref`, `std-ref`, `cross-reference`), not one
 * that only holds the letters (`preferences`, `refinements`), which Defuddle's rule matches too.
 */
const REFERENCE_NAME = /(?:^|[-_])(?:x|cross-?)?ref(?:erence)?s?(?:$|[-_])/i;

/** A class name Defuddle's rule matches (`a[href^="#"][class*="ref"]`), to be taken off. */
const MATCHED_NAME = /ref/i;

/** Class names of a footnote's or citation's mark, or of its way back, which Defuddle reads itself. */
const NOTE_NAME = /foot|fn|note|cit|backref|bib/i;

/** The blocks a reference is read in. */
const TEXT_BLOCK = 'p, li, dd, dt, td, th, blockquote, figcaption';

/** Characters (whitespace aside) the block holds besides the reference, for it to be running text. */
const RUNNING_TEXT_MIN_CHARS = 20;

/**
 * Takes the reference names off each link of `document` to a place on the page that reads as a
 * cross-reference in running text: its text has a letter, or its class says it is internal
 * (Sphinx's `(1)` for an equation), its classes name no footnote or citation, and the block around
 * it holds {@link RUNNING_TEXT_MIN_CHARS} characters more. Returns how many were changed.
 */
export function keepCrossReferences(document: Document): number {
  const body = document.body;
  if (body === null) return 0;
  let changed = 0;
  for (const link of Array.from(body.querySelectorAll('a[href^="#"][class]'))) {
    const names = (link.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
    if (!names.some((name) => REFERENCE_NAME.test(name)) || names.some((name) => NOTE_NAME.test(name)))
      continue;
    const text = link.textContent ?? '';
    if (!/\p{L}/u.test(text) && !names.includes('internal')) continue;
    const block = link.closest(TEXT_BLOCK);
    if (block === null || visibleChars(block.textContent) - visibleChars(text) < RUNNING_TEXT_MIN_CHARS)
      continue;
    const kept = names.filter((name) => !MATCHED_NAME.test(name));
    if (kept.length === 0) link.removeAttribute('class');
    else link.setAttribute('class', kept.join(' '));
    changed++;
  }
  return changed;
}
