// The compiled-query cache of the selector methods (see selector-cache.ts): each selector string is
// compiled by css-select once per HTML/XML mode, over a view of linkedom's DOM made once per mode,
// and kept while it is among the last {@link MAX_COMPILED_SELECTORS} compiled.
import type { Options } from 'css-select';
import type { Selector } from 'css-what';
import { indexedQuery } from './indexed-query.js';
import {
  type DomDocument,
  type DomElement,
  type DomNode,
  ELEMENT_NODE,
  type ListLinks,
  lowerCaseName,
  type Query,
  TEXT_NODE,
} from './linked-nodes.js';

/** Compiled selectors kept at most; past it the oldest is dropped. */
export const MAX_COMPILED_SELECTORS = 256;

/** css-select's view of a DOM. */
type Adapter<N, E extends N> = NonNullable<Options<N, E>['adapter']>;

/** What the selector cache needs of css-select. */
export interface SelectorCompiler {
  compile(
    selector: string | Selector[][],
    options: { xmlMode: boolean; adapter: Adapter<DomNode, DomElement>; context?: DomNode },
  ): (node: DomNode) => boolean;
}

/** The compiled queries of one install, and the mode each node is matched in. */
export interface CompiledQueries {
  /** The query of `selectors` for calls made on `node`, compiled now when it is not kept. */
  queryFor(node: DomNode, selectors: unknown): Query;
  /** Whether `node` belongs to an HTML document, whose names match without case. */
  ignoresCase(node: DomNode): boolean;
  /** Queries kept, of both modes. */
  size(): number;
}

/**
 * A cache of queries compiled by `compiler`. Selectors with `:scope` depend on the element they are
 * called on and are compiled for each call, and kept by none. An HTML selector list of several
 * alternatives is compiled alternative by alternative into an indexed query (see indexed-query.ts).
 */
export function compiledQueries(compiler: SelectorCompiler, linked: ListLinks): CompiledQueries {
  // HTML documents match tag and attribute names without case, XML documents with it. linkedom keeps
  // that on the document's MIME entry (a symbol-keyed `{ ignoreCase }`), which it uses for the same
  // decision; a document without one is taken as HTML when it is an HTMLDocument.
  const caseless = new WeakMap<object, boolean>();
  const ignoresCase = (node: DomNode): boolean => {
    const document = node.nodeType === 9 ? (node as DomDocument) : node.ownerDocument;
    if (document === null) return true;
    let answer = caseless.get(document);
    if (answer === undefined) {
      const mime = Object.getOwnPropertySymbols(document).find((symbol) => symbol.description === 'mime');
      const entry = mime === undefined ? undefined : (document as unknown as Record<symbol, unknown>)[mime];
      const flag = (entry as { ignoreCase?: unknown } | undefined)?.ignoreCase;
      answer = typeof flag === 'boolean' ? flag : document.constructor.name === 'HTMLDocument';
      caseless.set(document, answer);
    }
    return answer;
  };

  // One view of the DOM per mode, so that a compiled query never asks which mode it is in.
  const adapterFor = (caseInsensitive: boolean): Adapter<DomNode, DomElement> => ({
    isTag: (node): node is DomElement => node.nodeType === ELEMENT_NODE,
    getAttributeValue: (element, name) =>
      (name === 'class' ? element.getAttributeNode('class')?.value : element.getAttribute(name)) ?? undefined,
    getChildren: (node) => Array.from(node.childNodes),
    getName: caseInsensitive ? lowerCaseName() : (element) => element.localName,
    getParent: (node) => node.parentNode,
    getSiblings: (node) => (node.parentNode === null ? [node] : Array.from(node.parentNode.childNodes)),
    prevElementSibling: (node) => (node as DomElement).previousElementSibling ?? null,
    getText: (node) => textOf(node),
    hasAttrib: (element, name) => element.hasAttribute(name),
    removeSubsets,
  });
  const htmlAdapter = adapterFor(true);
  const xmlAdapter = adapterFor(false);

  // One map per mode, keyed by the selector string as given: the strings callers pass are mostly
  // the same objects call after call (their hash is kept with them), where a key built per call
  // (mode prefix + string) had to be hashed again every time, long selector lists included. Each
  // entry carries its place in the order of compilation, so that the oldest of both goes first.
  const compiledHtml = new Map<string, { query: Query; order: number }>();
  const compiledXml = new Map<string, { query: Query; order: number }>();
  let compilations = 0;
  const dropOldest = () => {
    const html = compiledHtml.entries().next().value;
    const xml = compiledXml.entries().next().value;
    if (html !== undefined && (xml === undefined || html[1].order < xml[1].order))
      compiledHtml.delete(html[0]);
    else if (xml !== undefined) compiledXml.delete(xml[0]);
  };

  const queryFor = (node: DomNode, selectors: unknown): Query => {
    const text = typeof selectors === 'string' ? selectors : String(selectors);
    const xmlMode = !ignoresCase(node);
    const compiled = xmlMode ? compiledXml : compiledHtml;
    const known = compiled.get(text);
    if (known !== undefined) return known.query;
    const adapter = xmlMode ? xmlAdapter : htmlAdapter;
    if (text.includes(':scope')) {
      return compiler.compile(text, { xmlMode, adapter, context: node }) as Query;
    }
    const query =
      (xmlMode
        ? undefined
        : indexedQuery(
            text,
            linked,
            (selector) => compiler.compile(selector, { xmlMode, adapter }) as Query,
          )) ?? (compiler.compile(text, { xmlMode, adapter }) as Query);
    if (compiledHtml.size + compiledXml.size >= MAX_COMPILED_SELECTORS) dropOldest();
    compiled.set(text, { query, order: compilations++ });
    return query;
  };

  return { queryFor, ignoresCase, size: () => compiledHtml.size + compiledXml.size };
}

function textOf(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return node.data ?? '';
  if (node.nodeType !== ELEMENT_NODE) return '';
  let text = '';
  for (const child of Array.from(node.childNodes)) text += textOf(child);
  return text;
}

/** Drops nodes that are repeated or inside another node of the list. */
function removeSubsets(nodes: DomNode[]): DomNode[] {
  const kept = new Set(nodes);
  return [...kept].filter((node) => {
    for (let parent = node.parentNode; parent !== null; parent = parent.parentNode) {
      if (kept.has(parent)) return false;
    }
    return true;
  });
}
