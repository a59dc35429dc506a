import { HEADINGS } from './element-names.js';
import { HIDING_DECLARATION } from './hidden-content.js';
import { collapsedLength } from './sparse-shell.js';

/**
 * Roles of the panels a disclosure widget shows and hides: a tab's panel, an accordion's region.
 */
const PANEL_ROLES = new Set(['tabpanel', 'region']);

/** Where a hidden panel is the site's menu or chrome, not the page's text. */
const CHROME_ANCESTOR =
  'nav, header, footer, [role="navigation"], [role="banner"], [role="contentinfo"], [role="dialog"]';

/**
 * Whether a hidden element is the page's text once shown: it has text, sits outside the site's
 * menus and dialogs, and at most {@link PANEL_MAX_LINK_SHARE} of its text is links (more is a
 * dropdown menu).
 */
function isPageText(element: Element): boolean {
  if (element.closest(CHROME_ANCESTOR) !== null) return false;
  const text = collapsedLength(element.textContent ?? '');
  if (text === 0) return false;
  let links = 0;
  for (const link of Array.from(element.querySelectorAll('a')))
    links += collapsedLength(link.textContent ?? '');
  return links <= PANEL_MAX_LINK_SHARE * text;
}

/** The largest share of a panel's text that may sit in links for it to be text rather than a menu. */
const PANEL_MAX_LINK_SHARE = 0.5;

/**
 * Shows the collapsed panels of accordions and tabs: elements marked `hidden` or `aria-hidden="true"`
 * or hidden by their inline style (`display: none`, `visibility: hidden`) that are a tab panel or an accordion region, or that a control on the page names in its
 * `aria-controls`. A reader opens them with one click, so their text is the page's text; every
 * extractor drops hidden elements. Panels in a site's menus and dialogs, and panels that are mostly
 * links (a dropdown menu), stay hidden. The buttons that open shown panels, and buttons inside
 * headings, are replaced by their content. Returns how many panels were shown.
 */
export function revealDisclosurePanels(document: Document): number {
  const root = document.documentElement;
  if (root === null) return 0;
  const { controlled, hidden, buttons, oriented, panels } = collectDisclosureParts(root);
  const shownIds = new Set<string>();
  let shown = 0;
  for (const element of hidden) {
    if (!isShownPanel(element, controlled)) continue;
    element.removeAttribute('hidden');
    element.removeAttribute('aria-hidden');
    const style = element.getAttribute('style');
    if (style !== null) element.setAttribute('style', withoutHiding(style));
    if (element.id !== '') shownIds.add(element.id);
    shown++;
  }
  // A panel's control names what the panel answers ("Is my dog covered abroad?"), and a heading's
  // button is the heading's text: both become text, where other buttons go with the page's widgets.
  for (const [button, inHeading] of buttons) {
    const controls = (button.getAttribute('aria-controls') ?? '').split(/\s+/);
    if (inHeading || controls.some((id) => shownIds.has(id)))
      button.replaceWith(...Array.from(button.childNodes));
  }
  dropTextWidgetOrientation(oriented, panels);
  return shown;
}

/**
 * Removes `data-orientation` from the widgets whose panels hold the page's text. Radix and shadcn/ui
 * put the attribute on an accordion and each of its items, headings, triggers and regions, and on
 * tabs; reader-view parsers take a vertical widget for a menu and drop it, with the product
 * description or the answers folded in it. The attribute says nothing about the text, so it goes
 * from every oriented element that is or holds a tab panel or region of page text (by
 * {@link isPageText}, and holding no control to choose with, which makes it a shop's filters), and
 * from every oriented part inside such an element. Menus, filters, sliders, separators and scroll
 * bars keep it. Linear in the oriented elements and panels: each panel marks the oriented elements
 * around it, stopping at one already marked, innermost panels first.
 */
function dropTextWidgetOrientation(oriented: OrientedElement[], panels: OrientedPanel[]): void {
  if (oriented.length === 0) return;
  const holdsText = new Array<boolean>(oriented.length).fill(false);
  for (let index = panels.length - 1; index >= 0; index--) {
    const { panel, oriented: around } = panels[index] as OrientedPanel;
    if (around === -1 || holdsText[around]) continue;
    if (panel.querySelector(CHOICE_CONTROL) !== null || !isPageText(panel)) continue;
    for (let at = around; at !== -1 && !holdsText[at]; at = (oriented[at] as OrientedElement).parent)
      holdsText[at] = true;
  }
  // Document order: an element's oriented ancestors come before it.
  const dropped = new Array<boolean>(oriented.length).fill(false);
  for (const [index, { element, parent }] of oriented.entries()) {
    dropped[index] = (holdsText[index] as boolean) || (parent !== -1 && (dropped[parent] as boolean));
    if (dropped[index]) element.removeAttribute('data-orientation');
  }
}

/** A control to choose with: a panel holding one is a filter or a form, not text (a shop's facets). */
const CHOICE_CONTROL = 'input, select, [role="checkbox"], [role="radio"], [role="option"]';

/** What {@link revealDisclosurePanels} reads of a page: the controls' targets, the hidden elements, the buttons. */
interface DisclosureParts {
  controlled: Set<string>;
  hidden: Element[];
  /** Each button, with whether it sits in a heading. */
  buttons: [Element, boolean][];
  /** The elements that declare a widget's orientation (`data-orientation`), in document order. */
  oriented: OrientedElement[];
  /** The tab panels and regions, in document order, each with the oriented element around it. */
  panels: OrientedPanel[];
}

