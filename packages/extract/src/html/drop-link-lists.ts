/** The fewest consecutive link-only list items that make a list navigation rather than prose. */
export const MIN_LINK_LIST_ITEMS = 3;

/** A Markdown list item holding nothing but one link. */
const LINK_ONLY_ITEM = /^\s*(?:[-*+]|\d+\.)\s+\[[^\]]*\]\([^)\s]*(?:\s+"[^"]*")?\)\s*$/;

/**
 * Removes lists made only of links (at least {@link MIN_LINK_LIST_ITEMS} items, each nothing but a
 * link) from an article's Markdown: inside a story they are menus, "related stories" and tag
 * clouds, never the story. Used for article pages only; on a listing page such a list is the content.
 */
export function dropLinkLists(markdown: string): string {
  const lines = markdown.split('\n');
  const kept: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length < MIN_LINK_LIST_ITEMS) kept.push(...run);
    run = [];
  };
  for (const line of lines) {
    if (LINK_ONLY_ITEM.test(line)) {
      run.push(line);
      continue;
    }
    // A blank line between items of a loose list does not end the list.
    if (line.trim() === '' && run.length > 0) continue;
    flush();
    kept.push(line);
  }
  flush();
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
