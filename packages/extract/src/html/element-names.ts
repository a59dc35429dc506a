/** Whether the id or one of the class names of `element`, each taken whole, passes `test`. */
export function hasName(element: Element, test: (name: string) => boolean): boolean {
  if (element.id !== '' && test(element.id)) return true;
  return (element.getAttribute('class') ?? '').split(/\s+/).some((name) => name !== '' && test(name));
}

/**
 * The elements under `root` whose class attribute (or, with `ids`, id) holds a match of `pattern`
 * anywhere in its value, in document order: what `[class*="word" i], [id*="word" i]` selects for
 * each word of the pattern, in one walk that reads each attribute once. A selector of that many
 * substring alternatives tests every one of them on every element of the page.
 */
export function elementsNamed(root: ParentNode, pattern: RegExp, ids: boolean): Element[] {
  const found: Element[] = [];
  for (const element of Array.from(root.querySelectorAll(ids ? '[class], [id]' : '[class]'))) {
    if (isNamed(element, pattern, ids)) found.push(element);
  }
  return found;
}

/** Whether the class attribute of `element` (or, with `ids`, its id) holds a match of `pattern`. */
export function isNamed(element: Element, pattern: RegExp, ids: boolean): boolean {
  const classes = element.getAttribute('class');
  return (
    (classes !== null && pattern.test(classes)) || (ids && pattern.test(element.getAttribute('id') ?? ''))
  );
}

/** A table row's cells (`<td>` and `<th>`). */
export function cellsOf(row: Node): Node[] {
  return Array.from(row.childNodes).filter((child) => child.nodeName === 'TD' || child.nodeName === 'TH');
}

/** The heading elements. */
export const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A selector of the heading elements. */
export const HEADING_SELECTOR = [...HEADINGS].join(', ');

/** Elements that end a paragraph. */
export const PARAGRAPH_BLOCKS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tr',
  'ul',
  ...HEADINGS,
]);
