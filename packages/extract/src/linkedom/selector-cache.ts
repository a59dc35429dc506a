// linkedom parses and compiles a selector string again on every `querySelector`, `querySelectorAll`,
// `matches` and `closest` call. Defuddle and Readability call these with the same long selector lists
// for every element they look at, so on a page with thousands of matching elements (a `<select>` of
// every country, a long menu) selector compilation alone took seconds. This module gives linkedom's
// prototypes those four methods again, with the same results, over compiled queries kept by selector.
import type { Options } from 'css-select';
import { parse as parseSelector, type Selector } from 'css-what';

/** Compiled selectors kept at most; past it the oldest is dropped. */
export const MAX_COMPILED_SELECTORS = 256;

/**
 * Alternatives from which an HTML selector list is indexed (see {@link indexedQuery}) rather than
 * tested alternative by alternative on every element: any list. Even a short one is asked of every
 * element of a subtree many times over (Defuddle asks each element whether it holds math, of three
 * alternatives, and each removal candidate whether it holds a footnote list), and the index rules out
 * most alternatives from the element's tag, id, classes and attribute names without testing them.
 */
export const INDEXED_SELECTOR_MIN_ALTERNATIVES = 2;

const ELEMENT_NODE = 1;
const ATTRIBUTE_NODE = 2;
const TEXT_NODE = 3;

/** The DOM members the selector engine reads; linkedom's nodes have them all. */
interface DomNode {
  nodeType: number;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  ownerDocument: DomDocument | null;
  data?: string;
}

interface DomElement extends DomNode {
  localName: string;
  parentElement: DomElement | null;
  previousElementSibling: DomElement | null;
  getAttribute(name: string): string | null;
  getAttributeNode(name: string): { value: string } | null;
  hasAttribute(name: string): boolean;
}

type DomDocument = DomNode;

/** css-select's view of a DOM. */
type Adapter<N, E extends N> = NonNullable<Options<N, E>['adapter']>;

/** A selector string compiled into a test of one element. */
type Query = (element: DomElement) => boolean;

/** What {@link installSelectorCache} needs of css-select. */
export interface SelectorCompiler {
  compile(
    selector: string | Selector[][],
    options: { xmlMode: boolean; adapter: Adapter<DomNode, DomElement>; context?: DomNode },
  ): (node: DomNode) => boolean;
}

/** The classes of a loaded linkedom module whose prototypes carry the selector methods. */
interface LinkedomClasses {
  Element: { prototype: object };
  Document: { prototype: object };
  DocumentFragment: { prototype: object };
  NodeList: new () => DomElement[];
  DOMParser: new () => { parseFromString(markup: string, type: string): object };
}

/**
 * Replaces `matches`, `closest`, `querySelector` and `querySelectorAll` of a linkedom module's
 * elements, documents and fragments with ones that compile each selector string once (per HTML/XML
 * mode) and keep it, {@link MAX_COMPILED_SELECTORS} at most. Selectors with `:scope` depend on the
 * element they are called on and are compiled for each call, as before. Installing again replaces
 * the methods of the last install. Returns the cache's size and a way back to linkedom's own methods.
 * A linkedom whose nodes do not link up as this module expects (another build) keeps its own methods.
 */
