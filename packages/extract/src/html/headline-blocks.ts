/**
 * How many elements after a headline Defuddle (0.19.4, `removeMetadataBlock`) reads as the story's
 * byline block: the first of them whose text is short (under 300 characters) and holds a date is
 * removed when the page states an author or a date.
 */
export const BYLINE_BLOCK_SIBLINGS = 3;

/**
 * Blocks that are the story's own content, never a byline, however short and dated: code. (A list
 * or a table under a headline may well be the byline: themes write the author and date as a list.)
 */
const CONTENT_BLOCKS = 'pre';

const SPACER_ATTRIBUTE = 'data-mono-agent-spacer';

/**
 * Keeps a code block right under a headline out of Defuddle's byline-block rule: a short YAML front
 * matter with a `start-date` or a command with a date under the `<h1>` is the story's content, and
 * that rule took it for the date line. Before each such block among the first
 * {@link BYLINE_BLOCK_SIBLINGS} elements after an `<h1>`, that many empty elements are set, so that
 * the rule reads the headline's real byline (the elements before the block) and stops before the
 * block. Returns what removes them again.
 */
export function shieldHeadlineBlocks(document: ParentNode): () => void {
  const spacers: Element[] = [];
  for (const headline of Array.from(document.querySelectorAll('h1'))) {
    let sibling = headline.nextElementSibling;
    for (let index = 0; index < BYLINE_BLOCK_SIBLINGS && sibling !== null; index++) {
      if (sibling.matches(CONTENT_BLOCKS) || sibling.querySelector(CONTENT_BLOCKS) !== null) {
        const owner = sibling.ownerDocument;
        for (let count = 0; count < BYLINE_BLOCK_SIBLINGS; count++) {
          const spacer = owner.createElement('span');
          spacer.setAttribute(SPACER_ATTRIBUTE, '');
          sibling.before(spacer);
          spacers.push(spacer);
        }
        break;
      }
      sibling = sibling.nextElementSibling;
    }
  }
  return () => {
    for (const spacer of spacers) spacer.remove();
  };
}
