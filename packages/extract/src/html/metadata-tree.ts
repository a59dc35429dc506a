import {
  ATTRIBUTE_NODE,
  ELEMENT_NODE,
  type ListNode,
  listLinks,
  TEXT_NODE,
} from '../linkedom/linked-nodes.js';
import type { DomNode } from './metadata-markup.js';

/**
 * The page's tree in the shape the metadata reader walks (see `DomNode` in metadata-markup.ts),
 * copied from a linkedom document as parsed, before any DOM stage changes it. Reading the copy saves
 * the page a second parse of its markup: walking linkedom's list of nodes costs a fraction of it.
 *
 * The copy is what parsing the same markup with htmlparser2 gives the reader: elements with their
 * lowercased names and attributes (as `parseHtmlDocument` leaves them; SVG keeps its case, which no
 * field reads), their texts (a text the parse split at an entity joined again), and a `<template>`
 * without content. `undefined` when the document keeps no such list (another DOM).
 */
export function metadataTree(document: object): DomNode | undefined {
  const links = listLinks(document);
  if (links === undefined) return undefined;
  const { next: NEXT, end: END } = links;
  const root: DomNode = { type: 'root', children: [], parent: null };
  // The open elements and, for each, the end marker that closes it.
  const open: { node: DomNode; end: ListNode | undefined }[] = [{ node: root, end: undefined }];
  const start = document as unknown as ListNode;
  const stop = start[END];
  let current = start[NEXT];
  while (current !== undefined && current !== stop) {
    const parent = open[open.length - 1] as { node: DomNode; end: ListNode | undefined };
    if (current.nodeType === ELEMENT_NODE) {
      const { element, after } = copyElement(current, parent.node, NEXT);
      // A template's content is a fragment of its own, no part of the page (as htmlparser2 gives it,
      // it is never walked).
      if (element.name === 'template') {
        current = current[END]?.[NEXT];
        continue;
      }
      open.push({ node: element, end: current[END] });
      current = after;
      continue;
    }
    if (current.nodeType === TEXT_NODE) {
      // One text, as htmlparser2 gives it, where linkedom's parse split it (at an entity).
      const siblings = parent.node.children as DomNode[];
      const last = siblings[siblings.length - 1];
      if (last?.type === 'text') last.data = `${last.data ?? ''}${current.data ?? ''}`;
      else siblings.push({ type: 'text', data: current.data ?? '', parent: parent.node });
    } else if (current === parent.end) {
      open.pop();
    }
    current = current[NEXT];
  }
  return root;
}

/**
 * A copy of an element, added to its parent's children, and the node after its attributes in the
 * list (its first child, or its end marker).
 */
function copyElement(
  original: ListNode,
  parent: DomNode,
  NEXT: symbol,
): { element: DomNode & { name: string }; after: ListNode | undefined } {
  const attribs: Record<string, string> = {};
  let after = original[NEXT];
  // The names are in lower case and each once already: `parseHtmlDocument` wrote them so.
  while (after !== undefined && after.nodeType === ATTRIBUTE_NODE) {
    attribs[after.name ?? ''] = after.value ?? '';
    after = after[NEXT];
  }
  const name = (original.localName ?? '').toLowerCase();
  const element = { type: elementType(name), name, attribs, children: [], parent };
  (parent.children as DomNode[]).push(element);
  return { element, after };
}

/** The node type htmlparser2 gives an element of this name. */
function elementType(name: string): string {
  if (name === 'script') return 'script';
  if (name === 'style') return 'style';
  return 'tag';
}
