import { type DomNode, textOf } from './metadata-markup.js';
import { clean } from './metadata-text.js';

/** How many levels above a byline its entry in a list of writings is looked for. */
const ENTRY_LEVELS = 8;

const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A test of whether a visible byline (an element of `bylines`, and the names read from it) is an
 * entry's of a list of writings (a section front's teasers, a blog's index, a list of books), not the
 * page's. Such a byline sits in an element repeated beside it (same tag, and same class unless it is
 * one of {@link ENTRY_TAGS}) whose repeats carry bylines too, and the entries have one title each: one
 * linked heading (see {@link linkedHeadingsOf}) apart from the writer's own (a heading that holds a
 * byline or reads as the byline's names, as a forum post's header does). The byline's entry has one,
 * and so do at least half of the others. An entry titled as the page (`titles`: its `<title>`,
 * `og:title`, `twitter:title`) is the page's own story, the first of a stream of them. Repeated
 * elements without titles (a thread's posts, comments, testimonials, a story's co-authors) are no
 * list: the elements above them are looked at, up to {@link ENTRY_LEVELS} levels above the byline.
 * Once a list is found, every byline in it is an entry's, titled or not.
 */
export function listedBylines(
  bylines: readonly DomNode[],
  titles: readonly string[],
): (node: DomNode) => boolean {
  const wanted = titles.map(normalized).filter((title) => title !== '');
  const marked = new Set(bylines);
  const lists = new Set<DomNode>();
  let found: Set<DomNode> | undefined;
  return (node) => {
    found ??= bylineHolders(bylines);
    const holders = found;
    // The entry's one title, apart from the writer's own headings; undefined when it has none or more.
    const titleOf = (entry: DomNode) => {
      const { headings, writers } = linkedHeadingsOf(entry, marked);
      const titled = headings.filter(
        (heading) => !holders.has(heading) && !writers.has(normalized(textOf(heading))),
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

/** Every element that holds one of `bylines`, the bylines themselves included. */
function bylineHolders(bylines: readonly DomNode[]): Set<DomNode> {
  const holders = new Set<DomNode>();
  for (const byline of bylines) {
    for (let node: DomNode | null | undefined = byline; node != null; node = node.parent) {
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
 * hold a byline of their own.
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
 * seldom links anywhere. With them, the texts of the bylines (`bylines`) inside `entry`: a heading
 * that reads as one of them is the writer's.
 */
function linkedHeadingsOf(
  entry: DomNode,
  bylines: ReadonlySet<DomNode>,
): { headings: DomNode[]; writers: Set<string> } {
  const headings: DomNode[] = [];
  const writers = new Set<string>();
  const pending: [DomNode, boolean][] = (entry.children ?? []).map((child) => [child, false]);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, inLink] = next;
    if (node.type !== 'tag') continue;
    if (bylines.has(node)) writers.add(normalized(textOf(node)));
    const link = inLink || isLink(node);
    if (HEADING_TAGS.has(node.name ?? '') || node.attribs?.role === 'heading') {
      if (link || holdsLink(node)) headings.push(node);
      continue;
    }
    for (const child of node.children ?? []) pending.push([child, link]);
  }
  return { headings, writers };
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
