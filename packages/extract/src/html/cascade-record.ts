import type { ExtractionStage, ParserFailure } from '../types.js';
import {
  FORM_BLOCK_MIN_LABEL_SHARE,
  FRAGMENT_MAX_SHARE,
  MENU_BLOCK_MAX_PROSE_SHARE,
  SHORT_BLOCK_MAX_GROWTH,
  SHORT_BLOCK_MAX_WORDS,
  SHORT_BLOCK_MIN_GROWTH,
} from './article-rules.js';
import { isUsableArticle } from './choose-article.js';
import type { PageKind } from './page-kind.js';
import { SPREAD_MIN_SHARE } from './spread-content.js';
import type { PageAddress, StageArticle } from './stage-runs.js';

/** An HTML page reduced to its article. */
export interface HtmlArticle {
  /** The article as Markdown. */
  markdown: string;
  /** The article as plain text. */
  text: string;
  /** The page's title, when known. */
  title: string | undefined;
  /** The stage whose article was chosen (`page-description` when the body held no text at all). */
  stage: ExtractionStage;
  /** Stages that failed or found nothing usable. */
  parserFailures: ParserFailure[];
}

/**
 * The cascade's log of one page, handed from stage to stage: what the first parse found out about
 * the page, and the stages passed over so far, in order. A stage reads the page from it and records
 * in it why it passed a stage over; nothing else is shared between the stages.
 */
export interface CascadeLog extends PageAddress {
  /** The page's markup, which the stages that need a document of their own parse again. */
  readonly html: string;
  /** The page's `<title>`, trimmed; undefined when empty. */
  readonly pageTitle: string | undefined;
  /** What the page declares itself (see `pageKind`), which picks its route. */
  readonly kind: PageKind;
  /**
   * Whether the page claims to be an article only loosely (see `claimsArticleLoosely`): the article
   * route then reads it as a page of another kind when Readability's block is short and unconfirmed.
   */
  readonly looseArticle: boolean;
  /** Stages that failed or found nothing usable, in the order the cascade passed them over. */
  readonly parserFailures: ParserFailure[];
}

/**
 * What a route ends with: the article of the stage it kept, or, when no stage's article was usable,
 * the title the last resorts are to carry.
 */
export type RouteOutcome = { article: HtmlArticle } | { article: undefined; title: string | undefined };

/** Records that `stage` was passed over, and why. */
export function recordFailure(log: CascadeLog, stage: ExtractionStage, reason: string): void {
  log.parserFailures.push({ stage, reason });
}

/** The stage's article as the cascade's answer; a title it lacks comes from `fallbackTitle`, then the page. */
export function finishStage(
  log: CascadeLog,
  stage: 'defuddle' | 'readability',
  article: StageArticle,
  fallbackTitle: string | undefined,
): RouteOutcome {
  return {
    article: {
      markdown: article.markdown,
      text: article.text,
      title: article.title ?? fallbackTitle ?? log.pageTitle,
      stage,
      parserFailures: log.parserFailures,
    },
  };
}

/** Records why Defuddle's whole-page article was passed over: its error, its emptiness, or else `rule`. */
export function passOverDefuddle(
  log: CascadeLog,
  whole: StageArticle | undefined,
  error: string | undefined,
  rule: string,
): void {
  recordFailure(
    log,
    'defuddle',
    error ?? (whole === undefined || !isUsableArticle(whole.text) ? EMPTY_ARTICLE : rule),
  );
}

/** Why a stage's article was not usable at all: no words, or a "Loading…" or "enable JavaScript" shell. */
export const EMPTY_ARTICLE = 'empty or loading shell';

/**
 * Why a stage with a usable article was passed over: the rules of the cascade, as its record
 * states them (see `extractHtml`).
 */
export const PASSED_OVER = {
  /** Article page: Readability's block is a whole story, which Defuddle's whole-page article does not beat. */
  wholeStory: (words: number) =>
    `article page: Readability's block is the whole story (${words} words, at least ${SHORT_BLOCK_MAX_WORDS} and ${percent(FRAGMENT_MAX_SHARE)} of the page's prose)`,
  /** Article page: the block is part of the page's prose, and Defuddle's article does not hold it spread through it. */
  notSpread: (words: number) =>
    `article page: Readability's block (${words} words) is under ${percent(FRAGMENT_MAX_SHARE)} of the page's prose, and the article does not hold it as a fragment spread through it nor is it a post of a series`,
  /** Article page: the block is short, and Defuddle's article does not extend it. */
  notExtended: (words: number) =>
    `article page: Readability's block is short (${words} words, under ${SHORT_BLOCK_MAX_WORDS}), and the article does not hold it within ${SHORT_BLOCK_MIN_GROWTH} to ${SHORT_BLOCK_MAX_GROWTH} times its words`,
  /** Readability's block is mostly lists of links. */
  menu: `its block is mostly lists of links (under ${percent(MENU_BLOCK_MAX_PROSE_SHARE)} prose): a menu, not a story`,
  /** Readability's block is mostly its form controls' labels. */
  form: `its block is a form (its labels hold at least ${percent(FORM_BLOCK_MIN_LABEL_SHARE)} of its words), not a story`,
  /** Defuddle kept one section of a page whose content is spread over many. */
  oneSection: `the article holds under ${percent(SPREAD_MIN_SHARE)} of the words of the page's main region: one section of a page spread over many`,
  /** Readability is not run on such a page. */
  spreadPage: 'not run: one block cannot hold a page spread over many sections',
} as const;

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
