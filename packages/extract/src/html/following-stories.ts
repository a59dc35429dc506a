/**
 * The most stories one page holds when it appends the next ones as the reader scrolls: a news
 * site's story page loads one, two or three more, where a listing shows many.
 */
const MAX_STORIES = 3;

/** Text compared by its letters and digits alone, in lower case. */
const simplified = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Removes the stories a news page appends after its own as the reader scrolls: of two or three
 * outermost `<article>`s each headed by its own `<h1>`, the one whose headline the page's title
 * names (its `<title>` or `og:title` holds the headline, as half of it or more) is the page's story, and the stories after
 * it go. Readability scored their common wrapper above the story and read the next story as the
 * rest of it (Dagbladet's pages append the next one in `<article id="second-article">`).
 * Nothing changes unless exactly one story's headline is the page's.
 */
export function dropFollowingStories(document: Document): void {
  const stories = Array.from(document.querySelectorAll('article')).filter(
    (article) => article.querySelector('h1') !== null && article.parentElement?.closest('article') === null,
  );
  if (stories.length < 2 || stories.length > MAX_STORIES) return;
  const titles = [
    document.querySelector('title')?.textContent ?? '',
    document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '',
  ]
    .map(simplified)
    .filter((title) => title !== '');
  if (titles.length === 0) return;
  // The headline is most of a title that names it: a site's name in an article's `<h1>` ("Times"
  // in "Ferry fares rise | Times") names no story.
  const named = stories.filter((story) => {
    const headline = simplified(story.querySelector('h1')?.textContent ?? '');
    return (
      headline !== '' &&
      titles.some((title) => title.includes(headline) && 2 * headline.length >= title.length)
    );
  });
  if (named.length !== 1) return;
  const own = stories.indexOf(named[0] as (typeof stories)[number]);
  for (const story of stories.slice(own + 1)) story.remove();
}
