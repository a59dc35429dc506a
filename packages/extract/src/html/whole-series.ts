import { randomUUID } from 'node:crypto';
import { withoutLinks } from './article-rules.js';
import { countWords, isUsableArticle } from './choose-article.js';
import { markdownToText } from './markdown-to-text.js';
import { findSeriesRoot } from './post-series.js';
import { type DefuddleOptions, type PageAddress, runDefuddle, type StageArticle } from './stage-runs.js';

/**
 * A series root is content by construction, as the root a site extractor names is: its blocks are
 * not scored away one by one (Defuddle runs its own extractors' roots the same way).
 */
const SERIES_OPTIONS: DefuddleOptions = { removeLowScoring: false };

/**
 * On a thread the posts are the content: nothing in the root is removed for a name that says
 * "comments", nor for following an "N answers" heading (Defuddle's content patterns cut a page
 * there).
 */
const THREAD_OPTIONS: DefuddleOptions = { removeContentPatterns: false, removeExactSelectors: false };

/** The attribute that marks a series root for Defuddle's `contentSelector`. */
const SERIES_ROOT_ATTRIBUTE = 'data-mono-agent-series-root';

/** How much more text a series root's article must hold than the picked block's to replace it. */
const SERIES_MIN_GAIN = 1.3;

/**
 * Share of a series' words that must lie outside links when it must be prose (see
 * {@link wholeSeries}): the posts of a discussion and the parts of a story split around an embed
 * are nearly all prose (above 0.9 measured), where a page's grid of bands around a story (teasers,
 * topic links, the footer) that CSS-module class names make look alike is not (0.4 to 0.7).
 */
const SERIES_MIN_PROSE_SHARE = 0.8;

/**
 * When Defuddle picked one post of a thread (or one item of a listing), Defuddle again on the
 * element holding the whole series; its article wins when it holds clearly more, and with
 * `prose` only when nearly all of it lies outside links (see {@link SERIES_MIN_PROSE_SHARE}).
 */
export async function wholeSeries(
  page: PageAddress,
  document: Document,
  picked: StageArticle | undefined,
  thread: boolean,
  prose = false,
): Promise<StageArticle | undefined> {
  const pickedText = picked !== undefined && isUsableArticle(picked.text) ? picked.text : '';
  const root = findSeriesRoot(document.body, pickedText, thread);
  if (root === undefined) return picked;
  // A value of its own, so that a page carrying the attribute cannot choose the root.
  const mark = randomUUID();
  root.setAttribute(SERIES_ROOT_ATTRIBUTE, mark);
  try {
    const { article: series } = await runDefuddle(page, document, {
      contentSelector: `[${SERIES_ROOT_ATTRIBUTE}="${mark}"]`,
      ...SERIES_OPTIONS,
      ...(thread ? THREAD_OPTIONS : {}),
    });
    if (series === undefined || !isUsableArticle(series.text)) return picked;
    const seriesWords = countWords(series.text);
    if (seriesWords < SERIES_MIN_GAIN * countWords(pickedText)) return picked;
    if (
      prose &&
      countWords(markdownToText(withoutLinks(series.markdown))) < SERIES_MIN_PROSE_SHARE * seriesWords
    )
      return picked;
    return { ...series, title: picked?.title ?? series.title };
  } finally {
    root.removeAttribute(SERIES_ROOT_ATTRIBUTE);
  }
}
