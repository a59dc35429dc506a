import { failureReason } from '../failure-reason.js';
import { loadDefuddle, loadReadability } from '../lazy-modules.js';
import type { ArticleCandidate } from './choose-article.js';
import { headingLinks } from './heading-links.js';
import { shieldHeadlineBlocks } from './headline-blocks.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { setAsideUnreadableJsonLd } from './json-ld.js';
import { markdownToText } from './markdown-to-text.js';
import { unwrapLinkedParagraphs } from './paragraph-wrappers.js';

/** Where the page came from: the URL Defuddle is told, and the URL relative links resolve against. */
export interface PageAddress {
  /** The page's URL. */
  readonly url: string;
  /** A safe `<base href>` of the page, else its URL. */
  readonly baseUrl: string;
}

/** A stage's article, as Markdown and text, with the title the stage found. */
export interface StageArticle extends ArticleCandidate {
  /** The title the stage found, when it found one. */
  title: string | undefined;
}

/** Defuddle's options the cascade sets per run. */
export interface DefuddleOptions {
  contentSelector?: string;
  removePartialSelectors?: boolean;
  removeExactSelectors?: boolean;
  removeLowScoring?: boolean;
  removeContentPatterns?: boolean;
}

/** What one Defuddle run gave: its article, or the reason it failed. */
export type DefuddleRun =
  | { article: StageArticle; error?: undefined }
  | { article: undefined; error: string };

/** What the Readability run gave: its article and the article's HTML, or why it found none. */
export type ReadabilityRun =
  | { found: { article: StageArticle; html: string }; reason?: undefined }
  | { found: undefined; reason: string };

/**
 * Defuddle on `source`, its HTML written as Markdown. JSON-LD that Defuddle cannot read is set aside
 * for the run. A failure is returned with its reason, for the cascade to record only if it passes
 * the stage over: a run made as a measure after the winner records nothing.
 */
export async function runDefuddle(
  page: PageAddress,
  source: Document,
  options: DefuddleOptions = {},
): Promise<DefuddleRun> {
  const restoreJsonLd = setAsideUnreadableJsonLd(source);
  const restoreBlocks = shieldHeadlineBlocks(source);
  try {
    // Defuddle writes headings as text: the links of linked headings are noted first.
    const links = headingLinks(source, page);
    const { Defuddle } = await loadDefuddle();
    const result = await Defuddle(source, page.url, { markdown: false, useAsync: false, ...options });
    const markdown = await htmlToMarkdown(result.content ?? '', page.baseUrl, links);
    return { article: { markdown, text: markdownToText(markdown), title: result.title || undefined } };
  } catch (error) {
    return { article: undefined, error: failureReason(error) };
  } finally {
    restoreBlocks();
    restoreJsonLd();
  }
}

/** Readability on `source` (which it rewrites): its article, and the article's HTML. */
export async function runReadability(page: PageAddress, source: Document): Promise<ReadabilityRun> {
  try {
    const { Readability } = await loadReadability();
    unwrapLinkedParagraphs(source);
    // Classes stay so that Defuddle can still recognise share bars, bylines and the like by name.
    const article = new Readability(source, { keepClasses: true }).parse();
    if (article === null) return { found: undefined, reason: 'no article found' };
    const markdown = await htmlToMarkdown(article.content ?? '', page.baseUrl);
    const candidate: StageArticle = {
      markdown,
      text: markdownToText(markdown),
      title: article.title || undefined,
    };
    return { found: { article: candidate, html: article.content ?? '' } };
  } catch (error) {
    return { found: undefined, reason: failureReason(error) };
  }
}
