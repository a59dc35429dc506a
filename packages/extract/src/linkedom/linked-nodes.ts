// The parts of linkedom's nodes the selector cache reads (see selector-cache.ts): the DOM members
// css-select is given, and the linked list linkedom keeps every tree in, which the cache walks
// instead of the child lists.

export const ELEMENT_NODE = 1;
export const ATTRIBUTE_NODE = 2;
export const TEXT_NODE = 3;

/** The DOM members the selector engine reads; linkedom's nodes have them all. */
export interface DomNode {
  nodeType: number;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  ownerDocument: DomDocument | null;
  data?: string;
}

/** A selector string compiled into a test of one element. */
export type Query = (element: DomElement) => boolean;

export interface DomElement extends DomNode {
  localName: string;
  parentElement: DomElement | null;
  previousElementSibling: DomElement | null;
  getAttribute(name: string): string | null;
  getAttributeNode(name: string): { value: string } | null;
  hasAttribute(name: string): boolean;
}

export type DomDocument = DomNode;

/**
 * A node of linkedom's linked list (an element, an attribute, a text, an end marker…), as the
 * walks that follow the list's links read it (see {@link listLinks}).
 */
export interface ListNode {
  nodeType: number;
  localName?: string;
  /** An attribute's name. */
  name?: string;
  /** An attribute's value. */
  value?: string;
  /** A text's characters. */
  data?: string;
  [link: symbol]: ListNode | undefined;
}

/** The two symbol keys of linkedom's node list (see {@link listLinks}). */
export interface ListLinks {
  next: symbol;
  end: symbol;
}

/**
 * linkedom keeps a tree as one linked list of nodes in document order, each element and document
 * followed later by an end marker; its own selector methods walk that list between a node and its
 * end marker. The two links are symbol-keyed properties it does not export, found here by their
 * descriptions. `undefined` when a node has no such links (another DOM, another build).
 */
export function listLinks(node: object): ListLinks | undefined {
  const symbols = Object.getOwnPropertySymbols(node);
  const next = symbols.find((symbol) => symbol.description === 'next');
  const end = symbols.find((symbol) => symbol.description === 'end');
  if (next === undefined || end === undefined) return undefined;
  const list = node as Record<symbol, unknown>;
  return list[next] === undefined || list[end] === undefined ? undefined : { next, end };
}

/**
 * Visits the element descendants of `root` in document order until `visit` returns true. A
 * `<template>`'s contents are not descendants (they belong to its content fragment), as in linkedom.
 */
export function eachDescendant(
  { next: NEXT, end: END }: ListLinks,
  root: DomNode,
  visit: (element: DomElement) => boolean,
) {
  const list = root as unknown as Record<symbol, Record<symbol, unknown> | undefined>;
  const end = list[END];
  let node = list[NEXT];
  while (node !== undefined && node !== null && node !== end) {
    const element = node as unknown as DomElement;
    if (element.nodeType === ELEMENT_NODE) {
      if (visit(element)) return;
      node = (element.localName === 'template' ? node[END] : node[NEXT]) as
        | Record<symbol, unknown>
        | undefined;
    } else {
      node = node[NEXT] as Record<symbol, unknown> | undefined;
    }
  }
}

/**
 * An element's tag name in lower case. A selector list tests the name once per tag alternative, so
 * one element's name is asked for many times in a row (Defuddle's lists have hundreds of
 * alternatives): the last answer is kept rather than lower-casing the same name again each time.
 */
export function lowerCaseName(): (element: DomElement) => string {
  let lastName = '';
  let lastLower = '';
  return (element) => {
    const name = element.localName;
    if (name !== lastName) {
      lastName = name;
      lastLower = name.toLowerCase();
    }
    return lastLower;
  };
}
