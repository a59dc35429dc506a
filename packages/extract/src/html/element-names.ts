/** Whether the id or one of the class names of `element`, each taken whole, passes `test`. */
export function hasName(element: Element, test: (name: string) => boolean): boolean {
  if (element.id !== '' && test(element.id)) return true;
  return (element.getAttribute('class') ?? '').split(/\s+/).some((name) => name !== '' && test(name));
}

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
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
