import { randomUUID } from 'node:crypto';
import { failureReason } from '../failure-reason.js';
import { loadDefuddle, loadLinkedom, loadReadability } from '../lazy-modules.js';
import type { ExtractionStage, ParserFailure } from '../types.js';
import { markCallouts } from './callouts.js';
import {
  type ArticleCandidate,
  chooseArticle,
  countWords,
  DEFUDDLE_MIN_OVERLAP,
  isUsableArticle,
  trigramAt,
  trigramOverlap,
  words,
} from './choose-article.js';
import { cleanCodeBlocks } from './code-blocks.js';
import { revealDisclosurePanels, revealStyledParts } from './disclosure-panels.js';
import { dropLinkLists } from './drop-link-lists.js';
import { hasName } from './element-names.js';
import { parseEscapedNoscripts } from './escaped-noscript.js';
import { dropExtraLineBreaks, htmlToMarkdown } from './html-to-markdown.js';
import { normalizeImageSources } from './image-sources.js';
import { setAsideUnreadableJsonLd } from './json-ld.js';
import { dropLayoutClasses } from './layout-classes.js';
import { markdownToText } from './markdown-to-text.js';
import { markMathLatex } from './mathml-latex.js';
import { unwrapContentNoscripts } from './noscript-content.js';
import { pageKind } from './page-kind.js';
import { parseHtmlDocument } from './parse-html-document.js';
import { dropAuthorDetails, dropPostSignatures, dropReputationCounts } from './post-extras.js';
import { findSeriesRoot } from './post-series.js';
import { dropCustomerReviews } from './product-reviews.js';
import { dropRepeatedQuotes } from './repeated-quotes.js';
import { dropRepeatedSections } from './repeated-sections.js';
import { resolveStreamedParts } from './suspense-boundaries.js';

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
 * Elements removed right after parsing: never article text (JSON-LD stays, Defuddle reads its
 * metadata), the Markdown drops them anyway, and their text and subtrees slow down every selector
 * pass of both extractors.
 */
const NON_CONTENT_SELECTOR =
  'script:not([type="application/ld+json"]), style, template, svg, noscript, iframe, object, embed, canvas, button, select, textarea, input';

/**
 * The captions of a story's pictures, removed on the article route (see {@link dropCaptions}).
 * A photo's description and its credit line are not the story's text: neither benchmark's truth
 * holds them (of the `<figcaption>`s kept on WCXB article pages, 44 of 492 were in the truth, on
 * Zyte 5 of 49), and Readability keeps them inside its block. Other pages keep theirs: a reference
 * page's figure captions are its text.
 */
const CAPTION_SELECTOR = 'figcaption';

/** Elements a site names as a caption or a credit, taken as one when they look like it. */
const NAMED_CAPTION_SELECTOR = '[class*="caption" i], [class*="credit" i], [id*="caption" i]';

/** The most words an element named as a caption may hold to be taken as one. */
const CAPTION_MAX_WORDS = 50;

const HEADING_SELECTOR = 'h1, h2, h3, h4, h5, h6';

/**
 * Removes the captions of a story's pictures: every `<figcaption>`, and the elements a site names as
 * a caption or credit (`class="caption"`, `"wp-caption-text"`, `"image-credit"`, …) that hold
 * {@link CAPTION_MAX_WORDS} words or fewer, no heading and no picture, and are not beside a heading.
 * Sites name other things "caption" too: a box wrapping a picture and its caption (whose picture
 * is shown by its alt text), and the line under a heading that some themes call the heading's
 * caption, which is text of the page.
 */
function dropCaptions(document: Document): void {
  for (const element of Array.from(document.querySelectorAll(CAPTION_SELECTOR))) element.remove();
  for (const element of Array.from(document.querySelectorAll(NAMED_CAPTION_SELECTOR))) {
    if (!element.isConnected) continue;
    if (element.querySelector(`${HEADING_SELECTOR}, img, picture, video`) !== null) continue;
    if (element.parentElement?.querySelector(HEADING_SELECTOR)) continue;
    if (countWords(element.textContent ?? '') <= CAPTION_MAX_WORDS) element.remove();
  }
}

/** Page chrome by element name and by role: navigation, banners, footers, forms, scripts. */
const CHROME_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
]);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);

