/** The elements of each kind of emphasis Markdown writes with one pair of marks. */
const KINDS: readonly (readonly string[])[] = [
  ['strong', 'b'],
  ['em', 'i'],
];

/**
 * Gives each run of emphasis one pair of Markdown marks. A page that sets bold inside bold
 * (`<b><strong>Platform</strong></b>`) or writes one word in two bold elements side by side
 * (`<b>B</b><b>reakfast</b>`, a drop-cap style) came out as `****Platform****` and
 * `**B****reakfast**`: four marks in a row, which Markdown reads as no emphasis, in the middle of a
 * word. Emphasis inside emphasis of the same kind is unwrapped, and an element of a kind that
 * follows another of the same kind with nothing between them is joined to it.
 */
export function joinEmphasisRuns(root: Element): void {
  for (const names of KINDS) {
    const selector = names.join(', ');
    for (const element of Array.from(root.querySelectorAll(selector))) {
      const outer = element.parentElement?.closest(selector);
      if (outer !== null && outer !== undefined && root.contains(outer)) {
        element.replaceWith(...Array.from(element.childNodes));
        continue;
      }
      const previous = element.previousSibling;
      if (previous !== null && previous.nodeType === 1 && names.includes((previous as Element).localName)) {
        (previous as Element).append(...Array.from(element.childNodes));
        element.remove();
      }
    }
  }
}
