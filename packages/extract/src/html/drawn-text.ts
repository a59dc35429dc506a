/** Elements whose text is never drawn for a reader. */
export const UNDRAWN = new Set(['script', 'style', 'noscript', 'template']);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** How many characters of `text` are not whitespace. */
export function visibleChars(text: string | null): number {
  return (text ?? '').replace(/\s+/g, '').length;
}

/**
 * The text a reader could be drawn inside `root`: its text nodes in order, without those of
 * scripts, styles, `<noscript>` and templates (whose text `textContent` includes: a page's data
 * scripts often hold its whole article again).
 */
export function drawnText(root: Element): string {
  const parts: string[] = [];
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeType === TEXT_NODE) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE || UNDRAWN.has((node as Element).localName)) continue;
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
  return parts.join('');
}