/**
 * The elements whose `<header>` or `<footer>` heads or closes that element, not the page: a
 * landing page's feature, a card or a story names its title and pitch in a header of its own. Such
 * a header is as much the section's text as its paragraphs (ARIA gives it no banner role either).
 */
const SECTIONING_SELECTOR = 'article, section';

/**
 * Elements that may be removed from the body before the cleaned-body conversion: the chrome above
 * and hidden elements. {@link isChrome} decides on each, since a section's own header and footer
 * match the selector and stay.
 */
const CHROME_SELECTOR = [
  ...CHROME_ELEMENTS,
  ...Array.from(CHROME_ROLES, (role) => `[role="${role}"]`),
  '[aria-hidden="true"]',
  '[hidden]',
].join(', ');

/**
 * The largest share of the words of Readability's block that may be left once its lists of links are
 * dropped for the block to count as a menu rather than a story (see the article route).
 */
const MENU_BLOCK_MAX_PROSE_SHARE = 1 / 3;

/**
 * Words under which Readability's block may be a fragment of the article rather than all of it (a
 * recipe's introduction without the recipe). Such a block is compared with Defuddle's article of the
 * whole page, which wins when it holds the block and is {@link SHORT_BLOCK_MIN_GROWTH} to
 * {@link SHORT_BLOCK_MAX_GROWTH} times its words: less is a short story with the page's extras
 * around it (a news brief stays a brief), more is the whole page taken in, comments, menus and all.
 */
const SHORT_BLOCK_MAX_WORDS = 150;
const SHORT_BLOCK_MIN_GROWTH = 3;
const SHORT_BLOCK_MAX_GROWTH = 8;

/**
 * Words under which Readability's block is no story at all but a box it settled on for want of one
 * (an "add to home screen" banner, a newsletter form, a footer): Defuddle's usable article of the
 * whole page then wins whether or not it holds the block.
 */
const BANNER_BLOCK_MAX_WORDS = 50;

/**
 * The share of the page's prose (the words of its main region outside chrome and links, see
 * {@link regionProseWords}) under which the block an article page's route chose may be a fragment
 * of the story: Readability keeps a long guide's prose and drops the boxes, lists and tables between
 * its paragraphs, or keeps one section of a roundup. Defuddle's article of the whole page then
 * replaces it when it holds the block spread through it (see {@link holdsSpreadBlock}). Links are
 * not counted so that a news page's teasers do not make every story look like a fragment (and cost
 * a second Defuddle pass).
 */
export const FRAGMENT_MAX_SHARE = 4 / 5;

/** How many times the block's words Defuddle's article must hold to replace a fragment. */
export const FRAGMENT_MIN_GROWTH = 1.2;

/**
 * How far from its start and its end Defuddle's article may first and last share a word trigram
 * with the block, as a share of its words, for the block to run through it rather than sit at one
 * end (a story with related posts or a second story after it).
 */
export const FRAGMENT_MAX_EDGE = 0.15;

/** Elements whose text is never shown, removed before the last resort reads the body's text. */
const INVISIBLE_SELECTOR = 'script, style, noscript, template';

/** Why a stage's article was not usable at all: no words, or a "Loading…" or "enable JavaScript" shell. */
const EMPTY_ARTICLE = 'empty or loading shell';

interface StageArticle extends ArticleCandidate {
  title: string | undefined;
}

/**
 * Extracts the article of an HTML page in the contract's order: Defuddle on the whole page, then
 * Readability with Turndown, then the body without its chrome (and finally the whole body's text,
 * so that a page with text never comes back empty). A stage is passed over when its article is
 * unusable, by the rules below, and `parserFailures` says why, in order; `stage` names the stage
 * whose text was kept.
 *
 * Defuddle's article is unusable when it is empty or a loading shell, and also:
 *
 * - on a page that declares itself an article (news, blog post, report), when Readability's prose
 *   block reads better: the block is a whole story ({@link PASSED_OVER}`.wholeStory`), or Defuddle's
 *   article does not hold a block that is a small part of the page spread through it and the block
 *   is no post of a series (`.notSpread`), or Defuddle's article does not extend a short block into
 *   a story of a few times its words (`.notExtended`). Readability's block is then cleaned of the
 *   boilerplate it keeps (share boxes, link lists) by Defuddle when the cleaned block is the same
 *   article (`chooseArticle`). Readability's block is the better start on news pages (Zyte set F1
 *   0.957 against 0.914 for Defuddle alone, first 60 pages);
 * - on a page that declares no article, thread or product, when it holds under half of the page's
 *   main region (`.oneSection`): a service, listing or collection page spreads its content over
 *   sibling sections, of which Defuddle keeps one. One block cannot hold such a page either, so
 *   Readability is passed over unrun, and the cleaned region is the article.
 *
 * Readability's article is unusable when it finds none, when it is empty or a loading shell, and
 * when its block is mostly lists of links (`.menu`).
 */
