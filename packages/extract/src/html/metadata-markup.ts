/** Class or id names of a visible byline. */
const BYLINE_NAME =
  /byline|by-line|(?:^|[\s_-])(?:authors?|writer|creator|posted-?by|written-?by|writtenby)(?:$|[\s_-]|name|info)|p-author/i;

/**
 * Class or id names near a byline that are not one: the author's picture, biography or links. An
 * hCard (`vcard`, `h-card`) is the byline's own microformat, not an author's card.
 */
const NOT_BYLINE_NAME =
  /avatar|\bbio|image|photo|img|social|follow|comment|about|more-by|box|(?<!\bv|\bh-)card|list|tooltip|note|categor|(?:^|[\s_-])tags?(?:$|[\s_-])/i;

/** Minimal view of htmlparser2's nodes (domhandler), the fields this module reads. */
export interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}

/**
 * What {@link collect} gathers in its one walk over the page: the `<meta>` tags by key, the JSON-LD
 * scripts, the `<html lang>`, the microdata items and the elements that may be a visible byline.
 */
export interface Collected {
  meta: Map<string, string[]>;
  jsonLd: string[];
  htmlLang: string | undefined;
  itemAuthors: DomNode[];
  /** Elements whose `itemprop` is `datePublished` (see {@link itemDateValue}). */
  itemDates: DomNode[];
  itemPublishers: DomNode[];
  bylines: DomNode[];
  /** `<time datetime>` elements marked as a publication's (see {@link isPublishTime}). */
  publishTimes: DomNode[];
  /** Elements other than `<time>` whose class names a publication date (`pubdate`, hAtom's `published`). */
  publishElements: DomNode[];
  /** The page's `<h1>` elements, in document order. */
  headlines: DomNode[];
  /** The text of the page's `<title>`. */
  title: string | undefined;
  /** How deep the page's elements nest. */
  depth: number;
}

/**
 * One walk over the page collecting every source the fields are read from. Under each name, the
 * `<meta>` tags' values are in document order, those of `<meta itemprop>` tags after the others.
 */
export function collect(document: DomNode): Collected {
  const found: Collected = {
    meta: new Map(),
    jsonLd: [],
    htmlLang: undefined,
    itemAuthors: [],
    itemDates: [],
    itemPublishers: [],
    bylines: [],
    publishTimes: [],
    publishElements: [],
    headlines: [],
    title: undefined,
    depth: 0,
  };
  const itemMeta = new Map<string, string[]>();
  const pending: DomNode[] = [document];
  const depths: number[] = [0];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const depth = depths.pop() ?? 0;
    const element = node.type === 'tag' || node.type === 'script' || node.type === 'style';
    if (element && depth > found.depth) found.depth = depth;
    if (element && !readElement(node, found, itemMeta)) continue;
    const children = node.children ?? [];
    // Pushed in reverse so that nodes come off the stack in document order.
    for (let index = children.length - 1; index >= 0; index--) {
      pending.push(children[index] as DomNode);
      depths.push(depth + 1);
    }
  }
  appendItemMeta(found.meta, itemMeta);
  return found;
}

/**
 * Records what one element gives the fields; false when its content is not walked (a script's or a
 * style's text, a template's or noscript's markup is no part of the page's visible metadata).
 * `<meta itemprop>` values go to `itemMeta`.
 */
function readElement(node: DomNode, found: Collected, itemMeta: Map<string, string[]>): boolean {
  const name = node.name ?? '';
  const attribs = node.attribs ?? {};
  if (name === 'html' && found.htmlLang === undefined && attribs.lang !== undefined) {
    found.htmlLang = attribs.lang;
  }
  if (name === 'meta') readMeta(metaValue(name, attribs), attribs, found.meta, itemMeta);
  if (name === 'script') {
    if ((attribs.type ?? '').trim().toLowerCase() === 'application/ld+json')
      found.jsonLd.push(textOf(node, true));
    return false;
  }
  if (name === 'style' || name === 'template' || name === 'noscript') return false;
  if (name === 'svg' || name === 'math') return false;
  if (name === 'title' && found.title === undefined) found.title = textOf(node);
  if (name === 'h1') found.headlines.push(node);
  readItemProperties(node, attribs, found);
  if (name === 'time' && attribs.datetime !== undefined && isPublishTime(attribs)) {
    found.publishTimes.push(node);
  } else if (name !== 'time' && attribs.class !== undefined && PUBLISH_CLASS.test(attribs.class)) {
    found.publishElements.push(node);
  }
  if (isBylineCandidate(name, attribs)) found.bylines.push(node);
  return true;
}

/** Records an element whose `itemprop` names an author, a publishing date or a publisher. */
function readItemProperties(node: DomNode, attribs: Record<string, string>, found: Collected): void {
  if (attribs.itemprop === undefined) return;
  const itemprop = attribs.itemprop.toLowerCase().split(/\s+/);
  if (itemprop.includes('author') || itemprop.includes('creator')) found.itemAuthors.push(node);
  if (itemprop.includes('datepublished')) found.itemDates.push(node);
  if (itemprop.includes('publisher')) found.itemPublishers.push(node);
}

/** The date a microdata `datePublished` element states: its value, its `datetime`, else its text. */
export function itemDateValue(node: DomNode): string {
  const attribs = node.attribs ?? {};
  return metaValue(node.name, attribs) ?? attribs.datetime ?? textOf(node);
}