export function installSelectorCache(
  linkedom: LinkedomClasses,
  compiler: SelectorCompiler,
): { size(): number; restore(): void } {
  const probe = new linkedom.DOMParser().parseFromString('<p>linked</p>', 'text/html');
  const linked = listLinks(probe);
  if (linked === undefined) return { size: () => 0, restore() {} };
  const indexes = subtreeIndexes(linkedom, probe, linked, (node) => ignoresCase(node));
  const owners = [linkedom.Element, linkedom.Document, linkedom.DocumentFragment].map(
    (owner) => owner.prototype,
  );
  const names = ['matches', 'closest', 'querySelector', 'querySelectorAll'];
  const own = (prototype: object, name: string) => Object.getOwnPropertyDescriptor(prototype, name);
  const before = owners.map((prototype) => names.map((name) => own(prototype, name)));

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

  const { NodeList } = linkedom;
  const unmatchedBelow = new NoMatches();
  const unmatchedAbove = new NoMatches();
  const methods = {
    matches(this: DomElement, selectors: string): boolean {
      return queryFor(this, selectors)(this);
    },
    closest(this: DomElement, selectors: string): DomElement | null {
      const query = queryFor(this, selectors);
      const at = typeof selectors === 'string' ? indexes?.stamp(this) : undefined;
      const none = at === undefined ? undefined : unmatchedAbove.current(selectors, at);
      let element: DomElement | null = this;
      while (element !== null && !none?.has(element)) {
        if (query(element)) return element;
        element = element.parentElement;
      }
      // Nothing matched from here up: neither does anything from each element climbed.
      const record = at === undefined ? undefined : unmatchedAbove.recorder(selectors, at);
      if (record !== undefined) {
        for (let climbed: DomElement | null = this; climbed !== null && !record.has(climbed); ) {
          record.add(climbed);
          climbed = climbed.parentElement;
        }
      }
      return null;
    },
    querySelector(this: DomDocument | DomElement, selectors: string): DomElement | null {
      const indexed = indexes?.lookUp(this, selectors);
      if (indexed?.exact) return indexed.candidates[0] ?? null;
      const query = queryFor(this, selectors);
      if (indexed !== undefined) return indexed.candidates.find((element) => query(element)) ?? null;
      const at = typeof selectors === 'string' ? indexes?.stamp(this) : undefined;
      const none = at === undefined ? undefined : unmatchedBelow.current(selectors, at);
      // Below an element that holds no match, nothing does.
      const known =
        none !== undefined && (none.has(this) || (this.parentNode !== null && none.has(this.parentNode)));
      let found: DomElement | null = null;
      if (!known) {
        eachDescendant(linked, this, (element) => {
          if (!query(element)) return false;
          found = element;
          return true;
        });
      }
      if (found === null && at !== undefined) unmatchedBelow.recorder(selectors, at)?.add(this);
      return found;
    },
    querySelectorAll(this: DomDocument | DomElement, selectors: string): DomElement[] {
      const found = new NodeList();
      const indexed = indexes?.lookUp(this, selectors);
      if (indexed?.exact) {
        for (const element of indexed.candidates) found.push(element);
        return found;
      }
      const query = queryFor(this, selectors);
      if (indexed !== undefined) {
        for (const element of indexed.candidates) if (query(element)) found.push(element);
        return found;
      }
      let seen = 0;
      eachDescendant(linked, this, (element) => {
        seen++;
        if (query(element)) found.push(element);
        return false;
      });
      indexes?.walked(this, seen);
      return found;
    },
  };
  Object.defineProperties(linkedom.Element.prototype, {
    matches: { value: methods.matches, writable: true, configurable: true },
    closest: { value: methods.closest, writable: true, configurable: true },
  });
  for (const owner of [linkedom.Element, linkedom.Document, linkedom.DocumentFragment]) {
    Object.defineProperties(owner.prototype, {
      querySelector: { value: methods.querySelector, writable: true, configurable: true },
      querySelectorAll: { value: methods.querySelectorAll, writable: true, configurable: true },
    });
  }
  return {
    size: () => compiledHtml.size + compiledXml.size,
    restore() {
      for (const [index, prototype] of owners.entries()) {
        for (const [at, name] of names.entries()) {
          const descriptor = before[index]?.[at];
          if (descriptor === undefined) Reflect.deleteProperty(prototype, name);
          else Object.defineProperty(prototype, name, descriptor);
        }
      }
    },
  };
}