export async function extractHtml(html: string, url: string): Promise<HtmlArticle> {
  const article = await chooseHtmlArticle(html, url);
  // Whichever stage won, a quotation of text the article already gave is read once, and so is a
  // section the page drew twice.
  const markdown = dropRepeatedSections(dropRepeatedQuotes(article.markdown));
  return markdown === article.markdown ? article : { ...article, markdown, text: markdownToText(markdown) };
}

async function chooseHtmlArticle(html: string, url: string): Promise<HtmlArticle> {
  const parse = async () => {
    const document = await parseShownDocument(html);
    for (const element of Array.from(document.querySelectorAll(NON_CONTENT_SELECTOR))) element.remove();
    dropLayoutClasses(document);
    normalizeImageSources(document);
    dropExtraLineBreaks(document);
    return document;
  };
  const parserFailures: ParserFailure[] = [];
  const failed = (stage: ExtractionStage, reason: string) => parserFailures.push({ stage, reason });
  const document = await parse();
  const baseUrl = documentBaseUrl(document, url);
  const pageTitle = document.querySelector('title')?.textContent?.trim() || undefined;
  const kind = pageKind(document);

  // Why the last Defuddle or Readability run came back without an article (an error, or Readability
  // finding none). Read, and cleared, by whoever ran it: a stage's failure is recorded only once the
  // cascade passes that stage over, never for a stage that ran as a measure after the winner.
  let defuddleError: string | undefined;
  let readabilityReason: string | undefined;
  const takeDefuddleError = () => {
    const error = defuddleError;
    defuddleError = undefined;
    return error;
  };

  const defuddle = async (
    source: Document,
    options: DefuddleOptions = {},
  ): Promise<StageArticle | undefined> => {
    const restoreJsonLd = setAsideUnreadableJsonLd(source);
    try {
      const { Defuddle } = await loadDefuddle();
      const result = await Defuddle(source, url, { markdown: false, useAsync: false, ...options });
      const markdown = await htmlToMarkdown(result.content ?? '', baseUrl);
      return { markdown, text: markdownToText(markdown), title: result.title || undefined };
    } catch (error) {
      defuddleError = failureReason(error);
      return undefined;
    } finally {
      restoreJsonLd();
    }
  };
  /** Readability on `source` (which it rewrites): its article, and the article's HTML. */
  const readability = async (source: Document) => {
    try {
      const { Readability } = await loadReadability();
      // Classes stay so that Defuddle can still recognise share bars, bylines and the like by name.
      const article = new Readability(source, { keepClasses: true }).parse();
      if (article === null) {
        readabilityReason = 'no article found';
        return undefined;
      }
      const markdown = await htmlToMarkdown(article.content ?? '', baseUrl);
      const candidate: StageArticle = {
        markdown,
        text: markdownToText(markdown),
        title: article.title || undefined,
      };
      return { article: candidate, html: article.content ?? '' };
    } catch (error) {
      readabilityReason = failureReason(error);
      return undefined;
    }
  };
  /** The stage's article as the cascade's answer; a title it lacks comes from `fallbackTitle`, then the page. */
  const finish = (
    stage: 'defuddle' | 'readability',
    article: StageArticle,
    fallbackTitle: string | undefined,
  ): HtmlArticle => ({
    markdown: article.markdown,
    text: article.text,
    title: article.title ?? fallbackTitle ?? pageTitle,
    stage,
    parserFailures,
  });
  /** Why Defuddle's whole-page article was passed over: its error, its emptiness, or else `rule`. */
  const passOverDefuddle = (whole: StageArticle | undefined, error: string | undefined, rule: string) =>
    failed('defuddle', error ?? (whole === undefined || !isUsableArticle(whole.text) ? EMPTY_ARTICLE : rule));

  let titleFallback = pageTitle;
  if (kind === 'article') {
    dropCaptions(document);
    // Title, metadata and JSON-LD, kept for Defuddle before Readability rewrites the document.
    const head = document.head.innerHTML;
    // Counted before Readability rewrites the document.
    const pageWords = regionProseWords(mainRegion(document));
    // Defuddle first, on the whole page: a parse of its own, since Readability rewrites `document`.
    const page = await parse();
    dropCaptions(page);
    const whole = await defuddle(page);
    const wholeError = takeDefuddleError();
    const wholeUsable = whole !== undefined && isUsableArticle(whole.text);
    // Readability's block: what Defuddle's article is judged by on an article page, and the
    // Readability stage's article when Defuddle's is passed over. Defuddle cleans the block of the
    // boilerplate Readability keeps; the cleaned block stands for the block when it is the same
    // article (`chooseArticle`), and a failed cleaning leaves the block as Readability gave it.
    const found = await readability(document);
    let blockArticle: StageArticle | undefined;
    if (found !== undefined && isUsableArticle(found.article.text)) {
      const { parseHTML } = await loadLinkedom();
      const block = parseHTML(`<!doctype html><html><head>${head}</head><body>${found.html}</body></html>`);
      blockArticle = await defuddle(block.document as unknown as Document);
      takeDefuddleError();
    }
    // Menus and "related stories" lists that came along inside the story's block.
    if (blockArticle !== undefined) blockArticle = withoutLinkLists(blockArticle);
    const blockProse = found === undefined ? undefined : withoutLinkLists(found.article);
    // A block that is mostly lists of links is the site's menu, not the story.
    const menu =
      blockProse !== undefined &&
      countWords(blockProse.text) < MENU_BLOCK_MAX_PROSE_SHARE * countWords(found?.article.text ?? '');
    const choice = menu ? undefined : chooseArticle(blockArticle, blockProse);
    const chosen =
      choice === 'defuddle' ? blockArticle : choice === 'readability' ? found?.article : undefined;
    const finishBlock = (article: StageArticle) =>
      finish('readability', article, choice === 'defuddle' ? found?.article.title : blockArticle?.title);
    const finishWhole = (article: StageArticle) => finish('defuddle', article, found?.article.title);
    const chosenWords = chosen === undefined ? 0 : countWords(chosen.text);
    const long = chosen !== undefined && chosenWords >= SHORT_BLOCK_MAX_WORDS;
    const partial = long && chosenWords < FRAGMENT_MAX_SHARE * pageWords;
    if (chosen !== undefined && long && !partial) {
      passOverDefuddle(whole, wholeError, PASSED_OVER.wholeStory(chosenWords));
      return finishBlock(chosen);
    }
    if (chosen !== undefined && partial) {
      // The block is a small part of the page's prose: Defuddle's article stands when it holds the
      // block as a fragment spread through it.
      if (whole !== undefined && holdsSpreadBlock(whole, chosen.text)) return finishWhole(whole);
      // The block may be one post of a series: a link aggregator's discussion declared an article,
      // where Readability keeps the longest comment. Defuddle then reads the whole series.
      const series = await wholeSeries(page, chosen, defuddle, false);
      takeDefuddleError();
      if (series !== undefined && series !== chosen) return finishWhole(series);
      passOverDefuddle(whole, wholeError, PASSED_OVER.notSpread(chosenWords));
      return finishBlock(chosen);
    }
    // No block, or a short one: Defuddle's usable article stands when the block is too short to be a
    // story at all, or when it holds the block as a fragment of a larger one (a news brief with its
    // page's extras around it stays the brief).
    const banner = chosenWords < BANNER_BLOCK_MAX_WORDS && wholeUsable;
    if (chosen !== undefined && !banner && (whole === undefined || !extendsBlock(whole, chosen.text))) {
      passOverDefuddle(whole, wholeError, PASSED_OVER.notExtended(chosenWords));
      return finishBlock(chosen);
    }
    if (whole !== undefined && wholeUsable) return finishWhole(whole);
    failed('defuddle', wholeError ?? EMPTY_ARTICLE);
    failed('readability', readabilityReason ?? (menu ? PASSED_OVER.menu : EMPTY_ARTICLE));
    titleFallback = whole?.title ?? found?.article.title ?? pageTitle;
  } else {
    // A product's customer reviews are what buyers say of it, not its description.
    if (kind === 'product') dropCustomerReviews(document);
    // Forum engines sign every post with its author's signature; pages declared articles keep
    // theirs (a story's sign-off is its text). Most pages never name one, and skip the walk.
    else if (/signature/i.test(html)) dropPostSignatures(document);
    // A thread names each post's author; the author's standing and profile are not the post.
    if (kind === 'thread') {
      dropReputationCounts(document);
      dropAuthorDetails(document);
    }
    // Defuddle works on a clone, so `document` stays intact for Readability.
    let whole = await defuddle(document);
    const wholeError = takeDefuddleError();
    const usable = whole !== undefined && isUsableArticle(whole.text);
    // A thread's posts may all have gone as a "comment section": its series is looked for even then.
    if (usable || kind === 'thread') {
      const series = await wholeSeries(document, whole, defuddle, kind === 'thread');
      takeDefuddleError();
      if (series !== undefined) whole = series;
      if (whole !== undefined && isUsableArticle(whole.text)) {
        const spread = kind === 'other' ? await spreadContent(document, baseUrl, whole.text) : undefined;
        if (spread !== undefined) {
          failed('defuddle', PASSED_OVER.oneSection);
          failed('readability', PASSED_OVER.spreadPage);
          return { ...spread, title: whole.title ?? pageTitle, stage: 'cleaned-body', parserFailures };
        }
        return finish('defuddle', whole, undefined);
      }
    }
    const found = await readability(document);
    if (found !== undefined && isUsableArticle(found.article.text)) {
      failed('defuddle', wholeError ?? EMPTY_ARTICLE);
      return finish('readability', found.article, whole?.title);
    }
    failed('defuddle', wholeError ?? EMPTY_ARTICLE);
    failed('readability', readabilityReason ?? EMPTY_ARTICLE);
    titleFallback = whole?.title ?? found?.article.title ?? pageTitle;
  }

  // Readability rewrote the first document, so the last resorts start from a fresh parse.
  const fresh = await parseShownDocument(html);
  removeChrome(fresh.body);
  let markdown = await htmlToMarkdown(fresh.body.innerHTML, baseUrl);
  if (markdownToText(markdown) === '') {
    // Everything readable sat in page chrome (a header, a form…): the page's text is still its text.
    const whole = await parseShownDocument(html);
    for (const element of Array.from(whole.body.querySelectorAll(INVISIBLE_SELECTOR))) element.remove();
    markdown = await htmlToMarkdown(whole.body.innerHTML, baseUrl);
  }
  let text = markdownToText(markdown);
  if (text === '') {
    // The body holds no text at all (an application's shell): the summary the page gives of itself
    // is all there is to read until it is rendered.
    const description = pageDescription(fresh);
    if (description !== undefined) {
      failed('cleaned-body', 'no text in the body');
      const paragraph = fresh.createElement('p');
      paragraph.textContent = description;
      markdown = await htmlToMarkdown(paragraph.outerHTML, baseUrl);
      text = markdownToText(markdown);
      return { markdown, text, title: titleFallback, stage: 'page-description', parserFailures };
    }
  }
  return { markdown, text, title: titleFallback, stage: 'cleaned-body', parserFailures };
}

