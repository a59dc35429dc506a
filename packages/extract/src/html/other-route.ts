import {
  type CascadeLog,
  EMPTY_ARTICLE,
  finishStage,
  PASSED_OVER,
  type RouteOutcome,
  recordFailure,
} from './cascade-record.js';
import { isUsableArticle } from './choose-article.js';
import type { PageKind } from './page-kind.js';
import { dropAuthorDetails, dropPostSignatures, dropReputationCounts } from './post-extras.js';
import { dropCustomerReviews } from './product-reviews.js';
import { spreadContent } from './spread-content.js';
import { type DefuddleRun, runDefuddle, runReadability } from './stage-runs.js';
import { wholeSeries } from './whole-series.js';

/**
 * Whether the page may sign its posts: forum engines sign every post with its author's signature,
 * and most pages never name one, and skip the walk.
 */
function mayHoldPostSignatures(html: string): boolean {
  return /signature/i.test(html);
}

/**
 * Whether the whole series is looked for around Defuddle's article: when the article is usable, and
 * on a thread even when it is not, since a thread's posts may all have gone as a "comment section".
 */
function looksForSeries(kind: PageKind, usable: boolean): boolean {
  return usable || kind === 'thread';
}

/**
 * Whether the page may spread its content over sibling sections (see `spreadContent`): one that
 * declares no article, thread or product.
 */
function maySpreadContent(kind: PageKind): boolean {
  return kind === 'other';
}

/**
 * Removes what the page's kind marks as not its content (a product's customer reviews, posts'
 * signatures, a thread's author details). Returns whether the document changed.
 */
function dropPageExtras(kind: PageKind, html: string, document: Document): boolean {
  let changed = false;
  // A product's customer reviews are what buyers say of it, not its description.
  if (kind === 'product') {
    dropCustomerReviews(document);
    changed = true;
  }
  // Forum engines sign every post with its author's signature; pages declared articles keep
  // theirs (a story's sign-off is its text).
  else if (mayHoldPostSignatures(html)) changed = dropPostSignatures(document);
  // A thread names each post's author; the author's standing and profile are not the post.
  if (kind === 'thread') {
    dropReputationCounts(document);
    dropAuthorDetails(document);
    changed = true;
  }
  return changed;
}

/**
 * The route of a page that does not declare itself an article (a thread, a product or any other
 * page): Defuddle on the whole page, widened to the whole series or to the page's spread sections,
 * then Readability (see `extractHtml` for the cascade). `document` is the prepared page. With
 * `spread: false` the spread sections are not looked for (a page the article route hands over).
 * `whole` is Defuddle's run on `document` as given, when the caller has made it: it stands unless
 * something is removed from the page first.
 */
export async function readOtherPage(
  log: CascadeLog,
  document: Document,
  { spread: spreads = true, whole: made }: { spread?: boolean; whole?: DefuddleRun } = {},
): Promise<RouteOutcome> {
  const { kind } = log;
  const changed = dropPageExtras(kind, log.html, document);
  // Defuddle works on a clone, so `document` stays intact for Readability.
  const wholeRun = made !== undefined && !changed ? made : await runDefuddle(log, document);
  let whole = wholeRun.article;
  const wholeError = wholeRun.error;
  const usable = whole !== undefined && isUsableArticle(whole.text);
  if (looksForSeries(kind, usable)) {
    const series = await wholeSeries(log, document, whole, kind === 'thread');
    if (series !== undefined) whole = series;
    if (whole !== undefined && isUsableArticle(whole.text)) {
      const spread =
        spreads && maySpreadContent(kind)
          ? await spreadContent(document, log.baseUrl, whole.text)
          : undefined;
      if (spread !== undefined) {
        recordFailure(log, 'defuddle', PASSED_OVER.oneSection);
        recordFailure(log, 'readability', PASSED_OVER.spreadPage);
        return {
          article: {
            ...spread,
            title: whole.title ?? log.pageTitle,
            stage: 'cleaned-body',
            parserFailures: log.parserFailures,
          },
        };
      }
      return finishStage(log, 'defuddle', whole, undefined);
    }
  }
  const { found, reason: readabilityReason } = await runReadability(log, document);
  if (found !== undefined && isUsableArticle(found.article.text)) {
    recordFailure(log, 'defuddle', wholeError ?? EMPTY_ARTICLE);
    return finishStage(log, 'readability', found.article, whole?.title);
  }
  recordFailure(log, 'defuddle', wholeError ?? EMPTY_ARTICLE);
  recordFailure(log, 'readability', readabilityReason ?? EMPTY_ARTICLE);
  return { article: undefined, title: whole?.title ?? found?.article.title ?? log.pageTitle };
}
