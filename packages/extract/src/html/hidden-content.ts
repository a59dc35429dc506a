import { drawnText, visibleChars } from './drawn-text.js';
import { isDisplayMath } from './mathml-latex.js';

/**
 * The share of the page's text above which the hidden elements are all kept: a page that hides its
 * content until its scripts run (`<body style="display:none">`, an app root or a feed a script
 * shows, blocks a script moves into place) or that was saved with a dialog open (the rest of the
 * page `aria-hidden`) shows that content to its reader, and dropping it would leave little to read.
 * Such pages leave a header, a loading notice or a dialog visible, a small part of their text; a
 * page that hides half or two thirds of its text beside a visible story (its other languages, a
 * variant for another audience, sections hidden for good) still shows its reader the rest.
 */
export const HIDDEN_KEEP_SHARE = 0.75;

/** An inline declaration that hides an element whatever its opacity: `display: none` or `visibility: hidden`. */
export const HIDING_DECLARATION =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?=;|$)/i;

/** An inline `visibility: visible`, with which a descendant shows itself inside a hidden ancestor. */
const VISIBLE_STYLE = /(?:^|;)\s*visibility\s*:\s*visible\b/i;

/** Readability's name for an image placeholder that pages mark `aria-hidden` and still show. */
const SHOWN_PLACEHOLDER_CLASS = /\bfallback-image\b/;

/**
 * Removes what the page never draws for its reader: elements with the `hidden` attribute (but
 * `hidden="until-found"`, which the browser's find-in-page opens: such an element is opened, its
 * attribute removed, since Readability and Defuddle drop every element that has one), elements marked
 * `aria-hidden="true"`, elements whose inline style says `display: none` or `visibility: hidden`,
 * inline elements whose class says `display: none` at every width (see {@link hiddenByUtilityClass}),
 * and dialogs that are not open. Runs after the disclosure panels and fade-ins a reader opens with
 * one action have been shown, so what is left hidden is a screen-reader duplicate, a template for a
 * script, a menu, a tracking block or a copy of the page for other screens.
 *
 * When the hidden elements hold more than {@link HIDDEN_KEEP_SHARE} of the page's text (scripts and
 * styles aside), all stay (see there). A `visibility: hidden` element with a descendant that makes
 * itself visible stays too. A formula hidden beside a picture of it is shown instead (see
 * {@link holdsFormulaDrawnAsPicture}), unless `formulas` says the page has no `<math>`. JSON-LD
 * inside a removed element is moved to the head, where the metadata readers still find it. Returns
 * how many elements were removed.
 */
export function dropHiddenContent(document: Document, formulas = true): number {
  const body = document.body;
  if (body === null) return 0;
  // One walk: a hidden element is listed and not entered, so only the outermost ones are listed.
  // Inside a `visibility: hidden` box that a descendant undoes, nested ones are not examined again
  // (each would search the same subtree).
  const hidden: Element[] = [];
  const shown: Element[] = [];
  let hiddenText = 0;
  const stack: Array<[Element, boolean]> = [[body, false]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, undone] = entry;
    const state = element === body ? false : hiddenState(element, undone);
    if (state === true) {
      if (formulas && holdsFormulaDrawnAsPicture(element)) {
        shown.push(element);
        continue;
      }
      hidden.push(element);
      hiddenText += drawnTextLength(element);
      continue;
    }
    // Open what find-in-page opens: neither extractor reads a `hidden` attribute's value.
    if (state === false && opensOnSearch(element.getAttribute('hidden'))) element.removeAttribute('hidden');
    const inner = undone || state === 'undone';
    for (let child = element.lastElementChild; child !== null; child = child.previousElementSibling) {
      stack.push([child, inner]);
    }
  }
  for (const element of shown) showFormula(element);
  if (hidden.length === 0 || hiddenText > HIDDEN_KEEP_SHARE * drawnTextLength(body)) return 0;
  const notes = footnoteTexts(document, hidden);
  for (const element of hidden) {
    if (notes.has(element)) {
      showNote(element);
      continue;
    }
    for (const script of Array.from(element.querySelectorAll('script[type="application/ld+json"]'))) {
      document.head?.append(script);
    }
    element.remove();
  }
  return hidden.length;
}

/** Elements that draw a formula as a picture. */
const PICTURES = new Set(['img', 'picture', 'svg']);

/**
 * Whether a hidden element holds a formula for screen readers while the page draws it as a picture
 * beside it (MediaWiki writes every formula so: its MathML in a `display: none` box, then an image
 * of it): it holds one `<math>` element and nothing else, and its parent holds nothing besides it
 * but pictures, one at least.
 */
