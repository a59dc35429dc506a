import { stripByline } from './metadata-byline.js';
import { type DomNode, hasAncestor, metaValue, textOf } from './metadata-markup.js';
import {
  clean,
  isName,
  isUrl,
  joinNames,
  MAX_BYLINE_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from './metadata-text.js';

/** Descendants of `node` (itself excluded) whose `itemprop` names `property`. */
function itemProperty(node: DomNode, property: string): DomNode | undefined {
  const pending = [...(node.children ?? [])].reverse();
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type !== 'tag') continue;
    if ((current.attribs?.itemprop ?? '').toLowerCase().split(/\s+/).includes(property)) return current;
    for (const child of [...(current.children ?? [])].reverse()) pending.push(child);
  }
  return undefined;
}

function itemValue(node: DomNode): string {
  const attribs = node.attribs ?? {};
  return clean(metaValue(node.name, attribs) ?? (node.name === 'meta' ? '' : textOf(node)));
}

/** Item types of a thread's posts: the first one's writer started the thread. */
const THREAD_POST_TYPE = /\b(?:DiscussionForumPosting|SocialMediaPosting|Question|Answer|Comment)\b/;

/** Item types of a judgement of something else (a customer's review, a critic's rating). */
const REVIEW_TYPE = /\b\w*(?:Review|Rating)\b/;

/**
 * The names of the page's microdata authors (an item's `name`, else the element's text). Co-authors
 * of one writing are properties of the same item. A page whose items have writers of their own
 * names one item's: the item that holds the page's headline (`headlines`, its `<h1>`s) when one alone
 * does, else the first item when it is a thread's post (the thread's starter). Otherwise the items
 * are writings the page lists (a stream of stories beside the one shown, a list of books), and none
 * of their writers wrote the page. A review's writer is the page's only when the review holds the
 * headline (a critic's review); reviews beside the page's subject (a product's, a service's) are its
 * customers'.
 */
export function microdataAuthor(
  nodes: readonly DomNode[],
  headlines: readonly DomNode[],
): string | undefined {
  const items = namesByItem(nodes, headlines);
  const [first] = items.keys();
  if (first === undefined) return undefined;
  if (items.size === 1) return joinNames(items.get(first) ?? []);
  const headed = [...items.keys()].filter((item) => holdsHeadline(item, headlines));
  const item =
    headed.length === 1
      ? headed[0]
      : THREAD_POST_TYPE.test(first?.attribs?.itemtype ?? '')
        ? first
        : undefined;
  return item === undefined ? undefined : joinNames(items.get(item) ?? []);
}

/** Each item's author names, in document order, but not a customer review's (see {@link microdataAuthor}). */
function namesByItem(
  nodes: readonly DomNode[],
  headlines: readonly DomNode[],
): Map<DomNode | null, string[]> {
  const items = new Map<DomNode | null, string[]>();
  for (const node of nodes) {
    // An author nested in another author item (its name, its affiliation) is not a second author.
    if (hasAncestor(node, (ancestor) => nodes.includes(ancestor))) continue;
    const named = 'itemscope' in (node.attribs ?? {}) ? itemProperty(node, 'name') : node;
    const value = named === undefined ? '' : stripByline(itemValue(named));
    if (!isName(value) || value.length > MAX_BYLINE_CHARS) continue;
    const item = itemOf(node);
    if (REVIEW_TYPE.test(item?.attribs?.itemtype ?? '') && !holdsHeadline(item, headlines)) continue;
    const names = items.get(item);
    if (names === undefined) items.set(item, [value]);
    else names.push(value);
  }
  return items;
}

/** Whether one of the page's headlines is inside `item`. */
function holdsHeadline(item: DomNode | null, headlines: readonly DomNode[]): boolean {
  return (
    item !== null && headlines.some((headline) => hasAncestor(headline, (ancestor) => ancestor === item))
  );
}

/** The item an element is a property of: its nearest ancestor with `itemscope`, null when none. */
function itemOf(node: DomNode): DomNode | null {
  for (let parent = node.parent; parent !== null && parent !== undefined; parent = parent.parent) {
    if (parent.type === 'tag' && 'itemscope' in (parent.attribs ?? {})) return parent;
  }
  return null;
}

/** The name of the page's microdata publisher (an item's `name`, else the element's text). */
export function microdataName(nodes: readonly DomNode[]): string | undefined {
  for (const node of nodes) {
    const named = 'itemscope' in (node.attribs ?? {}) ? itemProperty(node, 'name') : node;
    const value = named === undefined ? '' : itemValue(named);
    if (value !== '' && !isUrl(value) && value.length <= MAX_METADATA_FIELD_CHARS) return value;
  }
  return undefined;
}