/** The descriptions a page gives of itself: its `description`, Open Graph and Twitter card. */
const DESCRIPTION_SELECTOR = [
  'meta[name="description" i]',
  'meta[property="og:description" i]',
  'meta[name="twitter:description" i]',
  'meta[property="twitter:description" i]',
].join(', ');

/** The longest of the page's descriptions of itself, whitespace collapsed; undefined when it gives none. */
function pageDescription(document: Document): string | undefined {
  let longest: string | undefined;
  for (const meta of Array.from(document.querySelectorAll(DESCRIPTION_SELECTOR))) {
    const content = (meta.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
    if (content !== '' && content.length > (longest?.length ?? 0)) longest = content;
  }
  return longest;
}

/**
 * The share of the words of a page's main region that Defuddle's article must hold, on a page that
 * declares no article, thread or product, for Defuddle's article to stand for the page. Below it
 * Defuddle kept one of the page's sections (a landing page's first feature, a listing's first
 * group), and the region without its chrome is the better article (see {@link spreadContent}).
 */
export const SPREAD_MIN_SHARE = 1 / 2;

/**
 * Why a stage with a usable article was passed over: the rules of the cascade, as its record
 * states them (see {@link chooseHtmlArticle}).
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
  /** Defuddle kept one section of a page whose content is spread over many. */
  oneSection: `the article holds under ${percent(SPREAD_MIN_SHARE)} of the words of the page's main region: one section of a page spread over many`,
  /** Readability is not run on such a page. */
  spreadPage: 'not run: one block cannot hold a page spread over many sections',
} as const;

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/**
 * The page's main region (`<main>` or `role="main"`, else the body) without its chrome and its
 * lists of links, when Defuddle's article (`articleText`) holds less than {@link SPREAD_MIN_SHARE}
 * of its words. Service, listing and collection pages spread their content over many sibling
 * sections, of which Defuddle keeps the highest-scoring one; a product page is not read this way
 * (its region holds reviews and other products, which Defuddle rightly leaves out), and neither
 * are articles and threads, whose own routes find their blocks.
 */
