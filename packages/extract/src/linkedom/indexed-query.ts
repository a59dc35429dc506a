// The matching of the selector cache's HTML selector lists (see selector-cache.ts): a list of
// alternatives filed by what each alternative's subject must have, so that an element is tested
// only against the alternatives it could match; and the reading of a selector's subject, which the
// subtree indexes (subtree-indexes.ts) answer single selectors from.
import { parse as parseSelector, type Selector } from 'css-what';
import {
  ATTRIBUTE_NODE,
  type DomElement,
  ELEMENT_NODE,
  type ListLinks,
  lowerCaseName,
  type Query,
} from './linked-nodes.js';

/**
 * Alternatives from which an HTML selector list is indexed (see {@link indexedQuery}) rather than
 * tested alternative by alternative on every element: any list. Even a short one is asked of every
 * element of a subtree many times over (Defuddle asks each element whether it holds math, of three
 * alternatives, and each removal candidate whether it holds a footnote list), and the index rules out
 * most alternatives from the element's tag, id, classes and attribute names without testing them.
 */
export const INDEXED_SELECTOR_MIN_ALTERNATIVES = 2;

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
export function indexedQuery(
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
export function classNames(value: string): string[] {
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
export function subjectKey(selector: Selector[]): { kind: 'id' | 'class' | 'tag'; key: string } | undefined {
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
