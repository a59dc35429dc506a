// linkedom parses and compiles a selector string again on every `querySelector`, `querySelectorAll`,
// `matches` and `closest` call. Defuddle and Readability call these with the same long selector lists
// for every element they look at, so on a page with thousands of matching elements (a `<select>` of
// every country, a long menu) selector compilation alone took seconds. This module gives linkedom's
// prototypes those four methods again, with the same results, over compiled queries kept by selector
// (compiled-queries.ts), selector lists matched by their alternatives' subjects (indexed-query.ts),
// and what is known of documents that have not changed (subtree-indexes.ts).
import { compiledQueries, type SelectorCompiler } from './compiled-queries.js';
import { type DomDocument, type DomElement, eachDescendant, listLinks } from './linked-nodes.js';
import { NoMatches, subtreeIndexes } from './subtree-indexes.js';

/** The classes of a loaded linkedom module whose prototypes carry the selector methods. */
interface LinkedomClasses {
  Element: { prototype: object };
  Document: { prototype: object };
  DocumentFragment: { prototype: object };
  NodeList: new () => DomElement[];
  DOMParser: new () => { parseFromString(markup: string, type: string): object };
}

/** What {@link installSelectorCache} did to one linkedom module. */
export interface SelectorCache {
  /** Whether the four selector methods are this module's. */
  installed: boolean;
  /** Whether they also answer from what is known of unchanged documents (see subtree-indexes.ts). */
  indexed: boolean;
  /** Compiled queries kept. */
  size(): number;
  /** Gives the prototypes linkedom's own methods back. */
  restore(): void;
}

/**
 * Replaces `matches`, `closest`, `querySelector` and `querySelectorAll` of a linkedom module's
 * elements, documents and fragments with ones that compile each selector string once (per HTML/XML
 * mode) and keep it, `MAX_COMPILED_SELECTORS` at most. Selectors with `:scope` depend on the
 * element they are called on and are compiled for each call, as before. Installing again replaces
 * the methods of the last install. Returns the cache's size and a way back to linkedom's own methods.
 * A linkedom whose nodes do not link up as this module expects (another build) keeps its own methods.
 * With `indexes: false` (for measuring them) nothing is kept of unchanged documents.
 */
export function installSelectorCache(
  linkedom: LinkedomClasses,
  compiler: SelectorCompiler,
  { indexes: useIndexes = true }: { indexes?: boolean } = {},
): SelectorCache {
  const probe = new linkedom.DOMParser().parseFromString('<p>linked</p>', 'text/html');
  const linked = listLinks(probe);
  if (linked === undefined) return { installed: false, indexed: false, size: () => 0, restore() {} };
  const compiled = compiledQueries(compiler, linked);
  const indexes = useIndexes ? subtreeIndexes(linkedom, probe, linked, compiled.ignoresCase) : undefined;
  const owners = [linkedom.Element, linkedom.Document, linkedom.DocumentFragment].map(
    (owner) => owner.prototype,
  );
  const names = ['matches', 'closest', 'querySelector', 'querySelectorAll'];
  const own = (prototype: object, name: string) => Object.getOwnPropertyDescriptor(prototype, name);
  const before = owners.map((prototype) => names.map((name) => own(prototype, name)));
  const { queryFor } = compiled;

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
    installed: true,
    indexed: indexes !== undefined,
    size: compiled.size,
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