function holdsFormulaDrawnAsPicture(element: Element): boolean {
  const maths = element.getElementsByTagName('math');
  const math = maths.length === 1 ? maths[0] : undefined;
  const parent = element.parentElement;
  if (math === undefined || parent === null) return false;
  if (visibleChars(element.textContent ?? '') !== visibleChars(math.textContent ?? '')) return false;
  let pictures = 0;
  for (const node of Array.from(parent.childNodes)) {
    if (node === element || node.nodeType === 8) continue;
    if (node.nodeType === 3) {
      if ((node.textContent ?? '').trim() !== '') return false;
    } else if (node.nodeType === 1 && PICTURES.has((node as Element).localName)) pictures++;
    else return false;
  }
  return pictures > 0;
}

/**
 * Shows the box of a formula that the page hid beside its picture
 * ({@link holdsFormulaDrawnAsPicture}), and removes the picture: the formula is read once, as its
 * TeX, where the picture's alternative text was otherwise dropped with the box around both. A
 * displayed formula (`display="block"`) marks its parent `data-display="block"`, which Defuddle
 * reads as a formula of its own line.
 */
function showFormula(element: Element): void {
  const parent = element.parentElement;
  for (const child of Array.from(parent?.children ?? [])) {
    if (PICTURES.has(child.localName)) child.remove();
  }
  unhide(element);
  element.removeAttribute('aria-hidden');
  // Defuddle reads the formula from the box's parent, whose classes do not say it is displayed.
  const math = element.getElementsByTagName('math')[0];
  if (math !== undefined && isDisplayMath(math)) parent?.setAttribute('data-display', 'block');
}

/** A footnote's mark in the text: a number, a letter or a run of asterisks or daggers, bracketed or not. */
const FOOTNOTE_MARK = /^[[(]?(?:\d{1,3}|[a-z]|[*†‡§¶]{1,3})[\])]?$/i;

/** Elements that may hold a footnote's mark inside a paragraph. */
const MARK_ELEMENTS = new Set(['a', 'span', 'sup', 'small', 'button']);

/** Characters (whitespace aside) a mark's paragraph holds besides the mark: a menu's "1" holds little. */
const MARK_PARAGRAPH_MIN_CHARS = 20;

/**
 * Of the `hidden` elements, those that are a footnote's text, which the page shows when its mark
 * is pointed at or clicked: an element inside the mark (`<span>1<span style="display:none">The
 * note.</span></span>`), or one whose id the mark names (`data-definition`, `aria-describedby`,
 * `href="#…"`). A mark is an inline element in a paragraph of text whose own text is a footnote's
 * mark ({@link FOOTNOTE_MARK}); a menu's toggle ("☰") or a pager's "2" in a list of links is not one.
 * The footnotes stay for the extractors, which write them as the article's notes.
 */
function footnoteTexts(document: Document, hidden: readonly Element[]): Set<Element> {
  const notes = new Set<Element>();
  const byId = new Map<string, Element>();
  // Each paragraph's text is measured once, however many marks it holds.
  const paragraphs = new Map<Element, number>();
  for (const element of hidden) {
    // What only `aria-hidden` hides is drawn for every reader (a rating's stars, an icon's label)
    // and read out by none: a footnote is hidden from every reader until its mark is used.
    if (!hiddenFromEveryone(element)) continue;
    const parent = element.parentElement;
    if (parent !== null && isFootnoteMark(parent, element, paragraphs)) notes.add(element);
    else if (element.id !== '') byId.set(element.id, element);
  }
  if (byId.size === 0) return notes;
  for (const mark of Array.from(
    document.querySelectorAll('[data-definition], [aria-describedby], a[href^="#"]'),
  )) {
    const target =
      mark.getAttribute('data-definition') ??
      mark.getAttribute('aria-describedby') ??
      (mark.getAttribute('href') ?? '').slice(1);
    const note = byId.get(target);
    if (note !== undefined && isFootnoteMark(mark, undefined, paragraphs)) notes.add(note);
  }
  return notes;
}

/** Whether `element` is hidden by a rule of {@link hiddenByMarkup} other than `aria-hidden`. */
function hiddenFromEveryone(element: Element): boolean {
  const attribute = (name: string) => (name === 'aria-hidden' ? null : element.getAttribute(name));
  return hiddenByMarkup(element.localName, attribute) !== false;
}

/**
 * Shows a footnote's text the page hides until its mark is used, so that every stage reads it (the
 * extractors drop what a page hides): its `hidden` attribute and hiding declarations go. Text
 * inside its mark is set apart from the mark by a space ("1 The note.", not "1The note.").
 */
function showNote(note: Element): void {
  unhide(note);
  const before = note.previousSibling;
  if (before !== null && before.nodeType === 3 && !/\s$/.test(before.textContent ?? '')) {
    note.before(note.ownerDocument.createTextNode(' '));
  }
}

