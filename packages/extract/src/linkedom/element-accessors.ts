// linkedom answers an element's `className` (and `getAttribute('class')`, which reads it) by joining
// the names of the element's `classList`, a Set, into a new string on every read; and its `tagName`
// and `nodeName` by upper-casing the element's name on every read. Defuddle and Readability read both
// for nearly every element of a page in each of their passes, and the strings made for it are a good
// share of the garbage extraction leaves. This module gives linkedom's elements those getters again,
// with the same answers, from strings made once per distinct value.

/** Distinct class attribute values (and tag names) whose answer is kept; past it the store starts over. */
export const ACCESSOR_VALUES_KEPT = 1024;

/** The parts of a loaded linkedom module this module reads. */
interface LinkedomElements {
  Element: { prototype: object };
  DOMParser: new () => { parseFromString(markup: string, type: string): object };
}

interface ProbeDocument {
  body: { children: ArrayLike<ProbeElement> };
}

interface ProbeElement {
  ownerDocument: object | null;
  localName: string;
  getAttributeNode(name: string): { value: string } | null;
}

/** What {@link speedUpElementAccessors} did to one linkedom `Element` class. */
export interface ElementAccessors {
  /** Whether the getters are this module's. */
  installed: boolean;
  /** Gives the class linkedom's own getters back. */
  restore(): void;
}

/**
 * Replaces the `className`, `tagName` and `nodeName` getters of a linkedom module's elements (their
 * setters stay linkedom's). `className` is read from the class attribute as linkedom builds the
 * `classList` from it: the names split on whitespace, empty and repeated ones dropped, joined by one
 * space. linkedom keeps the attribute and the list in step (the parser, `setAttribute`, the
 * `className` setter and every `classList` method write the list's names back to the attribute), so
 * the answer is the list's; only an attribute value written directly (`attr.value = …`), which
 * linkedom does not carry to the list, is read as it now is, as a browser reads it. `tagName` and
 * `nodeName` are the element's name upper-cased in an HTML document and as it is in an XML one, as
 * linkedom's. A linkedom whose elements answer a probe otherwise (another build) keeps its getters.
 */
export function speedUpElementAccessors(linkedom: LinkedomElements): ElementAccessors {
  const prototype = linkedom.Element.prototype;
  const own = (name: string) => Object.getOwnPropertyDescriptor(prototype, name);
  const before = { className: own('className'), tagName: own('tagName'), nodeName: own('nodeName') };
  const nothing = { installed: false, restore() {} };
  const linkedomClassName = before.className?.get;
  const linkedomTagName = before.tagName?.get;
  if (linkedomClassName === undefined || linkedomTagName === undefined || before.nodeName?.get === undefined)
    return nothing;

  const probe = new linkedom.DOMParser().parseFromString(
    '<!doctype html><html><body><p class="a  b a">x</p><my-part class=" c\td  c ">y</my-part></body></html>',
    'text/html',
  ) as unknown as ProbeDocument;
  const probes = Array.from(probe.body.children);
  const mime = Object.getOwnPropertySymbols(probe).find((symbol) => symbol.description === 'mime');
  if (probes.length !== 2 || mime === undefined) return nothing;

  const normalized = new Map<string, string>();
  const normalize = (value: string): string => {
    let answer = normalized.get(value);
    if (answer === undefined) {
      answer = [...new Set(value.split(/\s+/).filter((name) => name !== ''))].join(' ');
      if (normalized.size >= ACCESSOR_VALUES_KEPT) normalized.clear();
      normalized.set(value, answer);
    }
    return answer;
  };
  const upper = new Map<string, string>();
  const upperCase = (name: string): string => {
    let answer = upper.get(name);
    if (answer === undefined) {
      answer = name.toUpperCase();
      if (upper.size >= ACCESSOR_VALUES_KEPT) upper.clear();
      upper.set(name, answer);
    }
    return answer;
  };
  function className(this: ProbeElement): string {
    const attribute = this.getAttributeNode('class');
    return attribute === null ? '' : normalize(attribute.value);
  }
  function tagName(this: ProbeElement): string {
    const document = this.ownerDocument as Record<symbol, { ignoreCase?: boolean } | undefined> | null;
    const entry = document?.[mime as symbol];
    if (entry === undefined) return linkedomTagName?.call(this) as string;
    return entry.ignoreCase ? upperCase(this.localName) : this.localName;
  }

  // The probes' answers must be linkedom's: a build that keeps these otherwise keeps its own getters.
  type Getter = (this: ProbeElement) => unknown;
  const answers = (getClassName: Getter, getTagName: Getter) =>
    probes.flatMap((element) => [getClassName.call(element), getTagName.call(element)]);
  try {
    const expected = answers(linkedomClassName, linkedomTagName);
    if (answers(className, tagName).some((answer, index) => answer !== expected[index])) return nothing;
  } catch {
    return nothing;
  }

  Object.defineProperty(prototype, 'className', { ...before.className, get: className });
  Object.defineProperty(prototype, 'tagName', { ...before.tagName, get: tagName });
  Object.defineProperty(prototype, 'nodeName', { ...before.nodeName, get: tagName });
  return {
    installed: true,
    restore() {
      for (const [name, descriptor] of Object.entries(before)) {
        Object.defineProperty(prototype, name, descriptor as PropertyDescriptor);
      }
    },
  };
}
