import { HEADING_SELECTOR, PARAGRAPH_BLOCKS } from './element-names.js';
import { toPlainText } from './inert-links.js';
import { toIsoDate } from './metadata-dates.js';

/**
 * The words of a heading that the page links to a place on itself. An API reference heads each
 * method with its signature and links the method's name to its own entry (`pub fn <a
 * href="#method.map">map</a>(self, f: F)`); a dictionary heads a section "Origin of <a
 * href="#…">word</a>". Defuddle (0.19.4, its heading rule) takes every link in a heading whose target
 * starts with `#` for a permalink and removes it with its text, so those headings lose their one
 * word that matters ("pub fn (self, f: F)"). Before the run such a link becomes plain text (a
 * `<span>` keeping its other attributes).
 *
 * Only links that are words of a heading which holds other words are changed: a heading that is one
 * link keeps its text through Defuddle already. These stay links: a permalink (named or titled as
 * one, a mark such as `#`, `¶` or `§`, text that is its own target such as `#section-2`), a link
 * back to the top of the page, a footnote's number in a superscript, a post's time linked to the post
 * (a pull request's "author commented <a href="#issuecomment-1">Jan 15, 2026</a>"), and every link of
 * a heading with two or more: a heading that holds a contents list of the article, a row of tabs.
 */
export function keepHeadingWords(document: Document): number {
  let changed = 0;
  for (const heading of Array.from(document.querySelectorAll(HEADING_SELECTOR))) {
    const links = Array.from(heading.querySelectorAll('a[href^="#"]')).filter(hasWords);
    if (links.length !== 1) continue;
    const link = links[0] as Element;
    if (isPermalink(link) || !hasWordsBeside(heading, link)) continue;
    toPlainText(link);
    changed++;
  }
  return changed;
}

/** A letter or a digit. */
const WORD = /[\p{L}\p{N}]/u;

/** A class name or title that marks a link as a permalink or an anchor to copy. */
const PERMALINK_NAME = /permalink|anchor|headerlink|hash-?link|heading-?link|self-?link|copy/i;

/** A target that is the top of the page, or no place at all. */
const TOP_TARGET = /^#(?:top|page-?top|site-?top|header|content|main(?:-?content)?)?$/i;

/** Elements that hold a time: HTML's own and the custom elements code hosts write. */
const TIME_SELECTOR = 'time, relative-time, local-time, time-ago';

function hasWords(link: Element): boolean {
  return WORD.test(link.textContent ?? '');
}

function isPermalink(link: Element): boolean {
  const href = (link.getAttribute('href') ?? '').trim();
  const text = (link.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (TOP_TARGET.test(href) || text === href || text.startsWith('#')) return true;
  if (/^top$/i.test(text) || link.closest('sup') !== null) return true;
  if (link.querySelector(TIME_SELECTOR) !== null || toIsoDate(text) !== undefined) return true;
  const named = `${link.getAttribute('class') ?? ''} ${link.getAttribute('title') ?? ''} ${link.getAttribute('aria-label') ?? ''}`;
  return PERMALINK_NAME.test(named);
}

/** Whether `heading` has a letter or a digit outside `link`. */
function hasWordsBeside(heading: Element, link: Element): boolean {
  const walker = heading.ownerDocument.createTreeWalker(heading, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (!link.contains(node) && WORD.test(node.nodeValue ?? '')) return true;
  }
  return false;
}

/**
 * Puts a space where a heading breaks a line: in place of each `<br>` and on both sides of each
 * block inside it (rustdoc writes a signature's `where` clause as a `<div>` in the heading). A
 * heading is one line of Markdown, and Defuddle (0.19.4) writes each heading it keeps as its text
 * alone, which joins the words on either side of the break into one ("Sign upFree trial",
 * "boolwhere F: Fn"). Returns how many breaks were spaced.
 */
export function spaceHeadingLines(document: Document): number {
  let spaced = 0;
  for (const heading of Array.from(document.querySelectorAll(HEADING_SELECTOR))) {
    for (const element of Array.from(heading.querySelectorAll('*'))) {
      const name = element.localName;
      if (name === 'br') {
        element.replaceWith(document.createTextNode(' '));
        spaced++;
      } else if (PARAGRAPH_BLOCKS.has(name)) {
        element.before(document.createTextNode(' '));
        element.after(document.createTextNode(' '));
        spaced++;
      }
    }
  }
  return spaced;
}