/** An element with `data-orientation`, and the index of the nearest such element around it (-1: none). */
interface OrientedElement {
  element: Element;
  parent: number;
}

/** A tab panel or region, and the index of the nearest oriented element that is or holds it (-1: none). */
interface OrientedPanel {
  panel: Element;
  oriented: number;
}

/**
 * Collects the controls' targets, the hidden elements and the buttons (with whether they sit in a
 * heading) in one walk, so that the rest touches only those.
 */
function collectDisclosureParts(root: Element): DisclosureParts {
  const parts: DisclosureParts = { controlled: new Set(), hidden: [], buttons: [], oriented: [], panels: [] };
  // Each entry: the element, whether it sits in a heading, the index of the oriented element around it.
  const stack: [Element, boolean, number][] = [[root, false, -1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, inHeading, around] = entry;
    const name = element.localName;
    let inner = around;
    if (element.hasAttributes()) {
      readDisclosureAttributes(element, parts);
      if (element.hasAttribute('data-orientation')) {
        parts.oriented.push({ element, parent: around });
        inner = parts.oriented.length - 1;
      }
      if (PANEL_ROLES.has(element.getAttribute('role') ?? ''))
        parts.panels.push({ panel: element, oriented: inner });
    }
    const heading = inHeading || HEADINGS.has(name);
    if (name === 'button') parts.buttons.push([element, heading]);
    for (let child = element.lastElementChild; child !== null; child = child.previousElementSibling) {
      stack.push([child, heading, inner]);
    }
  }
  return parts;
}

/** Records the ids an element's `aria-controls` names, and the element when it is hidden. */
function readDisclosureAttributes(element: Element, parts: DisclosureParts): void {
  const controls = element.getAttribute('aria-controls');
  if (controls !== null) for (const id of controls.split(/\s+/)) if (id !== '') parts.controlled.add(id);
  if (
    element.hasAttribute('hidden') ||
    element.getAttribute('aria-hidden') === 'true' ||
    HIDING_DECLARATION.test(element.getAttribute('style') ?? '')
  )
    parts.hidden.push(element);
}

/** Whether a hidden element is a panel (by role or by a control naming it) whose text is the page's. */
function isShownPanel(element: Element, controlled: ReadonlySet<string>): boolean {
  const role = element.getAttribute('role') ?? '';
  if (!PANEL_ROLES.has(role) && !(element.id !== '' && controlled.has(element.id))) return false;
  return isPageText(element);
}

/** An inline `opacity` declaration of zero (`0`, `0.0`, `.0`, `0%`), with what precedes it. */
const TRANSPARENT_DECLARATION = /(^|;)\s*opacity\s*:\s*(?:0+(?:\.0*)?|\.0+)%?\s*(?:!important\s*)?(?=;|$)/i;

/** Every inline declaration that hides an element ({@link HIDING_DECLARATION}, each occurrence). */
const HIDING_DECLARATIONS = new RegExp(HIDING_DECLARATION.source, 'gi');

/** A style without its hiding declarations; the separator before each stays. */
const withoutHiding = (style: string) =>
  style.replace(HIDING_DECLARATIONS, (declaration) => (declaration.startsWith(';') ? ';' : ''));

/** An inline `display: none` declaration, with what precedes it. */
const NONE_DECLARATION = /(^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?=;|$)/i;

/**
 * Class names of the parts of a disclosure widget (accordions, collapsibles, expanders, toggles,
 * FAQ answers, tab panes), which pages that do not mark them up with ARIA still give them.
 */
const DISCLOSURE_CLASS = /accordion|collaps|expander|faq|toggle|answer|panel|tab-?pane|tab-?content/i;

/**
 * Shows what a page hides with its inline style only until the reader acts, in one walk over the
 * elements that have a `style`:
 *
 * - the parts it fades in as the reader scrolls to them: an `opacity: 0` for a script to animate
 *   (Webflow interactions, product pages that reveal each feature), unless the same style also says
 *   `display: none` or `visibility: hidden`. Extractors take a transparent element for a hidden one;
 * - the folded parts of disclosure widgets named by class rather than by role: a `display: none` on
 *   an element whose class, or its parent's, names an accordion, a collapsible, an expander, a
 *   toggle, an FAQ answer or a tab pane ({@link DISCLOSURE_CLASS}). As with
 *   {@link revealDisclosurePanels}, one click shows them.
 *
 * Either declaration is dropped from the style only when the element is page text by
 * {@link isPageText} (not a menu, a dialog or a dropdown of links). Returns how many elements were
 * shown.
 */
export function revealStyledParts(document: Document): number {
  let shown = 0;
  for (const element of Array.from(document.querySelectorAll('[style]'))) {
    const style = element.getAttribute('style') ?? '';
    let declaration: RegExp;
    if (TRANSPARENT_DECLARATION.test(style) && !HIDING_DECLARATION.test(style)) {
      declaration = TRANSPARENT_DECLARATION;
    } else if (NONE_DECLARATION.test(style) && isDisclosurePart(element)) {
      declaration = NONE_DECLARATION;
    } else continue;
    if (!isPageText(element)) continue;
    element.setAttribute('style', style.replace(declaration, '$1'));
    shown++;
  }
  return shown;
}

/** Whether the element's class, or its parent's, names a part of a disclosure widget. */
function isDisclosurePart(element: Element): boolean {
  const names = `${element.getAttribute('class') ?? ''} ${element.parentElement?.getAttribute('class') ?? ''}`;
  return DISCLOSURE_CLASS.test(names);
}
