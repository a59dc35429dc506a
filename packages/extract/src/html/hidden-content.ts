import { drawnText } from './drawn-text.js';

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
 * `hidden="until-found"`, which the browser's find-in-page opens), elements marked
 * `aria-hidden="true"`, elements whose inline style says `display: none` or `visibility: hidden`,
 * and dialogs that are not open. Runs after the disclosure panels and fade-ins a reader opens with
 * one action have been shown, so what is left hidden is a screen-reader duplicate, a template for a
 * script, a menu, a tracking block or a copy of the page for other screens.
 *
 * When the hidden elements hold more than {@link HIDDEN_KEEP_SHARE} of the page's text (scripts and
 * styles aside), all stay (see there). A `visibility: hidden` element with a descendant that makes
 * itself visible stays too. JSON-LD inside a removed element is moved to the head, where the
 * metadata readers still find it. Returns how many elements were removed.
 */
export function dropHiddenContent(document: Document): number {
  const body = document.body;
  if (body === null) return 0;
  // One walk: a hidden element is listed and not entered, so only the outermost ones are listed.
  // Inside a `visibility: hidden` box that a descendant undoes, nested ones are not examined again
  // (each would search the same subtree).
  const hidden: Element[] = [];
  let hiddenText = 0;
  const stack: Array<[Element, boolean]> = [[body, false]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, undone] = entry;
    const state = element === body ? false : hiddenState(element, undone);
    if (state === true) {
      hidden.push(element);
      hiddenText += drawnTextLength(element);
      continue;
    }
    const inner = undone || state === 'undone';
    for (let child = element.lastElementChild; child !== null; child = child.previousElementSibling) {
      stack.push([child, inner]);
    }
  }
  if (hidden.length === 0 || hiddenText > HIDDEN_KEEP_SHARE * drawnTextLength(body)) return 0;
  for (const element of hidden) {
    for (const script of Array.from(element.querySelectorAll('script[type="application/ld+json"]'))) {
      document.head?.append(script);
    }
    element.remove();
  }
  return hidden.length;
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
  if (hidden !== null && hidden !== undefined && hidden.toLowerCase() !== 'until-found') return true;
  if (attribute('aria-hidden') === 'true') return !SHOWN_PLACEHOLDER_CLASS.test(attribute('class') ?? '');
  if (name === 'dialog' && (attribute('open') ?? null) === null) return true;
  const style = attribute('style');
  if (style === null || style === undefined || !HIDING_DECLARATION.test(style)) return false;
  return /display\s*:\s*none/i.test(style) || 'visibility';
}

/** The length of the text a reader could be drawn inside `root`, whitespace aside. */
function drawnTextLength(root: Element): number {
  return drawnText(root).replace(/\s+/g, '').length;
}
