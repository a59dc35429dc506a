// What the selector cache knows of documents that have not changed (see selector-cache.ts): indexes
// of their subtrees by id, class and tag name, and the elements for which a selector found nothing.
// Both are kept while a count of linkedom's changes stays where it was when they were made.
import { parse as parseSelector } from 'css-what';
import { MAX_COMPILED_SELECTORS } from './compiled-queries.js';
import { classNames, subjectKey } from './indexed-query.js';
import {
  type DomElement,
  type DomNode,
  eachDescendant,
  type ListLinks,
  lowerCaseName,
} from './linked-nodes.js';

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
export interface SubtreeIndexes {
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
export function subtreeIndexes(
  linkedom: { Document: { prototype: object } },
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
export class NoMatches {
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
