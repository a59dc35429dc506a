import { HEADING_SELECTOR } from './element-names.js';

/**
 * A link target that takes the reader nowhere: the empty fragment of the page itself (`#`, `#!`)
 * or a script (`javascript:void(0)`, `javascript:;`). Whitespace inside is ignored, as browsers
 * ignore it.
 */
const INERT_TARGET = /^(?:#!?|javascript:.*)$/is;

/** Whether an `href` value takes the reader nowhere (see {@link INERT_TARGET}). */
export function isInertTarget(href: string): boolean {
  return INERT_TARGET.test(href.replace(/[\t\n\r ]/g, ''));
}

/**
 * Turns the links that go nowhere in and around the page's headings into plain text (a `<span>`
 * that keeps every other attribute): the question of an FAQ entry a script opens, the title of a
 * section a script folds. They are controls a script listens to, drawn as links, and read as links
 * they make a heading and its section look like a list of links to the extractors' link-density
 * rules, which then drop the question with its answer, or keep the answer without its question.
 * Links with a real target, those to a part of the page (`#section`) included, stay, and so do
 * inert links elsewhere: a menu's entries that open its panels are still a menu. Returns how many
 * were changed.
 */
export function unwrapInertLinks(document: Document): number {
  // Found from the headings, fewer than the links on most pages: the links inside each and the one
  // around it.
  const links = new Set<Element>();
  for (const heading of Array.from(document.querySelectorAll(HEADING_SELECTOR))) {
    for (const link of Array.from(heading.querySelectorAll('a[href]'))) links.add(link);
    const around = heading.closest('a[href]');
    if (around !== null) links.add(around);
  }
  let changed = 0;
  for (const link of links) {
    if (!isInertTarget(link.getAttribute('href') ?? '')) continue;
    toPlainText(link);
    changed++;
  }
  return changed;
}

/** Replaces `link` by a `<span>` with its content and every attribute but its target. */
export function toPlainText(link: Element): void {
  const span = link.ownerDocument.createElement('span');
  for (const attribute of Array.from(link.attributes)) {
    if (attribute.name !== 'href') span.setAttribute(attribute.name, attribute.value);
  }
  while (link.firstChild !== null) span.appendChild(link.firstChild);
  link.replaceWith(span);
}