/**
 * An HTML selector list (Defuddle removes clutter with one of several hundred alternatives) made
 * into one test per alternative, filed under what the alternative's subject (its last compound) must
 * have: an id, a class or a tag name, else an attribute (`[role="banner" i]`, `[href*="/author/"]`,
 * `[data-date]`). An element is then tested only against the alternatives filed under its own id,
 * classes, tag and attribute names, and those that name none of these, as browsers match style rules.
 * The answer is the same as the whole list's: an element matches a list when it matches one of its
 * alternatives, and it can match none filed under an id, class, tag or attribute it does not have.
 * Ids and classes are filed as they are written, as css-select compares them (case and all) outside
 * quirks mode; an alternative that compares them without case is filed under the attribute. An
 * attribute is filed under its lower-case name, the name css-select asks an element of an HTML document
 * for once it has compiled the alternative (a name it left with capitals is not filed), and an
 * element's attribute names are read from its linked list (see {@link ListLinks}).
 * `undefined` for a list of fewer than {@link INDEXED_SELECTOR_MIN_ALTERNATIVES} alternatives, or one
 * that does not parse (the caller compiles it whole, which reports the error as before).
 */
function indexedQuery(
  text: string,
  { next: NEXT }: ListLinks,
  compile: (selector: Selector[][]) => Query,
): Query | undefined {
  if (!text.includes(',')) return undefined;
  let alternatives: Selector[][];
  try {
    alternatives = parseSelector(text);
  } catch {
    return undefined;
  }
  if (alternatives.length < INDEXED_SELECTOR_MIN_ALTERNATIVES) return undefined;
  const byId = new Map<string, Query[]>();
  const byClass = new Map<string, Query[]>();
  const byTag = new Map<string, Query[]>();
  const byAttribute = new Map<string, Query[]>();
  const unfiled: Query[] = [];
  const file = (index: Map<string, Query[]>, key: string, query: Query) => {
    const list = index.get(key);
    if (list === undefined) index.set(key, [query]);
    else list.push(query);
  };
  for (const alternative of alternatives) {
    const query = compile([alternative]);
    const subject = subjectKey(alternative);
    const attribute = subject === undefined ? requiredAttribute(alternative) : undefined;
    if (subject !== undefined)
      file(subject.kind === 'id' ? byId : subject.kind === 'class' ? byClass : byTag, subject.key, query);
    else if (attribute !== undefined) file(byAttribute, attribute, query);
    else unfiled.push(query);
  }
  const anyOf = (queries: Query[] | undefined, element: DomElement) => {
    if (queries === undefined) return false;
    for (const query of queries) if (query(element)) return true;
    return false;
  };
  const tagName = lowerCaseName();
  const byAttributes = byId.size > 0 || byClass.size > 0 || byAttribute.size > 0;
  return (element) => {
    if (element.nodeType !== ELEMENT_NODE) return false;
    if (anyOf(unfiled, element) || anyOf(byTag.get(tagName(element)), element)) return true;
    if (!byAttributes) return false;
    // One walk over the element's attributes, which linkedom links right after it: its id, its
    // classes and the names of all of them are looked up as each comes.
    let node = (element as unknown as Record<symbol, AttributeLink | undefined>)[NEXT];
    while (node !== undefined && node !== null && node.nodeType === ATTRIBUTE_NODE) {
      const { name } = node;
      if (name === 'id') {
        if (anyOf(byId.get(node.value), element)) return true;
      } else if (name === 'class' && byClass.size > 0 && node.value !== '') {
        for (const className of classNames(node.value))
          if (anyOf(byClass.get(className), element)) return true;
      }
      if (anyOf(byAttribute.get(name), element)) return true;
      node = (node as unknown as Record<symbol, AttributeLink | undefined>)[NEXT];
    }
    return false;
  };
}

/** An attribute as linkedom links it after its element. */
interface AttributeLink {
  nodeType: number;
  name: string;
  value: string;
}

