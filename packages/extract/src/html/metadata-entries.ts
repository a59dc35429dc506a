import { HEADINGS } from './element-names.js';
import { type DomNode, textOf } from './metadata-markup.js';
import { clean } from './metadata-text.js';

/** How many levels above a marker its entry in a list of writings is looked for. */
const ENTRY_LEVELS = 8;

/**
 * A test of whether a marker of a writing (one of `markers`: a visible byline, a publication date's
 * element) is an entry's of a list of writings (a section front's teasers, a blog's index, a list of
 * books), not the page's. Such a marker sits in an element repeated beside it (same tag, and same
 * class unless it is one of {@link ENTRY_TAGS}) whose repeats carry markers too, and the entries have
 * one title each: one linked heading (see {@link linkedHeadingsOf}) apart from headings that hold a
 * marker or read as one (a forum post's header names its poster in a linked heading). The marker's
 * entry has one, and so do at least half of the others. An entry titled as the page (`titles`: its
 * `<title>`, `og:title`, `twitter:title`) is the page's own story, the first of a stream of them.
 * Repeated elements without titles (a thread's posts, comments, testimonials, a story's co-authors)
 * are no list: the elements above them are looked at, up to {@link ENTRY_LEVELS} levels above the
 * marker. Once a list is found, every marker in it is an entry's, titled or not.
 */
export function listedEntries(
  markers: readonly DomNode[],
  titles: readonly string[],
): (node: DomNode) => boolean {
  const wanted = titles.map(normalized).filter((title) => title !== '');
  const marked = new Set(markers);
  const lists = new Set<DomNode>();
  let found: Set<DomNode> | undefined;
  return (node) => {
    found ??= markerHolders(markers);
    const holders = found;
    // The entry's one title, apart from the markers' own headings; undefined when it has none or more.
    const titleOf = (entry: DomNode) => {
      const { headings, texts } = linkedHeadingsOf(entry, marked);
      const titled = headings.filter(
        (heading) => !holders.has(heading) && !texts.has(normalized(textOf(heading))),
      );
      return titled.length === 1 ? titled[0] : undefined;
    };
    let current: DomNode = node;
    for (let level = 0; level <= ENTRY_LEVELS; level++) {
      const parent = current.parent;
      if (parent === null || parent === undefined) return false;
      if (lists.has(parent)) return true;
      const others = repeats(current, parent, holders);
      const title = others.length > 0 ? titleOf(current) : undefined;
      if (
        title !== undefined &&
        2 * others.filter((other) => titleOf(other) !== undefined).length >= others.length
      ) {
        if (isTitled(title, wanted)) return false;
        lists.add(parent);
        return true;
      }
      current = parent;
    }
    return false;
  };
}

/** Every element that holds one of `markers`, the markers themselves included. */
function markerHolders(markers: readonly DomNode[]): Set<DomNode> {
  const holders = new Set<DomNode>();
  for (const marker of markers) {
    for (let node: DomNode | null | undefined = marker; node != null; node = node.parent) {
      if (holders.has(node)) break;
      holders.add(node);
    }
  }
  return holders;
}

/**
 * Elements whose siblings of their tag are entries alike whatever their classes (a stylesheet
 * compiled per component gives each entry of a list its own class names).
 */
const ENTRY_TAGS: ReadonlySet<string> = new Set(['li', 'article', 'tr']);

/**
 * The siblings of `node` of its tag, and of its class unless it is one of {@link ENTRY_TAGS}, that
 * hold a marker of their own.
 */
function repeats(node: DomNode, parent: DomNode, holders: ReadonlySet<DomNode>): DomNode[] {
  const kind = ENTRY_TAGS.has(node.name ?? '') ? undefined : (node.attribs?.class ?? '');
  return (parent.children ?? []).filter(
    (sibling) =>
      sibling !== node &&
      sibling.type === 'tag' &&
      sibling.name === node.name &&
      (kind === undefined || (sibling.attribs?.class ?? '') === kind) &&
      holders.has(sibling),
  );
}

/**
 * The linked headings inside `entry` (`<h1>`–`<h6>` and elements with `role="heading"` that hold a
 * link or sit in one): an entry's title leads to the writing, and a heading a post writes in its text
 * seldom links anywhere. With them, the texts of the markers (`markers`) inside `entry`: a heading
 * that reads as one of them is the marker's own (a post's header naming its poster), not a title.
 */
function linkedHeadingsOf(
  entry: DomNode,
  markers: ReadonlySet<DomNode>,
): { headings: DomNode[]; texts: Set<string> } {
  const headings: DomNode[] = [];
  const texts = new Set<string>();
  const pending: [DomNode, boolean][] = (entry.children ?? []).map((child) => [child, false]);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, inLink] = next;
    if (node.type !== 'tag') continue;
    if (markers.has(node)) texts.add(normalized(textOf(node)));
    const link = inLink || isLink(node);
    if (HEADINGS.has(node.name ?? '') || node.attribs?.role === 'heading') {
      if (link || holdsLink(node)) headings.push(node);
      continue;
    }
    for (const child of node.children ?? []) pending.push([child, link]);
  }
  if (headings.length === 0) {
    const lead = leadingLink(entry);
    if (lead !== undefined) headings.push(lead);
  }
  return { headings, texts };
}

/** The fewest words of a link that titles an entry without a heading. */
const MIN_LEAD_WORDS = 2;

/**
 * The link an entry without a heading opens with, when nothing comes before it and it reads as a
 * title of several words: a blog's index that lists each post as its linked title, its date and its
 * writer (`<p><a href="/blog/go1.26">Go 1.26 is released</a>, 10 February 2026 …`).
 */
function leadingLink(entry: DomNode): DomNode | undefined {
  let node: DomNode | undefined = entry;
  while (node !== undefined && !isLink(node)) {
    const first: DomNode | undefined = (node.children ?? []).find(
      (child) => child.type === 'tag' || (child.type === 'text' && (child.data ?? '').trim() !== ''),
    );
    node = first?.type === 'tag' ? first : undefined;
  }
  if (node === undefined || node === entry) return undefined;
  return clean(textOf(node)).split(/\s+/).length >= MIN_LEAD_WORDS ? node : undefined;
}

function isLink(node: DomNode): boolean {
  return node.name === 'a' && node.attribs?.href !== undefined;
}

function holdsLink(node: DomNode): boolean {
  const pending = [...(node.children ?? [])];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (isLink(current)) return true;
    pending.push(...(current.children ?? []));
  }
  return false;
}

/** Whether a heading's text is (part of) one of the page's titles. */
function isTitled(heading: DomNode, titles: readonly string[]): boolean {
  const text = normalized(textOf(heading));
  return text !== '' && titles.some((title) => title.includes(text));
}

function normalized(text: string): string {
  return clean(text).toLowerCase();
}
