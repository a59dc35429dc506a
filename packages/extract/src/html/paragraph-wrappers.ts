/** The most of a paragraph's text its links may hold for its wrappers to be taken off (see {@link unwrapLinkedParagraphs}). */
export const WRAPPED_PARAGRAPH_MAX_LINK_SHARE = 1 / 2;

/**
 * The share of a wrapper's text in links above which Readability removes a `<div>` of little class
 * weight; below it the wrappers do no harm and stay.
 */
const READABILITY_LINKY_SHARE = 0.2;

/** The fewest characters of text a paragraph needs for its wrappers to be taken off: a sentence, not a byline or a prompt. */
export const WRAPPED_PARAGRAPH_MIN_CHARS = 80;

/**
 * Takes the `<div>` wrappers off each `<p>` that is the only thing in them and whose links hold
 * some of its text, so that Readability judges the paragraph as the paragraph it is. Sites built of
 * components wrap every paragraph in `<div>`s of its own (`div > div > div > p`); Readability
 * removes a `<div>` of little class weight whose text is more than a fifth links, so a sentence
 * that links half its words ("Having been neutral for decades, both applied to join in May 2022,
 * shortly after…") went, while the same paragraph directly in the story stays. A paragraph whose
 * links hold more than {@link WRAPPED_PARAGRAPH_MAX_LINK_SHARE} of its text keeps its wrappers
 * (a "Read more:" line is mostly its link), and so does one of under
 * {@link WRAPPED_PARAGRAPH_MIN_CHARS} characters (a byline, a "Book online" prompt): moving a
 * paragraph changes which ancestors Readability credits with its score, so only sentences move.
 */
export function unwrapLinkedParagraphs(document: Document): void {
  for (const paragraph of Array.from(document.getElementsByTagName('p'))) {
    // The cheap test first: most paragraphs share their parent with others.
    const parent = paragraph.parentElement;
    if (parent === null || !isSoleWrapper(parent)) continue;
    const links = paragraph.getElementsByTagName('a');
    if (links.length === 0) continue;
    const text = (paragraph.textContent ?? '').trim().length;
    if (text < WRAPPED_PARAGRAPH_MIN_CHARS) continue;
    let linked = 0;
    for (const link of Array.from(links)) linked += (link.textContent ?? '').trim().length;
    if (linked / text <= READABILITY_LINKY_SHARE || linked / text > WRAPPED_PARAGRAPH_MAX_LINK_SHARE)
      continue;
    let outer: Element | undefined;
    for (
      let wrapper: Element | null = parent;
      wrapper !== null && isSoleWrapper(wrapper);
      wrapper = wrapper.parentElement
    ) {
      outer = wrapper;
    }
    if (outer !== undefined) outer.replaceWith(paragraph);
  }
}

/** Whether `element` is a `<div>` holding one element and no text of its own. */
function isSoleWrapper(element: Element): boolean {
  if (element.tagName.toLowerCase() !== 'div' || element.children.length !== 1) return false;
  for (const node of Array.from(element.childNodes)) {
    if (node.nodeType === 3 && (node.textContent ?? '').trim() !== '') return false;
  }
  return true;
}