/** Attribute tests that an element without the attribute never passes (`!=` is css-select's and passes). */
const PRESENCE_ACTIONS = new Set(['exists', 'equals', 'element', 'start', 'end', 'any', 'hyphen']);

/**
 * An attribute the subject of one compiled selector (its last compound) cannot match without, when its
 * name is in lower case; `undefined` when the compound requires none that way (see {@link indexedQuery}).
 */
function requiredAttribute(selector: Selector[]): string | undefined {
  for (let index = selector.length - 1; index >= 0; index--) {
    const token = selector[index];
    if (token === undefined || COMBINATORS.has(token.type)) break;
    if (
      token.type === 'attribute' &&
      token.namespace === null &&
      PRESENCE_ACTIONS.has(token.action) &&
      token.name === token.name.toLowerCase()
    )
      return token.name;
  }
  return undefined;
}

/** Class attribute values whose split is kept (see {@link classNames}); past it the store starts over. */
const CLASS_VALUES_KEPT = 1024;

const splitClasses = new Map<string, string[]>();

/**
 * The names in a class attribute, split on whitespace as css-select splits it. Pages repeat a few
 * class values over thousands of elements, and every indexed list asks each element for its names,
 * so the split of a value is kept rather than made again on each call.
 */
function classNames(value: string): string[] {
  let names = splitClasses.get(value);
  if (names === undefined) {
    names = value.split(/\s+/).filter((name) => name !== '');
    if (splitClasses.size >= CLASS_VALUES_KEPT) splitClasses.clear();
    splitClasses.set(value, names);
  }
  return names;
}

/** Combinators, which end a selector's last compound when read from its end. */
const COMBINATORS = new Set(['adjacent', 'child', 'descendant', 'parent', 'sibling', 'column-combinator']);

/**
 * What the subject of one selector must have, read from its last compound: an id (`#x`), else a class
 * (`.x`), else a tag name (lower case). `undefined` when the compound names none of them in a way
 * that can be looked up as written.
 */
function subjectKey(selector: Selector[]): { kind: 'id' | 'class' | 'tag'; key: string } | undefined {
  let className: string | undefined;
  let tag: string | undefined;
  for (let index = selector.length - 1; index >= 0; index--) {
    const token = selector[index];
    if (token === undefined || COMBINATORS.has(token.type)) break;
    if (token.type === 'attribute' && token.ignoreCase !== true && !token.name.includes('|')) {
      const name = token.name.toLowerCase();
      if (name === 'id' && token.action === 'equals') return { kind: 'id', key: token.value };
      if (name === 'class' && token.action === 'element' && !/\s/.test(token.value)) className = token.value;
    } else if (token.type === 'tag' && token.namespace === null) {
      tag = token.name.toLowerCase();
    }
  }
  if (className !== undefined) return { kind: 'class', key: className };
  return tag === undefined ? undefined : { kind: 'tag', key: tag };
}

/** Elements a subtree must hold before it is indexed (see {@link subtreeIndexes}). */
export const INDEXED_SUBTREE_MIN_ELEMENTS = 64;

/** Selector strings whose subject is kept; past it the kept subjects start over. */
const SUBJECTS_KEPT = 512;

/** A subtree's elements by id, class and lower-case tag name, each list in document order. */
interface SubtreeIndex {
  id: Map<string, DomElement[]>;
  class: Map<string, DomElement[]>;
  tag: Map<string, DomElement[]>;
}

/** The subtree indexes kept by root, and when they are valid. */
interface SubtreeIndexes {
  /**
   * The answer to a selector that is one id, one class or one tag name alone, for a subtree of an
   * HTML document indexed at the current change count (made now if the subtree was walked whole at
   * this count); undefined for any other selector or subtree.
   */
  lookUp(
    root: DomNode,
    selectors: unknown,
  ): { candidates: readonly DomElement[]; exact: boolean } | undefined;
  /** Notes a whole walk below `root` over `seen` elements. */
  walked(root: DomNode, seen: number): void;
  /**
   * The current change count when `node` belongs to an HTML document whose changes are counted;
   * undefined otherwise.
   */
  stamp(node: DomNode): number | undefined;
}

