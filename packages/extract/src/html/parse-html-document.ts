import { loadLinkedom } from '../lazy-modules.js';
import {
  ATTRIBUTE_NODE,
  ELEMENT_NODE,
  type ListNode,
  listLinks,
  TEXT_NODE,
} from '../linkedom/linked-nodes.js';

/** Elements a browser keeps in `<head>` when they come before any body content. */
const HEAD_ELEMENTS = new Set(['base', 'link', 'meta', 'noscript', 'script', 'style', 'template', 'title']);

const COMMENT_NODE = 8;
const DOCUMENT_TYPE_NODE = 10;

/** The few DOM node members the reshaping reads; linkedom's nodes have them all. */
interface ParsedNode {
  nodeType: number;
  localName?: string;
  outerHTML?: string;
  textContent: string | null;
  childNodes: ArrayLike<ParsedNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/**
 * Parses HTML into a linkedom document with the shape a browser gives every page: one `<html>`
 * holding a `<head>` and a `<body>`.
 *
 * HTML5 lets a page leave out `<html>`, `<head>` and `<body>` (`<!doctype html><title>…<h1>…<p>…`
 * is a complete, valid page), and a fragment such as `<p>…</p>` or bare words is what some servers
 * send as `text/html`. linkedom does not add the implied elements: the first tag becomes the
 * document element and `document.body` is empty (or throws when there is no element at all), so
 * every extractor would find nothing. Such documents are rebuilt with the implied elements, as the
 * HTML parsing rules place them: leading metadata (title, meta, link, style, script…) in the head,
 * everything from the first other content on in the body. The attributes of `<html>` and `<body>`
 * tags (its `lang`, its classes) stay on the two elements, the first tag's where several give one.
 */
export async function parseHtmlDocument(html: string): Promise<Document> {
  const { parseHTML } = await loadLinkedom();
  const parsed = parseHTML(html).document as unknown as Document;
  if (hasDocumentShape(parsed)) {
    placeStrayElements(parsed);
    lowerCaseAttributeNames(parsed);
    return parsed;
  }
  const sections: Sections = { head: [], body: [], inBody: false, html: new Map(), bodyTag: new Map() };
  walkNodes(parsed.childNodes as unknown as ArrayLike<ParsedNode>, sections);
  const { head, body } = sections;
  const htmlTag = `<html${attributesMarkup(sections.html)}>`;
  const bodyTag = `<body${attributesMarkup(sections.bodyTag)}>`;
  const rebuilt = parseHTML(
    `<!doctype html>${htmlTag}<head>${head.join('')}</head>${bodyTag}${body.join('')}</body></html>`,
  ).document as unknown as Document;
  lowerCaseAttributeNames(rebuilt);
  return rebuilt;
}

/** An attribute name with a capital letter in it. */
const CAPITAL = /[A-Z]/;

/**
 * Writes the attribute names of the document's HTML elements in lower case, as a browser's parser
 * does: HTML names are case-insensitive, and `<A HREF="…">` or `<div CLASS="byline">` (old pages,
 * hand-written markup) mean `href` and `class`. linkedom keeps each name as written, so selectors,
 * `getAttribute` and every stage missed such an attribute: the link lost its target, the class its
 * meaning. Of two attributes of an element that differ only in case the first stays, as in a
 * browser. SVG and MathML keep their names (`viewBox`), which are case-sensitive.
 */
function lowerCaseAttributeNames(document: Document): void {
  const links = listLinks(document);
  if (links === undefined) return;
  const { next: NEXT, end: END } = links;
  const start = document as unknown as ListNode;
  const stop = start[END];
  let current = start[NEXT];
  while (current !== undefined && current !== stop) {
    if (current.nodeType === ELEMENT_NODE) {
      if (current.localName === 'svg' || current.localName === 'math') {
        current = current[END]?.[NEXT];
        continue;
      }
      lowerCaseAttributesOf(current, NEXT);
    }
    current = current[NEXT];
  }
}

/** Lowers the case of one element's attribute names, dropping a later one whose name repeats. */
function lowerCaseAttributesOf(element: ListNode, NEXT: symbol): void {
  let capitals = false;
  for (let node = element[NEXT]; node?.nodeType === ATTRIBUTE_NODE; node = node[NEXT]) {
    if (CAPITAL.test(node.name ?? '')) {
      capitals = true;
      break;
    }
  }
  if (!capitals) return;
  const seen = new Set<string>();
  const repeated: ListNode[] = [];
  for (let node = element[NEXT]; node?.nodeType === ATTRIBUTE_NODE; node = node[NEXT]) {
    const name = (node.name ?? '').toLowerCase();
    if (seen.has(name)) repeated.push(node);
    else seen.add(name);
    node.name = name;
  }
  const owner = element as unknown as Element;
  for (const node of repeated) owner.removeAttributeNode(node as unknown as Attr);
}

/** The serialized head and body of a page being rebuilt, and whether its body content has begun. */
interface Sections {
  head: string[];
  body: string[];
  inBody: boolean;
  /** The attributes of the page's `<html>` tags, and of its `<body>` tags, the first of each name kept. */
  html: Map<string, string>;
  bodyTag: Map<string, string>;
}

/** Places each node where the HTML parsing rules put it, descending into `<html>`, `<head>` and `<body>`. */
function walkNodes(nodes: ArrayLike<ParsedNode>, sections: Sections): void {
  for (const node of Array.from(nodes)) {
    if (node.nodeType === DOCUMENT_TYPE_NODE) continue;
    const name = node.nodeType === ELEMENT_NODE ? node.localName : undefined;
    if (name === 'html') {
      keepAttributes(node, sections.html);
      walkNodes(node.childNodes, sections);
    } else if (name === 'head') {
      for (const child of Array.from(node.childNodes)) place(child, 'head', sections);
    } else if (name === 'body') {
      keepAttributes(node, sections.bodyTag);
      sections.inBody = true;
      for (const child of Array.from(node.childNodes)) place(child, 'body', sections);
    } else place(node, 'auto', sections);
  }
}

/**
 * Adds a node to its section; a node outside both (`auto`) goes to the head until the first content
 * that cannot be there, and to the body from then on.
 */
function place(node: ParsedNode, section: 'head' | 'body' | 'auto', sections: Sections): void {
  const markup = serialize(node);
  if (section === 'auto' && !sections.inBody) {
    if (belongsBeforeBody(node)) {
      sections.head.push(markup);
      return;
    }
    sections.inBody = true;
  }
  (section === 'head' ? sections.head : sections.body).push(markup);
}

/** Adds an element's attributes to `kept`, where a name is not there yet. */
function keepAttributes(node: ParsedNode, kept: Map<string, string>): void {
  for (const { name, value } of Array.from(node.attributes ?? [])) {
    const key = name.toLowerCase();
    if (!kept.has(key)) kept.set(key, value);
  }
}

/** Attributes as they are written inside a start tag, each after a space. */
function attributesMarkup(attributes: ReadonlyMap<string, string>): string {
  let markup = '';
  for (const [name, value] of attributes) {
    // A name that cannot be written back into a tag is left out.
    if (!/^[^\s"'<>/=]+$/.test(name)) continue;
    markup += ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  }
  return markup;
}

/** Whether a node before any body content stays in the head: blank text, a comment or metadata. */
function belongsBeforeBody(node: ParsedNode): boolean {
  const blank = node.nodeType === TEXT_NODE && (node.textContent ?? '').trim() === '';
  const metadata = node.nodeType === ELEMENT_NODE && HEAD_ELEMENTS.has(node.localName ?? '');
  return blank || metadata || node.nodeType === COMMENT_NODE;
}

/** Whether the document element is `<html>` with a `<body>` child, read without linkedom's head/body getters (which rewrite the tree). */
function hasDocumentShape(document: Document): boolean {
  const root = document.documentElement as Element | null;
  if (root === null || root.localName !== 'html') return false;
  for (const child of Array.from(root.children)) if (child.localName === 'body') return true;
  return false;
}

/**
 * Moves what a page put beside its `<head>` and `<body>` into them, where a browser's parser puts
 * it: elements between `</head>` and `<body>` (a tag manager's `<noscript>`, a banner) and a second
 * `<body>`'s content into the body, in order, and elements after `</body>` at its end; metadata
 * before `<head>` into the head. linkedom leaves them beside the two, and its `document.body` is only
 * the element right after `<head>`: when that is not a body it inserts an empty one, so the page
 * would read as empty to every extractor and Readability's retries.
 */
function placeStrayElements(document: Document): void {
  const root = document.documentElement;
  const children = Array.from(root.children);
  if (children.length === 2 && children[0]?.localName === 'head' && children[1]?.localName === 'body') return;
  const head = children.find((child) => child.localName === 'head');
  const body = children.find((child) => child.localName === 'body');
  if (head === undefined || body === undefined) return;
  const bodyIndex = children.indexOf(body);
  const headIndex = children.indexOf(head);
  const leading = body.firstChild;
  children.forEach((child, index) => {
    if (child === head || child === body) return;
    if (index < headIndex && HEAD_ELEMENTS.has(child.localName)) head.append(child);
    else if (index < bodyIndex) body.insertBefore(child, leading);
    else if (child.localName === 'body') body.append(...Array.from(child.childNodes));
    else body.append(child);
  });
  for (const child of Array.from(root.children))
    if (child.localName === 'body' && child !== body) child.remove();
  if (head.nextElementSibling !== body) head.after(body);
}

function serialize(node: ParsedNode): string {
  if (node.nodeType === ELEMENT_NODE) return node.outerHTML ?? '';
  if (node.nodeType === TEXT_NODE) return escapeText(node.textContent ?? '');
  if (node.nodeType === COMMENT_NODE) return `<!--${(node.textContent ?? '').replace(/-->/g, '-- >')}-->`;
  return '';
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
