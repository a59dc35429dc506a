import { type DomNode, isPublishTime } from './metadata-markup.js';

/**
 * The most elements a page's statement keeps from a streaming pass (`<meta>` and `<time>` tags,
 * JSON-LD scripts, headlines). Real pages carry a few dozen; the bound holds a hostile page's
 * millions of `<meta>` tags to a statement no larger than an ordinary page's tree.
 */
export const MAX_STATED_ELEMENTS = 2000;

/** The most characters of JSON-LD a streamed statement keeps, every script's together. */
export const MAX_STATED_JSON_LD_CHARS = 2_000_000;

/** The most characters of a title or headline a streamed statement keeps. */
const MAX_STATED_TEXT_CHARS = 2000;

/** The headlines (`<h1>`) a streamed statement keeps: the metadata reader weighs the first five. */
const MAX_STATED_HEADLINES = 5;

/** Elements whose `<title>` is no title of the page (an SVG or MathML drawing's own). */
const FOREIGN = new Set(['svg', 'math']);

/**
 * A `<time>` that may date the page: one marked as its publishing time, or a microdata property
 * (`datePublished`). The times of a thread's posts or a listing's entries are neither, and are not
 * kept.
 */
function isStatedTime(attributes: Readonly<Record<string, string>>): boolean {
  if (attributes.datetime === undefined) return false;
  return isPublishTime(attributes) || /(?:^|\s)datepublished(?:$|\s)/i.test(attributes.itemprop ?? '');
}

/** What a page states of itself, gathered from a streaming pass over it (see {@link statedMarkup}). */
export interface StatedMarkup {
  /** An element opened, with its attributes. */
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  /** Text, as the scan decodes it (a script's as written). */
  text(text: string): void;
  /** An element closed. */
  close(name: string): void;
  /**
   * What was gathered, as a tree of the shape the metadata reader walks (see `metadata-markup.ts`):
   * the `<html>` element with its attributes, the page's `<title>`, its `<meta>` tags, JSON-LD
   * scripts, dating `<time>` elements and first headlines, in document order under one root.
   */
  tree(): DomNode;
}

/**
 * Gathers, in a pass that builds no DOM, the markup a page states its metadata in: its `<meta>` tags
 * (Open Graph, `article:`, Dublin Core, microdata's `content`), its JSON-LD, the `<html lang>`, its
 * title, the `<time>` elements that may date it and its first `<h1>`s. Text a byline or a dateline shows
 * needs the page's tree, which a page read by streaming has none of; everything else the metadata
 * reader reads is here. Within {@link MAX_STATED_ELEMENTS} and {@link MAX_STATED_JSON_LD_CHARS}.
 */
export function statedMarkup(): StatedMarkup {
  const root: DomNode = { type: 'root', children: [], parent: null };
  const children = root.children as DomNode[];
  let elements = 0;
  let jsonLdChars = 0;
  let headlines = 0;
  let sawHtml = false;
  let sawTitle = false;
  // Open foreign elements (SVG, MathML) around the current position.
  let foreignDepth = 0;
  // The element whose text is being gathered, and the name that closes it.
  let gathering: { node: DomNode; closes: string; limit: number; length: number } | undefined;
  // Keeps an element, under the root.
  const add = (type: 'tag' | 'script', name: string, attribs: Record<string, string>): DomNode => {
    const node: DomNode = { type, name, attribs, children: [], parent: root };
    children.push(node);
    elements++;
    return node;
  };
  // The element whose text is gathered from here on: a title, a headline or a JSON-LD script.
  const gatherable = (name: string, attributes: Readonly<Record<string, string>>): DomNode | undefined => {
    if (name === 'title' && !sawTitle && foreignDepth === 0) {
      sawTitle = true;
      return add('tag', name, {});
    }
    if (name === 'h1' && headlines < MAX_STATED_HEADLINES) {
      headlines++;
      return add('tag', name, {});
    }
    const jsonLd =
      name === 'script' && (attributes.type ?? '').trim().toLowerCase() === 'application/ld+json';
    if (jsonLd && jsonLdChars < MAX_STATED_JSON_LD_CHARS) {
      return add('script', name, { type: 'application/ld+json' });
    }
    return undefined;
  };
  return {
    open(name, attributes) {
      if (FOREIGN.has(name)) foreignDepth++;
      if (elements >= MAX_STATED_ELEMENTS) return;
      if (name === 'html') {
        if (!sawHtml) add('tag', name, { ...attributes });
        sawHtml = true;
      } else if (name === 'meta' || (name === 'time' && isStatedTime(attributes))) {
        add('tag', name, { ...attributes });
      } else if (gathering === undefined) {
        // One element's text is gathered at a time: what opens inside it adds to its text.
        const node = gatherable(name, attributes);
        const limit =
          node?.type === 'script' ? MAX_STATED_JSON_LD_CHARS - jsonLdChars : MAX_STATED_TEXT_CHARS;
        if (node !== undefined) gathering = { node, closes: name, limit, length: 0 };
      }
    },
    text(text) {
      if (gathering === undefined || gathering.length >= gathering.limit) return;
      const kept = text.slice(0, gathering.limit - gathering.length);
      gathering.length += kept.length;
      if (gathering.node.type === 'script') jsonLdChars += kept.length;
      const last = gathering.node.children?.at(-1);
      if (last !== undefined) last.data = (last.data ?? '') + kept;
      else gathering.node.children?.push({ type: 'text', data: kept, parent: gathering.node });
    },
    close(name) {
      if (FOREIGN.has(name) && foreignDepth > 0) foreignDepth--;
      if (gathering !== undefined && name === gathering.closes) gathering = undefined;
    },
    tree: () => root,
  };
}
