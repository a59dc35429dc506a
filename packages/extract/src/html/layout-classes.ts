import { elementsNamed, isNamed } from './element-names.js';

/**
 * Class names that say how a box lays out, in words both extractors read as a verdict on its content.
 * Readability takes points off, or removes outright, any element whose class holds "scroll",
 * "hidden" or "share", and Defuddle drops elements by names such as "-hidden" and "share". Utility
 * CSS and CSS modules put those words on content everywhere:
 *
 * - `scroll-mt-24`, `scroll-margin-top`, `anchorTargetHideOnScrollNavbar`: the offset a heading keeps
 *   below a sticky bar when a link jumps to it, on almost every anchored heading of a documentation
 *   site;
 * - `overflow-hidden`, `overflow-x-scroll`: how a box clips what overflows it, on code blocks, tables
 *   and cards;
 * - `shared-styles__Header`: a name generated from a file of shared styles (a share bar's own names,
 *   such as `sharedaddy`, do not have "shared" as a word of their own and stay);
 * - `sticky-header`, `is-sticky`: a box that stays in view while the page scrolls past it, such as
 *   the header row of a long data table (MediaWiki gives its sortable tables `sticky-header`, and
 *   Readability removes such a table whole for the word "header").
 *
 * None of them says whether the box is navigation, an advert or a share bar, so they are removed from
 * the class attributes before extraction; every other class name stays, and so do the names of
 * "scroll to top" links, which are page chrome.
 */
const LAYOUT_CLASS = /scroll|overflow|sticky|(?:^|[-_])shared(?:[-_]|$)/i;
const SCROLL_TO = /scroll[-_]?to/i;

/**
 * Class names that CSS frameworks give to content itself, which Defuddle's names for boilerplate
 * ("card-text", "invisible") take for clutter:
 *
 * - `card-text`: Bootstrap's class for the text of a card, the body of every feature, service and
 *   plan card built with it;
 * - `elementor-invisible`: how Elementor marks a section that an entrance animation shows as the
 *   reader scrolls to it (a page builder behind a large share of company sites).
 */
const FRAMEWORK_CONTENT_CLASS = /^(?:card-text|elementor-invisible)$/i;

/**
 * The names of a page's hero (`hero`, `hero-section`, `c-hero__title`): the banner at the top that
 * holds the page's headline and the sentence saying what it offers, the first text a reader is
 * shown on a product, service or landing page. Defuddle removes elements named "hero-…" as clutter.
 */
const HERO_CLASS = /hero/i;

/** Class attributes that may hold a name {@link isDropped} drops. */
const LAYOUT_NAMED = /scroll|overflow|sticky|shared|card-text|elementor-invisible|hero/i;

const isDropped = (name: string) =>
  (LAYOUT_CLASS.test(name) && !SCROLL_TO.test(name)) ||
  FRAMEWORK_CONTENT_CLASS.test(name) ||
  HERO_CLASS.test(name);

/**
 * Words of class names and ids that both extractors take for page chrome: Readability removes an
 * element so named before scoring, Defuddle by its names for boilerplate.
 */
const CHROME_WORDS = [
  'header',
  'footer',
  'banner',
  'sidebar',
  'menu',
  'extra',
  'social',
  'related',
  'popup',
  'community',
  'supplemental',
  'pagination',
  'pager',
];
const CHROME_NAME = new RegExp(CHROME_WORDS.join('|'), 'i');

/** Elements that are chrome by their tag, whatever their names say. */
const CHROME_TAGS = new Set(['header', 'footer', 'nav', 'aside', 'menu', 'a', 'body']);

/**
 * The share of the page's words an element named as chrome must hold to be taken for the page's
 * wrapper: a page's header or footer never holds most of its text.
 */
export const WRAPPER_MIN_SHARE = 1 / 2;

/** Words outside links such a wrapper must hold (a page of a few words has no wrapper to mistake). */
export const WRAPPER_MIN_PROSE_WORDS = 100;

/** The share of a wrapper's words links may hold: more is a site map in a footer. */
const WRAPPER_MAX_LINK_SHARE = 0.3;

const wordCount = (text: string | null) => (text ?? '').split(/\s+/).filter((word) => word !== '').length;

/**
 * Whether `element` holds `minWords` words outside links, with under {@link WRAPPER_MAX_LINK_SHARE}
 * of its words in links.
 */
function holdsProse(element: Element, minWords: number): boolean {
  const total = wordCount(element.textContent);
  if (total < minWords) return false;
  let linked = 0;
  for (const link of Array.from(element.querySelectorAll('a'))) linked += wordCount(link.textContent);
  return total - linked >= minWords && linked <= WRAPPER_MAX_LINK_SHARE * total;
}