export async function spreadContent(
  document: Document,
  baseUrl: string,
  articleText: string,
): Promise<{ markdown: string; text: string } | undefined> {
  const root = mainRegion(document);
  if (root === null) return undefined;
  const articleWords = countWords(articleText);
  // The conversion is the expensive part: most pages are ruled out by a bound on the region's words.
  if (articleWords >= SPREAD_MIN_SHARE * regionWordBound(root)) return undefined;
  const region = root.cloneNode(true) as Element;
  removeChrome(region);
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

/** The page's main region: its `<main>` (or `role="main"`), else its body. */
function mainRegion(document: Document): Element | null {
  return document.querySelector('main, [role="main"]') ?? document.body;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Removes the page chrome inside `root` (see {@link isChrome}). */
function removeChrome(root: Element): void {
  for (const element of Array.from(root.querySelectorAll(CHROME_SELECTOR))) {
    if (isChrome(element)) element.remove();
  }
}

/**
 * Whether `element` is page chrome: one of {@link CHROME_ELEMENTS} (but a section's own header or
 * footer, see {@link headsSection}, and a form around the page, see {@link wrapsPage}), an element
 * in a chrome role, or a hidden one.
 */
function isChrome(element: Element): boolean {
  if (CHROME_ELEMENTS.has(element.localName) && !headsSection(element) && !wrapsPage(element)) return true;
  const role = element.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return true;
  return element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden');
}

/**
 * What a form that wraps the page holds and a search box, a sign-up or a cart form never does: the
 * page's heading or its main content. ASP.NET Web Forms put every page in one `<form>`, and
 * search-as-you-type listings wrap their results in theirs.
 */
const PAGE_CONTENT_SELECTOR = 'h1, main, article, [role="main"]';

/** Whether `element` is a form around the page's content (see {@link PAGE_CONTENT_SELECTOR}). */
function wrapsPage(element: Element): boolean {
  return element.localName === 'form' && element.querySelector(PAGE_CONTENT_SELECTOR) !== null;
}

/** What a site's own header or footer holds and a section's never does. */
const SITE_HEADER_SELECTOR = 'nav, [role="navigation"], form, [role="search"]';

/**
 * Whether `element` is the header or footer of an article or section around it rather than the
 * site's (see {@link SITE_HEADER_SELECTOR}).
 */
function headsSection(element: Element): boolean {
  if (element.localName !== 'header' && element.localName !== 'footer') return false;
  // A site wrapped whole in a <section> still has its header: the one holding the menu or search.
  if (element.querySelector(SITE_HEADER_SELECTOR) !== null) return false;
  return (element.parentElement?.closest(SECTIONING_SELECTOR) ?? null) !== null;
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
  let found = false;
  for (const element of Array.from(
    root.querySelectorAll('[id*="comment" i], [class*="comment" i], [id*="disqus" i]'),
  )) {
    if (hasName(element, (name) => COMMENT_SECTION_NAME.test(name))) {
      element.remove();
      found = true;
    }
  }
  return found;
}

/**
 * At least as many words as the region's Markdown will hold once its chrome is removed: the words of
 * each text node outside chrome counted on their own (a word split by inline markup counts twice,
 * words of adjacent blocks never run together as they do in `textContent`), and the alt texts of its
 * images, which the Markdown writes.
 */
function regionWordBound(root: Element | null): number {
  return regionWords(root, true);
}

/**
 * The words of the region's prose: its text outside chrome and outside links (menus, teasers and
 * "more stories" lists are links), each text node counted on its own.
 */
function regionProseWords(root: Element | null): number {
  return regionWords(root, false);
}

function regionWords(root: Element | null, withLinks: boolean): number {
  if (root === null) return 0;
  let count = 0;
  const pending: Node[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        count += countWords(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const element = child as Element;
        if (isChrome(element) || (!withLinks && element.localName === 'a')) continue;
        if (element.localName === 'img') count += countWords(element.getAttribute('alt') ?? '');
        pending.push(element);
      }
    }
  }
  return count;
}

/** Defuddle's options this module sets per run. */
interface DefuddleOptions {
  contentSelector?: string;
  removePartialSelectors?: boolean;
  removeExactSelectors?: boolean;
  removeLowScoring?: boolean;
  removeContentPatterns?: boolean;
}

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
 * Markup without which a page has no disclosure widget to open: a control's `aria-controls` or
 * `aria-expanded`, a tab panel or region, or a button at the start of a heading. Most pages have
 * none and skip the walk {@link revealDisclosurePanels} makes.
 */
const DISCLOSURE_MARKUP =
  /aria-(?:controls|expanded)|role\s*=\s*["']?(?:tabpanel|region)|<h[1-6]\b[^>]*>\s*<button/i;

/**
 * The id of a part a React page streams in (`id="S:3"`): without one there is nothing for
 * {@link resolveStreamedParts} to move, and its walks are skipped.
 */
const STREAMED_PART_MARKUP = /\bid\s*=\s*["']?S:/i;

/**
 * An inline `opacity` of zero or `display: none`, without which a page hides nothing in its style
 * and skips the walk {@link revealStyledParts} makes.
 */
const STYLE_HIDDEN_MARKUP = /opacity\s*:\s*\.?0|display\s*:\s*none/i;

/** A MathML formula, without which a page has nothing for {@link markMathLatex} to write as TeX. */
const MATH_MARKUP = /<math\b/i;

/**
 * Parses the page into the document a reader is shown without scripts running: the parts a React
 * page streams in moved into their places (`resolveStreamedParts`, before scripts go), the
 * content of long `<noscript>`s unwrapped (`unwrapContentNoscripts`), the collapsed panels of
 * accordions and tabs shown (`revealDisclosurePanels`), and what its inline styles hide until the
 * reader acts shown too: panels folded away by class and parts it fades in (`revealStyledParts`).
 */
async function parseShownDocument(html: string): Promise<Document> {
  const document = await parseHtmlDocument(html);
  if (STREAMED_PART_MARKUP.test(html)) resolveStreamedParts(document);
  parseEscapedNoscripts(document);
  unwrapContentNoscripts(document);
  cleanCodeBlocks(document);
  markCallouts(document);
  if (MATH_MARKUP.test(html)) markMathLatex(document);
  if (DISCLOSURE_MARKUP.test(html)) revealDisclosurePanels(document);
  if (STYLE_HIDDEN_MARKUP.test(html)) revealStyledParts(document);
  return document;
}

/**
 * When Defuddle picked one post of a thread (or one item of a listing), Defuddle again on the
 * element holding the whole series; its article wins when it holds clearly more.
 */
async function wholeSeries(
  document: Document,
  picked: StageArticle | undefined,
  defuddle: (source: Document, options?: DefuddleOptions) => Promise<StageArticle | undefined>,
  thread: boolean,
): Promise<StageArticle | undefined> {
  const pickedText = picked !== undefined && isUsableArticle(picked.text) ? picked.text : '';
  const root = findSeriesRoot(document.body, pickedText, thread);
  if (root === undefined) return picked;
  // A value of its own, so that a page carrying the attribute cannot choose the root.
  const mark = randomUUID();
  root.setAttribute(SERIES_ROOT_ATTRIBUTE, mark);
  try {
    const series = await defuddle(document, {
      contentSelector: `[${SERIES_ROOT_ATTRIBUTE}="${mark}"]`,
      ...SERIES_OPTIONS,
      ...(thread ? THREAD_OPTIONS : {}),
    });
    if (series === undefined || !isUsableArticle(series.text)) return picked;
    if (countWords(series.text) < SERIES_MIN_GAIN * countWords(pickedText)) return picked;
    return { ...series, title: picked?.title ?? series.title };
  } finally {
    root.removeAttribute(SERIES_ROOT_ATTRIBUTE);
  }
}

/** The article without its link-only lists, unless those lists are all it has. */
function withoutLinkLists(article: StageArticle): StageArticle {
  const markdown = dropLinkLists(article.markdown);
  if (markdown === article.markdown) return article;
  const text = markdownToText(markdown);
  return isUsableArticle(text) ? { ...article, markdown, text } : article;
}

/**
 * Whether `whole` holds the short block `block` as a fragment of it (see {@link SHORT_BLOCK_MAX_WORDS}).
 * The growth is counted outside links: a list of related stories around a news brief is not more of
 * its article.
 */
function extendsBlock(whole: StageArticle, block: string): boolean {
  if (!isUsableArticle(whole.text)) return false;
  const wholeWords = words(whole.text);
  const blockWords = words(block);
  if (wholeWords.length > SHORT_BLOCK_MAX_GROWTH * blockWords.length) return false;
  if (trigramOverlap(blockWords, wholeWords) < DEFUDDLE_MIN_OVERLAP) return false;
  const proseWords = countWords(markdownToText(withoutLinks(whole.markdown)));
  return proseWords >= SHORT_BLOCK_MIN_GROWTH * blockWords.length;
}

/**
 * Whether Defuddle's article `whole` holds the block `block` as a fragment spread through it: most of
 * the block's word trigrams are in it ({@link DEFUDDLE_MIN_OVERLAP}), it has
 * {@link FRAGMENT_MIN_GROWTH} times the block's words, and the shared trigrams start and end within
 * {@link FRAGMENT_MAX_EDGE} of its two ends, so what it adds lies between the block's parts.
 */
export function holdsSpreadBlock(whole: StageArticle, block: string): boolean {
  if (!isUsableArticle(whole.text)) return false;
  const wholeWords = words(whole.text);
  const blockWords = words(block);
  if (wholeWords.length < FRAGMENT_MIN_GROWTH * blockWords.length) return false;
  if (trigramOverlap(blockWords, wholeWords) < DEFUDDLE_MIN_OVERLAP) return false;
  const blockTrigrams = new Set<string>();
  for (let index = 0; index + 2 < blockWords.length; index++) blockTrigrams.add(trigramAt(blockWords, index));
  let first = -1;
  let last = -1;
  for (let index = 0; index + 2 < wholeWords.length; index++) {
    if (!blockTrigrams.has(trigramAt(wholeWords, index))) continue;
    if (first < 0) first = index;
    last = index + 2;
  }
  const edge = FRAGMENT_MAX_EDGE * wholeWords.length;
  return first >= 0 && first <= edge && wholeWords.length - 1 - last <= edge;
}

/** Markdown without its links and images (an image inside a link included), their text too. */
function withoutLinks(markdown: string): string {
  // Innermost first: an image, then the link around it. Deeper nesting is not Markdown's.
  let rest = markdown;
  for (let pass = 0; pass < 2; pass++) rest = rest.replace(/!?\[[^[\]]*\](?:\([^()]*\))?/g, ' ');
  return rest;
}

/** The URL relative links resolve against: a safe `<base href>` when present, else the page URL. */
function documentBaseUrl(document: { querySelector(selector: string): Element | null }, url: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (href === null || href === undefined) return url;
  try {
    const resolved = new URL(href, url);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : url;
  } catch {
    return url;
  }
}