/** The change count kept for each linkedom Document class, and where its documents' state moved. */
const changeCounters = new WeakMap<object, { changes: number; observed: symbol; state: symbol }>();

/**
 * Indexes of subtrees by id, class and tag name, kept while the process's linkedom documents have
 * not changed. Defuddle asks a page for a score of such selectors in a row without changing it (its
 * content entry points `#post`, `.post-content`, `article`, `main`…, its site extractors' checks),
 * and each one tested every element of the page, reading its attributes one by one: an index
 * answers them from one walk.
 *
 * linkedom has no change counter, but every insertion, removal, text and attribute change it makes
 * reads the changed node's document's mutation-observer state first (to tell observers). That state
 * becomes an accessor on the Document class that counts those reads, so any change to any document
 * leaves every index stale; reads that are not changes only cost a walk. A subtree is indexed when
 * it is walked whole a second time at the same count and holds at least
 * {@link INDEXED_SUBTREE_MIN_ELEMENTS} elements, and only below documents made after the accessor
 * was installed (an older document keeps its state as a property of its own, which no count sees).
 * Without that state (another linkedom build), nothing is indexed. The accessor stays when the
 * methods are restored: it hands every document its own state as before.
 */
function subtreeIndexes(
  linkedom: LinkedomClasses,
  probe: object,
  linked: ListLinks,
  isHtml: (node: DomNode) => boolean,
): SubtreeIndexes | undefined {
  const prototype = linkedom.Document.prototype;
  let counter = changeCounters.get(prototype);
  if (counter === undefined) {
    const observed = Object.getOwnPropertySymbols(probe).find(
      (symbol) => symbol.description === 'MutationObserver',
    );
    if (observed === undefined || !Object.prototype.isPrototypeOf.call(prototype, probe)) return undefined;
    const installed = { changes: 0, observed, state: Symbol('mutation-observer state') };
    Object.defineProperty(prototype, observed, {
      configurable: true,
      get(this: Record<symbol, unknown>) {
        installed.changes++;
        return this[installed.state];
      },
      set(this: Record<symbol, unknown>, value: unknown) {
        this[installed.state] = value;
      },
    });
    changeCounters.set(prototype, installed);
    counter = installed;
  }
  const count = counter;
  const counted = (root: DomNode): boolean => {
    const document = root.nodeType === 9 ? root : root.ownerDocument;
    return document !== null && !Object.hasOwn(document, count.observed);
  };
  const subjects = new Map<string, { kind: 'id' | 'class' | 'tag'; key: string; exact: boolean } | null>();
  const subjectOf = (text: string) => {
    let known = subjects.get(text);
    if (known === undefined) {
      known = null;
      try {
        const alternatives = text.includes(':scope') ? [] : parseSelector(text);
        const keys = alternatives.map(subjectKey);
        const first = keys[0];
        if (first !== undefined && keys.every((key) => key?.kind === first.kind && key.key === first.key)) {
          known = { ...first, exact: alternatives.length === 1 && alternatives[0]?.length === 1 };
        }
      } catch {
        // Not a selector: the selector engine throws for it.
      }
      if (subjects.size >= SUBJECTS_KEPT) subjects.clear();
      subjects.set(text, known);
    }
    return known;
  };
  const kept = new WeakMap<object, { at: number; index: SubtreeIndex | undefined }>();
  const build = (root: DomNode): SubtreeIndex => {
    const index: SubtreeIndex = { id: new Map(), class: new Map(), tag: new Map() };
    const file = (map: Map<string, DomElement[]>, key: string, element: DomElement) => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [element]);
      else if (list.at(-1) !== element) list.push(element);
    };
    const tagName = lowerCaseName();
    eachDescendant(linked, root, (element) => {
      file(index.tag, tagName(element), element);
      const id = element.getAttribute('id');
      if (id !== null) file(index.id, id, element);
      const classes = element.getAttributeNode('class')?.value;
      if (classes) for (const name of classNames(classes)) file(index.class, name, element);
      return false;
    });
    return index;
  };
  return {
    lookUp(root, selectors) {
      if (typeof selectors !== 'string') return undefined;
      const entry = kept.get(root);
      if (entry === undefined || entry.at !== count.changes) return undefined;
      const subject = subjectOf(selectors);
      if (subject === null || !isHtml(root) || !counted(root)) return undefined;
      entry.index ??= build(root);
      return { candidates: entry.index[subject.kind].get(subject.key) ?? [], exact: subject.exact };
    },
    walked(root, seen) {
      if (seen < INDEXED_SUBTREE_MIN_ELEMENTS) return;
      const entry = kept.get(root);
      if (entry === undefined || entry.at !== count.changes)
        kept.set(root, { at: count.changes, index: undefined });
    },
    stamp(node) {
      return isHtml(node) && counted(node) ? count.changes : undefined;
    },
  };
}

