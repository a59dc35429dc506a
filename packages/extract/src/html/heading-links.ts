import { HEADING_SELECTOR } from './element-names.js';
import { safeAbsoluteUrl } from './safe-link.js';

/**
 * The links of linked headings, kept across Defuddle. Defuddle (0.19.4, its heading rule) writes
 * every heading it keeps as the heading's text alone, so a list of writings (a section front, a
 * blog's index, a shelf of products, a page of search results) loses the link of every entry's
 * title, the one thing a reader needs to open the entry. Before the run, the target of each heading
 * that is one link (its whole text is the link's) is noted under the heading's text; in Defuddle's
 * article, a heading without a link whose text was noted is given the link again, in the order the
 * page gave them.
 */

/** The targets of a page's linked headings, by the heading's text, in document order. */
export type HeadingLinks = ReadonlyMap<string, readonly string[]>;

/** A class name that says the element names a person: a poster's or a writer's name. */
const PERSON_CLASS = /user|author|member|poster|profile/i;

/** A path to a person's page: a member's profile, an author's archive. */
const PERSON_PATH = /^\/(?:[^/]+\/)?(?:members?|users?|u|profiles?|authors?)\//i;

/**
 * The linked headings of `root`: each heading whose whole text is the text of the one link it holds,
 * when the link leads to another page than the page's (not to a place on the page, nor to the page
 * itself: a story's headline linked to its own address says nothing), and not to a person's page (a
 * forum heads each post with its poster's name, linked to the poster's profile). Targets are
 * resolved against the page's base. Undefined when there is none.
 */
export function headingLinks(
  root: ParentNode,
  address: { readonly url: string; readonly baseUrl: string },
): HeadingLinks | undefined {
  let links: Map<string, string[]> | undefined;
  const page = withoutHash(safeAbsoluteUrl(address.url, address.url) ?? address.url);
  for (const heading of Array.from(root.querySelectorAll(HEADING_SELECTOR))) {
    const anchors = heading.querySelectorAll('a');
    if (anchors.length !== 1) continue;
    const anchor = anchors[0] as Element;
    const href = anchor.getAttribute('href')?.trim();
    if (href === undefined || href.startsWith('#')) continue;
    const target = safeAbsoluteUrl(href, address.baseUrl);
    if (target === undefined || withoutHash(target) === page) continue;
    const text = textOf(heading);
    if (text === '' || textOf(anchor) !== text) continue;
    if (namesPerson(heading) || namesPerson(anchor) || PERSON_PATH.test(new URL(target).pathname)) continue;
    links ??= new Map();
    const targets = links.get(text);
    if (targets === undefined) links.set(text, [target]);
    else targets.push(target);
  }
  return links;
}

/**
 * Gives each heading under `root` that holds no link, and whose text `links` notes, the next target
 * noted for that text: the heading's content is wrapped in a link.
 */
export function relinkHeadings(root: ParentNode, links: HeadingLinks): void {
  const used = new Map<string, number>();
  for (const heading of Array.from(root.querySelectorAll(HEADING_SELECTOR))) {
    if (heading.querySelector('a') !== null) continue;
    const text = textOf(heading);
    const targets = links.get(text);
    const index = used.get(text) ?? 0;
    const href = targets?.[index];
    if (href === undefined) continue;
    used.set(text, index + 1);
    const anchor = heading.ownerDocument.createElement('a');
    anchor.setAttribute('href', href);
    anchor.append(...Array.from(heading.childNodes));
    heading.append(anchor);
  }
}

function namesPerson(element: Element): boolean {
  return PERSON_CLASS.test(element.getAttribute('class') ?? '');
}

function textOf(node: Node): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
