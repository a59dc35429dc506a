import { countWords, isUsableArticle } from './choose-article.js';
import { dropLinkLists } from './drop-link-lists.js';
import { elementsNamed, hasName } from './element-names.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { markdownToText } from './markdown-to-text.js';
import { mainRegion, regionWordBound, removeChrome } from './page-chrome.js';

/**
 * The share of the words of a page's main region that Defuddle's article must hold, on a page that
 * declares no article, thread or product, for Defuddle's article to stand for the page. Below it
 * Defuddle kept one of the page's sections (a landing page's first feature, a listing's first
 * group), and the region without its chrome is the better article (see {@link spreadContent}).
 */
export const SPREAD_MIN_SHARE = 1 / 2;

/**
 * The page's main region (`<main>` or `role="main"`, else the body; the one `<article>` in it that
 * holds its `<h1>`, see {@link soleArticle}) without its chrome and its lists of links, when
 * Defuddle's article (`articleText`) holds less than {@link SPREAD_MIN_SHARE} of its words.
 * Service, listing and collection pages spread their content over many sibling sections, of which
 * Defuddle keeps the highest-scoring one; a product page is not read this way (its region holds
 * reviews and other products, which Defuddle rightly leaves out), and neither are articles and
 * threads, whose own routes find their blocks.
 */
export async function spreadContent(
  document: Document,
  baseUrl: string,
  articleText: string,
): Promise<{ markdown: string; text: string } | undefined> {
  const main = mainRegion(document);
  if (main === null) return undefined;
  // A story on a page that does not declare it: its region is its `<article>`, not the site around it.
  const root = soleArticle(main) ?? main;
  const articleWords = countWords(articleText);
  // The conversion is the expensive part: most pages are ruled out by a bound on the region's words.
  if (articleWords >= SPREAD_MIN_SHARE * regionWordBound(root)) return undefined;
  const region = root.cloneNode(true) as Element;
  removeChrome(region);
  dropSidebars(region);
  const read = async (element: Element) => {
    const markdown = dropLinkLists(await htmlToMarkdown(element.innerHTML, baseUrl));
    const text = markdownToText(markdown);
    return isUsableArticle(text) && articleWords < SPREAD_MIN_SHARE * countWords(text)
      ? { markdown, text }
      : undefined;
  };
  // Readers' comments are not a landing page's or a story's text. When the region without them
  // holds no more than Defuddle's article, though, the page is the discussion (a link aggregator's
  // post, a story's comment thread) and they are its content.
  const uncommented = region.cloneNode(true) as Element;
  if (dropCommentSections(uncommented)) {
    const spread = await read(uncommented);
    if (spread !== undefined) return spread;
  }
  return read(region);
}

/**
 * The one `<article>` of `region` that holds the region's `<h1>`, or that microdata marks as the
 * page's text (`itemprop="articleBody"` or `"text"`: a repository's README under the repository's
 * own heading and file list), when no other `<article>` stands beside it (articles inside it, a
 * story's comments, do not count): a story page that does not declare itself an article, whose
 * other parts are the site's. Beside other `<article>`s, the story among them when they are its
 * teaser cards (see {@link storyAmongTeasers}).
 */
function soleArticle(region: Element): Element | undefined {
  const articles = Array.from(region.getElementsByTagName('article')).filter(
    (candidate) => candidate.parentElement?.closest('article') == null,
  );
  const heading = region.getElementsByTagName('h1')[0];
  if (articles.length !== 1) return storyAmongTeasers(articles, heading);
  const article = articles[0] as Element;
  if (/(?:^|\s)(?:articlebody|text)(?:$|\s)/i.test(article.getAttribute('itemprop') ?? '')) return article;
  return heading !== undefined && article.contains(heading) ? article : undefined;
}

/** The fewest words of a story that the teasers beside it do not make a list of articles. */
export const STORY_MIN_WORDS = 200;

/** The fewest teaser cards beside a story (a story beside one other article, a dialog, is not among teasers). */
export const STORY_MIN_TEASERS = 3;

/** How many times the words of the longest teaser beside it a story holds. */
export const STORY_TEASER_RATIO = 5;

/**
 * Of several `<article>` elements, the one that is a story among teaser cards, which sites mark up
 * as articles too ("next article", "more from the section"): it holds at least
 * {@link STORY_MIN_WORDS} words and {@link STORY_TEASER_RATIO} times the words of any other of at
 * least {@link STORY_MIN_TEASERS} others, and the region's `<h1>`, when it has one. A list of posts,
 * each an article of like length, has none.
 */
function storyAmongTeasers(articles: readonly Element[], heading: Element | undefined): Element | undefined {
  if (articles.length < STORY_MIN_TEASERS + 1) return undefined;
  const sized = articles.map((element) => ({ element, words: countWords(element.textContent ?? '') }));
  sized.sort((a, b) => b.words - a.words);
  const [story, next] = sized as [{ element: Element; words: number }, { element: Element; words: number }];
  if (story.words < STORY_MIN_WORDS || story.words < STORY_TEASER_RATIO * next.words) return undefined;
  return heading === undefined || story.element.contains(heading) ? story.element : undefined;
}

/**
 * Names (a whole id or class name) of a site's sidebar and of the boxes that follow a story: a
 * theme's `sidebar`, `widget-area` or `secondary` column, "related posts" and share bars.
 */
const SIDEBAR_NAME =
  /^(?:(?:left|right|primary|secondary|main|blog|post)?[-_]?side[-_]?bar(?:[-_](?:left|right|primary|secondary|wrapper|container|inner|content|area))?|widget[-_]?area|widgets|secondary|related(?:[-_]?(?:posts|articles|stories|content|entries|links))?|jp-relatedposts|yarpp-related|sharedaddy|share(?:[-_]?(?:buttons|bar|links|this))?|social[-_]?share)$/i;

/** Removes the sidebars and related-posts boxes inside `root` (see {@link SIDEBAR_NAME}). */
function dropSidebars(root: Element): void {
  removeNamed(root, /side|widget|secondary|related|share/i, SIDEBAR_NAME);
}

/**
 * Names (a whole id or class name) of a page's comment section: WordPress's `comments` and
 * `comments-area`, `commentlist`, `comment-list`, Disqus's `disqus_thread`, and each `comment` in
 * them (see {@link spreadContent} for when they stay).
 */
const COMMENT_SECTION_NAME =
  /^(?:comments?|commentlist(?:ing)?|comments?[-_]?(?:list|listing|section|area|thread|container|wrapper|wrap|block)|disqus_thread)$/i;

/** Removes the comment sections inside `root` (see {@link COMMENT_SECTION_NAME}); whether it found any. */
function dropCommentSections(root: Element): boolean {
  return removeNamed(root, /comment|disqus/i, COMMENT_SECTION_NAME);
}

/**
 * Removes the elements inside `root` with a whole id or class name that `name` matches (found by
 * `hint`, a part every such name holds, in one walk); whether it removed any.
 */
function removeNamed(root: Element, hint: RegExp, name: RegExp): boolean {
  let found = false;
  for (const element of elementsNamed(root, hint, true)) {
    if (hasName(element, (whole) => name.test(whole))) {
      element.remove();
      found = true;
    }
  }
  return found;
}
