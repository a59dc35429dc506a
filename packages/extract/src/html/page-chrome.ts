import { countWords } from './choose-article.js';

/** Page chrome by element name and by role: navigation, banners, footers, forms, scripts. */
const CHROME_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
]);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);

/**
 * The elements whose `<header>` or `<footer>` heads or closes that element, not the page: a
 * landing page's feature, a card or a story names its title and pitch in a header of its own. Such
 * a header is as much the section's text as its paragraphs (ARIA gives it no banner role either).
 */
const SECTIONING_SELECTOR = 'article, section';

/**
 * Elements that may be removed from the body before the cleaned-body conversion: the chrome above
 * and hidden elements. {@link isChrome} decides on each, since a section's own header and footer
 * match the selector and stay.
 */
const CHROME_SELECTOR = [
  ...CHROME_ELEMENTS,
  ...Array.from(CHROME_ROLES, (role) => `[role="${role}"]`),
  '[aria-hidden="true"]',
  '[hidden]',
].join(', ');

/** The page's main region: its `<main>` (or `role="main"`), else its body. */
export function mainRegion(document: Document): Element | null {
  return document.querySelector('main, [role="main"]') ?? document.body;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Removes the page chrome inside `root` (see {@link isChrome}). */
export function removeChrome(root: Element): void {
  for (const element of Array.from(root.querySelectorAll(CHROME_SELECTOR))) {
    if (isChrome(element)) element.remove();
  }
}

/**
 * Whether `element` is page chrome: one of {@link CHROME_ELEMENTS} (but a section's own header or
 * footer, see {@link headsSection}, and a form around the page, see {@link wrapsPage}), an element
 * in a chrome role, or a hidden one.
 */
function isChrome(element: Element): boolean {
  if (CHROME_ELEMENTS.has(element.localName) && !headsSection(element) && !wrapsPage(element)) return true;
  const role = element.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return true;
  return element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden');
}

/**
 * What a form that wraps the page holds and a search box, a sign-up or a cart form never does: the
 * page's heading or its main content. ASP.NET Web Forms put every page in one `<form>`, and
 * search-as-you-type listings wrap their results in theirs.
 */
const PAGE_CONTENT_SELECTOR = 'h1, main, article, [role="main"]';

/** Whether `element` is a form around the page's content (see {@link PAGE_CONTENT_SELECTOR}). */
function wrapsPage(element: Element): boolean {
  return element.localName === 'form' && element.querySelector(PAGE_CONTENT_SELECTOR) !== null;
}

/** What a site's own header or footer holds and a section's never does. */
const SITE_HEADER_SELECTOR = 'nav, [role="navigation"], form, [role="search"]';

/**
 * Whether `element` is the header or footer of an article or section around it rather than the
 * site's (see {@link SITE_HEADER_SELECTOR}).
 */
function headsSection(element: Element): boolean {
  if (element.localName !== 'header' && element.localName !== 'footer') return false;
  // A site wrapped whole in a <section> still has its header: the one holding the menu or search.
  if (element.querySelector(SITE_HEADER_SELECTOR) !== null) return false;
  return (element.parentElement?.closest(SECTIONING_SELECTOR) ?? null) !== null;
}

/**
 * At least as many words as the region's Markdown will hold once its chrome is removed: the words of
 * each text node outside chrome counted on their own (a word split by inline markup counts twice,
 * words of adjacent blocks never run together as they do in `textContent`), and the alt texts of its
 * images, which the Markdown writes.
 */
export function regionWordBound(root: Element | null): number {
  return regionWords(root, true);
}

/**
 * The words of the region's prose: its text outside chrome and outside links (menus, teasers and
 * "more stories" lists are links), each text node counted on its own.
 */
export function regionProseWords(root: Element | null): number {
  return regionWords(root, false);
}

function regionWords(root: Element | null, withLinks: boolean): number {
  if (root === null) return 0;
  let count = 0;
  const pending: Node[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        count += countWords(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const element = child as Element;
        if (isChrome(element) || (!withLinks && element.localName === 'a')) continue;
        if (element.localName === 'img') count += countWords(element.getAttribute('alt') ?? '');
        pending.push(element);
      }
    }
  }
  return count;
}