/** Takes off an element's `hidden` attribute and the declarations of its style that hide it. */
function unhide(element: Element): void {
  element.removeAttribute('hidden');
  const style = element.getAttribute('style') ?? '';
  const shown = style
    .split(';')
    .filter((declaration) => !/^\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(declaration))
    .join(';')
    .trim();
  if (shown === '') element.removeAttribute('style');
  else element.setAttribute('style', shown);
}

/**
 * Whether `element` is a footnote's mark in a paragraph of text: an inline element whose own text
 * (without `note`, the footnote's text it may hold) is a mark ({@link FOOTNOTE_MARK}), in a
 * paragraph holding {@link MARK_PARAGRAPH_MIN_CHARS} characters more.
 */
function isFootnoteMark(
  element: Element,
  note: Element | undefined,
  paragraphs: Map<Element, number>,
): boolean {
  if (!MARK_ELEMENTS.has(element.localName)) return false;
  const whole = element.textContent ?? '';
  const own = (note === undefined ? whole : whole.replace(note.textContent ?? '', '')).trim();
  if (!FOOTNOTE_MARK.test(own)) return false;
  const paragraph = element.closest('p, li, dd, td, blockquote');
  if (paragraph === null) return false;
  let chars = paragraphs.get(paragraph);
  if (chars === undefined) {
    chars = visibleChars(paragraph.textContent ?? '');
    paragraphs.set(paragraph, chars);
  }
  return chars - visibleChars(whole) >= MARK_PARAGRAPH_MIN_CHARS;
}

/**
 * Whether the element itself is hidden by one of the rules of {@link dropHiddenContent}:
 * `'undone'` for a `visibility: hidden` box with a descendant that makes itself visible (kept).
 * Inside such a box (`undone`), `visibility: hidden` alone hides nothing.
 */
function hiddenState(element: Element, undone: boolean): boolean | 'undone' {
  const hidden = hiddenByMarkup(element.localName, (name) => element.getAttribute(name));
  if (hidden !== 'visibility') return hidden;
  if (undone) return false;
  for (const inner of Array.from(element.querySelectorAll('[style]'))) {
    if (VISIBLE_STYLE.test(inner.getAttribute('style') ?? '')) return 'undone';
  }
  return true;
}

/**
 * Whether an element's own markup (its name and attributes) hides it by one of the rules of
 * {@link dropHiddenContent}: `'visibility'` when only a `visibility: hidden` does, which a
 * descendant may undo for itself.
 */
export function hiddenByMarkup(
  name: string,
  attribute: (name: string) => string | null | undefined,
): boolean | 'visibility' {
  const hidden = attribute('hidden');
  if (hidden !== null && hidden !== undefined && !opensOnSearch(hidden)) return true;
  if (attribute('aria-hidden') === 'true') return !SHOWN_PLACEHOLDER_CLASS.test(attribute('class') ?? '');
  if (name === 'dialog' && (attribute('open') ?? null) === null) return true;
  if (hiddenByUtilityClass(name, attribute('class'))) return true;
  const style = attribute('style');
  if (style === null || style === undefined || !HIDING_DECLARATION.test(style)) return false;
  return /display\s*:\s*none/i.test(style) || 'visibility';
}

/**
 * Inline elements, which a page hides by class for good: a block hidden by class is as often a
 * panel that a script shows on a click (a "Read more" text, a tab), which the reader does get to see.
 */
const INLINE_NAMES: ReadonlySet<string> = new Set(['span', 'small', 'i', 'b', 'em', 'strong']);

/** Bootstrap's and Stack Exchange's class for `display: none` at every width. */
const UTILITY_HIDDEN_CLASS = /(?:^|\s)d-none(?:\s|$)/;

/** A class that shows an element again from a breakpoint on, or in print (`d-md-block`, `md:d-block`). */
const UTILITY_SHOWN_CLASS = /(?:^|\s)(?:d-(?:sm|md|lg|xl|xxl|print)-|(?:sm|md|lg|xl|print):d-)/;

/**
 * Whether an inline element's `class` hides it at every width: `d-none` without a class that shows
 * it again. Stack Exchange's posts hold such spans: the comment count kept for microdata after every
 * post, and the `$\begingroup$` and `$\endgroup$` of its MathJax sites, which came out as lines of
 * their own.
 */
function hiddenByUtilityClass(name: string, value: string | null | undefined): boolean {
  return (
    INLINE_NAMES.has(name) &&
    value !== null &&
    value !== undefined &&
    UTILITY_HIDDEN_CLASS.test(value) &&
    !UTILITY_SHOWN_CLASS.test(value)
  );
}

/** Whether a `hidden` attribute's value is `until-found`: hidden until find-in-page opens it. */
function opensOnSearch(value: string | null | undefined): boolean {
  return value?.toLowerCase() === 'until-found';
}

/** The length of the text a reader could be drawn inside `root`, whitespace aside. */
function drawnTextLength(root: Element): number {
  return visibleChars(drawnText(root));
}