/**
 * Elements known, at one change count, to answer a selector with nothing (see {@link NoMatches}).
 * Recording starts at the second call with the selector at the same count, so that a loop that
 * changes the page between its calls pays for no set it cannot use.
 */
interface NoMatchRecord {
  at: number;
  recording: boolean;
  elements: WeakSet<object>;
}

/**
 * Per selector string, the elements of counted HTML documents for which `querySelector` (no match
 * below them) or `closest` (no match at or above them) found nothing, while no document has changed.
 * Defuddle asks every element of a page in turn whether it holds math or a footnote list, and
 * whether it sits inside code or an extractor's output, without changing the page between: an
 * element whose parent holds no match holds none either, and one whose parent has no matching
 * ancestor has none but itself. The answers are those of the full walks, since neither the tree nor
 * any attribute can have changed while the count stays (see {@link subtreeIndexes}); selectors with
 * `:scope` are never recorded. At most {@link MAX_COMPILED_SELECTORS} selectors are kept.
 */
class NoMatches {
  readonly #records = new Map<string, NoMatchRecord>();

  /** The record of `selectors` for `at`, when it is being recorded now; undefined otherwise. */
  current(selectors: string, at: number): WeakSet<object> | undefined {
    const record = this.#records.get(selectors);
    return record !== undefined && record.at === at && record.recording ? record.elements : undefined;
  }

  /** The set to record into for `selectors` at `at`; undefined on the first call at a new count. */
  recorder(selectors: string, at: number): WeakSet<object> | undefined {
    if (selectors.includes(':scope')) return undefined;
    const record = this.#records.get(selectors);
    if (record === undefined) {
      if (this.#records.size >= MAX_COMPILED_SELECTORS) this.#records.clear();
      this.#records.set(selectors, { at, recording: false, elements: new WeakSet() });
      return undefined;
    }
    if (record.at !== at) {
      record.at = at;
      record.recording = false;
      return undefined;
    }
    if (!record.recording) {
      record.recording = true;
      record.elements = new WeakSet();
    }
    return record.elements;
  }
}

/** The two symbol keys of linkedom's node list (see {@link listLinks}). */
interface ListLinks {
  next: symbol;
  end: symbol;
}

/**
 * linkedom keeps a tree as one linked list of nodes in document order, each element and document
 * followed later by an end marker; its own selector methods walk that list between a node and its
 * end marker. The two links are symbol-keyed properties it does not export, found here by their
 * descriptions. `undefined` when a node has no such links (another DOM, another build).
 */
function listLinks(node: object): ListLinks | undefined {
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
function eachDescendant(
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
function lowerCaseName(): (element: DomElement) => string {
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
