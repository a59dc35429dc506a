import { createRequire } from 'node:module';
import type { Document, Element } from 'domhandler';
import { normalizeText } from './normalize-text.js';

type HtmlParserModule = typeof import('htmlparser2');
type DomUtilsModule = typeof import('domutils');

// Loading htmlparser2 and domutils costs tens of milliseconds, so they load at the first parse,
// not at import: a host that only builds requests, or never reaches the keyless engines, never
// pays for them. The parsers are synchronous, hence `require` rather than `import()`.
const requireModule = createRequire(import.meta.url);
let loaded: { htmlparser2: HtmlParserModule; domutils: DomUtilsModule } | undefined;

function modules() {
  loaded ??= {
    htmlparser2: requireModule('htmlparser2') as HtmlParserModule,
    domutils: requireModule('domutils') as DomUtilsModule,
  };
  return loaded;
}

/** Parses an HTML string into a DOM tree; entities in text and attributes come out decoded. */
export function parseHtml(body: string): Document {
  return modules().htmlparser2.parseDocument(body, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
}

/** Whether an element's `class` attribute holds `name` as a whole token. */
export function hasClass(element: Element, name: string): boolean {
  const value = element.attribs['class'];
  // The substring test is a cheap filter: most elements of a results page fail it.
  if (value === undefined || !value.includes(name)) return false;
  return value.split(/\s+/).includes(name);
}

/** Every element below `root` (depth first, document order) that passes `test`. */
export function findElements(root: Document | Element, test: (element: Element) => boolean): Element[] {
  return modules().domutils.findAll(test, root.children);
}

/** The first element below `root` (document order) that passes `test`, or `undefined`. */
export function findElement(
  root: Document | Element,
  test: (element: Element) => boolean,
): Element | undefined {
  return modules().domutils.findOne(test, root.children, true) ?? undefined;
}

/** The text of a node and its descendants (script and style text included), whitespace-normalised. */
export function elementText(node: Document | Element): string {
  return normalizeText(modules().domutils.textContent(node));
}
