/**
 * The words of a link that lets a keyboard or screen-reader user jump over a part of the page:
 * "Skip to content", "Skip navigation links", "Skip this section", "SKIP ADVERTISEMENT". At most six
 * words: a longer text is a sentence that happens to start with "skip".
 */
const SKIP_WORDS = /^skip(?:\s+\S+){0,5}$/i;

/** Text that holds a word: letters or digits in any script. */
const WORDS = /[\p{L}\p{N}]/u;

/**
 * Removes the page's skip links: links to a place on the same page (`href="#…"`) whose text is a
 * short "Skip …" phrase and that do not sit inside running text. They are there for keyboard users
 * and are drawn off screen or shown on focus; read as text they open the answer on "Skip to
 * content", and a page whose main content a script draws comes out as that line alone. A link whose
 * neighbouring text holds words ("if time is short, skip to the results") is part of a sentence and
 * stays, as does a "Skip" link to another page. Returns how many were removed.
 */
export function dropSkipLinks(document: Document): number {
  let removed = 0;
  for (const link of Array.from(document.querySelectorAll('a[href^="#"]'))) {
    const text = (link.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!SKIP_WORDS.test(text) || inRunningText(link)) continue;
    link.remove();
    removed++;
  }
  return removed;
}

/** Whether the text right before or after `link`, in its parent, holds a word. */
function inRunningText(link: Element): boolean {
  for (const sibling of [link.previousSibling, link.nextSibling]) {
    if (sibling?.nodeType === 3 && WORDS.test(sibling.textContent ?? '')) return true;
  }
  return false;
}