/** Removes the class names matching `pattern` from `element`, and its id when that matches. */
function dropNames(element: Element, pattern: RegExp): void {
  const kept = (element.getAttribute('class') ?? '')
    .split(/\s+/)
    .filter((name) => name !== '' && !pattern.test(name));
  if (kept.length === 0) element.removeAttribute('class');
  else element.setAttribute('class', kept.join(' '));
  if (pattern.test(element.getAttribute('id') ?? '')) element.removeAttribute('id');
}

/**
 * Removes the chrome words from the names of an element that wraps the page's text: a story's
 * column named `with-sidebar`, or a site whose whole page sits in a `page1-footer`. Such an element
 * holds {@link WRAPPER_MIN_SHARE} of the body's words, {@link WRAPPER_MIN_PROSE_WORDS} of them
 * outside links, and its name would have both extractors drop the page's text with it.
 */
function dropWrapperChromeNames(body: Element, named: readonly Element[]): void {
  const candidates = named.filter(
    (element) => !CHROME_TAGS.has(element.localName) && isNamed(element, CHROME_NAME, true),
  );
  if (candidates.length === 0) return;
  const bodyWords = wordCount(body.textContent);
  // Candidates come in document order. Text inside an element has no more words than the element,
  // so a candidate within one too short to be the wrapper is too short as well, and is not counted:
  // a menu's items, each named "menu-item", cost one count of the menu.
  let short: Element | undefined;
  for (const element of candidates) {
    if (short?.contains(element)) continue;
    if (wordCount(element.textContent) < WRAPPER_MIN_SHARE * bodyWords) {
      short = element;
      continue;
    }
    if (holdsProse(element, WRAPPER_MIN_PROSE_WORDS)) dropNames(element, CHROME_NAME);
  }
}

/** Words outside links a section's header must hold to be taken for prose: a title and its pitch. */
export const SECTION_HEADER_MIN_PROSE_WORDS = 30;

const HEADER_NAME = /header/i;

/** Class names and ids one of the steps of {@link dropLayoutClasses} may remove ("header" is a chrome word). */
const ANY_NAME = new RegExp(`${LAYOUT_NAMED.source}|${CHROME_NAME.source}`, 'i');

/** Where a page's own header lives, and what only a page's header holds. */
const PAGE_CHROME = 'header, footer, nav, aside, [role="navigation"], [role="banner"]';
const PAGE_HEADER_PARTS = 'nav, [role="navigation"], form, input, button';

/**
 * Removes "header" from the names of an element that heads a section of the text rather than the
 * page: a listicle's introduction (`listicle-header`), a feature's title and pitch (`gm-header`).
 * Readability removes any element so named before scoring. Such an element sits outside the page's
 * chrome, holds no navigation, form or button, and holds {@link SECTION_HEADER_MIN_PROSE_WORDS}
 * words outside links, with under {@link WRAPPER_MAX_LINK_SHARE} of its words in links.
 */
function dropSectionHeaderNames(named: readonly Element[]): void {
  for (const element of named) {
    if (CHROME_TAGS.has(element.localName) || !isNamed(element, HEADER_NAME, true)) continue;
    if (element.closest(PAGE_CHROME) !== null || element.querySelector(PAGE_HEADER_PARTS) !== null) continue;
    if (holdsProse(element, SECTION_HEADER_MIN_PROSE_WORDS)) dropNames(element, HEADER_NAME);
  }
}

/**
 * Removes the layout class names ({@link LAYOUT_CLASS}), the frameworks' names for content
 * ({@link FRAMEWORK_CONTENT_CLASS}) and the hero's names ({@link HERO_CLASS}) from every element of
 * the document, the chrome words from the names of elements that wrap the page's text
 * ({@link dropWrapperChromeNames}) and "header" from the names of sections' headers
 * ({@link dropSectionHeaderNames}).
 */
export function dropLayoutClasses(document: Document): void {
  // One walk finds every element a step may rename; each step tests the names again as the steps
  // before it left them, since each removes names ("sticky-header" is both a section header's
  // name and a layout name).
  const named = elementsNamed(document, ANY_NAME, true);
  const body = document.body;
  if (body !== null) {
    const inBody = named.filter((element) => body.contains(element));
    dropSectionHeaderNames(inBody);
    dropWrapperChromeNames(body, inBody);
  }
  for (const element of named) {
    if (!isNamed(element, LAYOUT_NAMED, false)) continue;
    const classes = (element.getAttribute('class') ?? '').split(/\s+/);
    const kept = classes.filter((name) => name !== '' && !isDropped(name));
    if (kept.length === 0) element.removeAttribute('class');
    else element.setAttribute('class', kept.join(' '));
  }
}
