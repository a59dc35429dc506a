/**
 * Words that two elements side by side run together. A shop writes a product's brand and name as
 * two spans its style sets one above the other (`<span>Merrell</span><span>Moab 3 Mid</span>`), a
 * filter its label and count as two boxes of a flex row (`<label>Accessories</label><span>1385</span>`),
 * a card its price and a note (`<span>$95</span><span>MSRP $120</span>`). A reader sees two lines or
 * two boxes; the text of the page, which is all an extractor reads, has "MerrellMoab",
 * "Accessories1385", "95MSRP". Without the style sheet the layout is unknown, so the case of the
 * letters at the seam decides: a space goes between two inline elements with nothing between them
 * when the first ends in a letter or a digit, the second starts with a capital or a digit, and each
 * holds two characters or more at the seam (a rating's "4.6" before "212 reviews"). A seam of two small letters stays ("f|or" under a drop cap, a word's
 * ending in a span of its own), as does a capital before a small letter ("I|f") and a digit before
 * one ("3|rd", "1535|kcal"), and a letter or a digit alone (a counter that draws each digit, a title
 * that animates each letter). Code is left as it is: a highlighter's spans are the code's own text.
 */

/** Inline elements, between two of which the page's text may run words together. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'cite',
  'data',
  'em',
  'font',
  'i',
  'label',
  'mark',
  'small',
  'span',
  'strong',
  'time',
  'u',
]);

/** Elements whose text is kept as the page wrote it. */
const VERBATIM = new Set(['pre', 'code', 'kbd', 'samp', 'textarea', 'script', 'style', 'template']);

/** Text whose last character is a letter or a digit, after another that is not a space. */
const ENDS_WORD = /\S[\p{L}\p{N}]$/u;

/** Text whose first character is a capital or a digit, before another that is not a space. */
const STARTS_WORD = /^[\p{Lu}\p{Lt}\p{N}]\S/u;

/**
 * Puts a space between each two elements under `root` whose words run together (see above). Returns
 * how many spaces were put.
 */
export function spaceJoinedElements(root: Element): number {
  let spaced = 0;
  const stack: Element[] = [root];
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    let previous: Element | undefined;
    for (let node = element.firstChild; node !== null; node = node.nextSibling) {
      if (node.nodeType === 8) continue;
      if (node.nodeType !== 1) {
        previous = undefined;
        continue;
      }
      const child = node as Element;
      const name = child.localName;
      if (VERBATIM.has(name)) {
        previous = undefined;
        continue;
      }
      if (previous !== undefined && INLINE.has(name) && joined(previous, child)) {
        child.before(child.ownerDocument.createTextNode(' '));
        spaced++;
      }
      previous = INLINE.has(name) ? child : undefined;
      if (child.firstChild !== null) stack.push(child);
    }
  }
  return spaced;
}

/** Whether the text of `first` and then `second` runs two words together at the seam. */
function joined(first: Element, second: Element): boolean {
  const end = edgeText(first, false);
  if (end === undefined || !ENDS_WORD.test(end)) return false;
  const start = edgeText(second, true);
  return start !== undefined && STARTS_WORD.test(start);
}

/**
 * The text at the start (or the end) of `element`: the first (or last) non-empty text node under it,
 * not past an element whose text is kept verbatim. Comments and empty text are passed over.
 */
function edgeText(element: Element, start: boolean): string | undefined {
  let node: Node | null = start ? element.firstChild : element.lastChild;
  const stack: Node[] = [];
  for (;;) {
    while (node === null) {
      const parent = stack.pop();
      if (parent === undefined) return undefined;
      node = start ? parent.nextSibling : parent.previousSibling;
    }
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      if (text !== '') return text;
    } else if (node.nodeType === 1 && !VERBATIM.has((node as Element).localName)) {
      stack.push(node);
      node = start ? node.firstChild : node.lastChild;
      continue;
    }
    node = start ? node.nextSibling : node.previousSibling;
  }
}