/** A class that names a publication date: `pubdate`, `pub-date`, `publish-date`, hAtom's `published`. */
const PUBLISH_CLASS =
  /(?:^|\s)(?:pub[-_]?date|publish(?:ed)?(?:[-_]?(?:date|time))?|date[-_]?published)(?:$|\s)/i;

/**
 * The date the first of `nodes` outside a menu, a sidebar, a footer or a table states: its `title` (hAtom's
 * `<abbr class="published" title="2008-07-24T12:00:00">`) or its whole text, read by `read`.
 */
export function statedPublishDate(
  nodes: readonly DomNode[],
  read: (text: string) => string | undefined,
): string | undefined {
  for (const node of nodes) {
    // A table's dates are its rows' (an infobox's release date); an element marked both published
    // and updated says neither.
    const outside = hasAncestor(node, (ancestor) =>
      ['nav', 'footer', 'aside', 'table'].includes(ancestor.name ?? ''),
    );
    if (outside || /(?:^|\s)updated(?:$|\s)/i.test(node.attribs?.class ?? '')) continue;
    const title = node.attribs?.title;
    const date = (title === undefined ? undefined : read(title)) ?? read(textOf(node));
    if (date !== undefined) return date;
  }
  return undefined;
}

/** Whether a `<time>` marks the publishing time: `pubdate`, or a class that says so. */
export function isPublishTime(attribs: Readonly<Record<string, string>>): boolean {
  return 'pubdate' in attribs || /publish/i.test(attribs.class ?? '');
}

/**
 * The value a `<meta>` or `<data>` element states: its `content`, else its `value` (a `<data>`
 * element's own attribute, and what some saved copies of pages write on `<meta>` tags in its place).
 */
export function metaValue(name: string | undefined, attribs: Record<string, string>): string | undefined {
  return attribs.content ?? (name === 'meta' || name === 'data' ? attribs.value : undefined);
}

/** The `<meta itemprop>` names read with their items rather than as the page's tags. */
const ITEM_READ_APART = new Set(['datepublished', 'author', 'creator']);

/**
 * Records a `<meta>` tag's value under each name it gives: its `property`, `name` and `http-equiv`
 * in `meta`, its `itemprop` in `items` (see {@link collect}) except those {@link ITEM_READ_APART}.
 */
function readMeta(
  content: string | undefined,
  attribs: Record<string, string>,
  meta: Map<string, string[]>,
  items: Map<string, string[]>,
): void {
  if (content === undefined) return;
  for (const [key, into] of [
    [attribs.property, meta],
    [attribs.name, meta],
    [attribs['http-equiv'], meta],
    [attribs.itemprop, items],
  ] as const) {
    if (key === undefined) continue;
    for (const part of key.toLowerCase().trim().split(/\s+/)) {
      // A microdata publication date or author is read with the page's other microdata dates
      // (`itemDates`) or authors (`itemAuthors`), where an entry's of a list of writings or a
      // customer's review is told from the page's.
      if (part === '' || (into === items && ITEM_READ_APART.has(part))) continue;
      const values = into.get(part) ?? [];
      values.push(content);
      into.set(part, values);
    }
  }
}

/**
 * The values of `<meta itemprop>` tags, each after the values the page's own tags give under the same
 * name: an item's `description` or `author` describes the item (a product of a list, a shortened
 * copy of the page's summary), the `<meta name>` and `property` tags the page.
 */
function appendItemMeta(meta: Map<string, string[]>, items: ReadonlyMap<string, string[]>): void {
  for (const [key, values] of items) meta.set(key, [...(meta.get(key) ?? []), ...values]);
}

/** Elements that are never a byline, whatever their class. */
const NEVER_BYLINES = new Set(['meta', 'link', 'img', 'html', 'body', 'main', 'article']);

function isBylineCandidate(name: string, attribs: Record<string, string>): boolean {
  // A CMS may name a post's author in the class of the post's whole `<article>` ("author-jane-doe").
  if (NEVER_BYLINES.has(name)) return false;
  if (attribs.rel?.split(/\s+/).includes('author')) return true;
  if (attribs.class === undefined && attribs.id === undefined) return false;
  const names = `${attribs.class ?? ''} ${attribs.id ?? ''}`;
  return BYLINE_NAME.test(names) && !NOT_BYLINE_NAME.test(names);
}

/** The text of a node; `raw` keeps a script's text, otherwise scripts and styles are skipped. */
export function textOf(node: DomNode, raw = false): string {
  let text = '';
  const pending: DomNode[] = [node];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type === 'text') {
      text += current.data ?? '';
      continue;
    }
    if (!raw && (current.type === 'script' || current.type === 'style')) continue;
    if (current.type === 'tag' && (current.name === 'br' || current.name === 'p' || current.name === 'div'))
      text += '\n';
    const children = current.children ?? [];
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child !== undefined) pending.push(child);
    }
  }
  return text;
}

export function hasAncestor(node: DomNode, test: (ancestor: DomNode) => boolean): boolean {
  for (let parent = node.parent; parent !== null && parent !== undefined; parent = parent.parent) {
    if (parent.type === 'tag' && test(parent)) return true;
  }
  return false;
}
