import { loadLinkedom } from '../lazy-modules.js';
import {
  extendsBlock,
  holdsListedBlock,
  holdsSpreadBlock,
  isBannerBlock,
  isFormBlock,
  isFragmentOfPage,
  isMenuBlock,
  isShortBlock,
  withoutLinkLists,
} from './article-rules.js';
import { dropCaptions } from './captions.js';
import {
  type CascadeLog,
  EMPTY_ARTICLE,
  finishStage,
  PASSED_OVER,
  passOverDefuddle,
  type RouteOutcome,
  recordFailure,
} from './cascade-record.js';
import { chooseArticle, countWords, isUsableArticle } from './choose-article.js';
import { dropFollowingStories } from './following-stories.js';
import { readOtherPage } from './other-route.js';
import { mainRegion, regionProseWords } from './page-chrome.js';
import { type DefuddleRun, runDefuddle, runReadability, type StageArticle } from './stage-runs.js';
import { wholeSeries } from './whole-series.js';

/**
 * The route of a page that declares itself an article (news, blog post, report): Readability's
 * block, cleaned by Defuddle, judged against Defuddle's article of the whole page by the rules of
 * `article-rules.ts` (see `extractHtml` for the cascade). `document` is the prepared page, which
 * Readability rewrites.
 */
export async function readArticlePage(log: CascadeLog, document: Document): Promise<RouteOutcome> {
  dropCaptions(document);
  dropFollowingStories(document);
  // Title, metadata and JSON-LD, kept for Defuddle before Readability rewrites the document.
  const head = document.head.innerHTML;
  // Counted before Readability rewrites the document.
  const pageWords = regionProseWords(mainRegion(document));
  // Defuddle's copy of the whole page, made before Readability rewrites `document`. A deep clone of
  // the prepared document is the document a second preparation would make, in a quarter of the
  // time (no parse, no preparation passes).
  const page = document.cloneNode(true) as Document;
  // Readability's block: what Defuddle's article is judged by on an article page, and the
  // Readability stage's article when Defuddle's is passed over. Defuddle cleans the block of the
  // boilerplate Readability keeps; the cleaned block stands for the block when it is the same
  // article (`chooseArticle`), and a failed cleaning leaves the block as Readability gave it.
  const { found, reason: readabilityReason } = await runReadability(log, document);
  const { cleaned: blockArticle, form } = await cleanBlock(log, found, head);
  const blockProse = found === undefined ? undefined : withoutLinkLists(found.article);
  const notStory = notAStory(found, blockProse, form);
  const choice = notStory === undefined ? chooseBlock(found, blockArticle, blockProse) : undefined;
  const chosen = choice === 'defuddle' ? blockArticle : choice === 'readability' ? found?.article : undefined;
  // The title each stage's article falls back on: the other version of the block's.
  const blockTitle = choice === 'defuddle' ? found?.article.title : blockArticle?.title;
  const wholeTitle = found?.article.title;
  const chosenWords = chosen === undefined ? 0 : countWords(chosen.text);
  const long = chosen !== undefined && !isShortBlock(chosenWords);
  const partial = long && isFragmentOfPage(chosenWords, pageWords);
  if (chosen !== undefined && long && !partial) {
    // Nothing of Defuddle's whole-page article could change this outcome, so it is not made: on
    // most article pages this is the outcome, and that run was a third of their extraction time.
    recordFailure(log, 'defuddle', PASSED_OVER.wholeStory(chosenWords));
    return finishStage(log, 'readability', chosen, blockTitle);
  }
  // Defuddle on the whole page: every other outcome weighs its article.
  const wholeRun = await runDefuddle(log, page);
  const { article: whole, error: wholeError } = wholeRun;
  const wholeUsable = whole !== undefined && isUsableArticle(whole.text);
  if (chosen !== undefined && partial) {
    return readPartialBlock(log, page, { chosen, chosenWords, blockTitle, whole, wholeError, wholeTitle });
  }
  // No block, or a short one: Defuddle's usable article stands when the block is too short to be a
  // story at all, or when it holds the block as a fragment of a larger one (a news brief with its
  // page's extras around it stays the brief).
  const banner = isBannerBlock(chosenWords) && wholeUsable;
  if (chosen !== undefined && !banner && (whole === undefined || !extendsBlock(whole, chosen.text))) {
    const block = { chosen, chosenWords, blockTitle, whole, wholeError, wholeTitle };
    return readUnextendedBlock(log, page, block, wholeRun);
  }
  if (whole !== undefined && wholeUsable) return finishStage(log, 'defuddle', whole, wholeTitle);
  recordFailure(log, 'defuddle', wholeError ?? EMPTY_ARTICLE);
  recordFailure(
    log,
    'readability',
    readabilityReason ?? (notStory === undefined ? EMPTY_ARTICLE : PASSED_OVER[notStory]),
  );
  return { article: undefined, title: whole?.title ?? found?.article.title ?? log.pageTitle };
}

/** Readability's block as Readability found it: the article and the block's HTML. */
type FoundBlock = Awaited<ReturnType<typeof runReadability>>['found'];

/**
 * The share of the block's words its cleaned version must keep, when the block holds a menu of the
 * site (see {@link holdsSiteMenu}), to stand for it: what cleaning removed there is largely the
 * page's chrome (menus, sign-in and subscription prompts, recommended links), not the story.
 */
const MENU_BLOCK_MIN_SHARE = 1 / 3;

/** A `<nav>` or navigation landmark other than a breadcrumb trail. */
const SITE_MENU =
  /<nav\b(?![^>]*breadcrumb)[^>]*>|<[a-z][^>]*\brole\s*=\s*["']?navigation\b(?![^>]*breadcrumb)[^>]*>/i;

/**
 * Whether Readability's block holds a menu of the site: Readability settled on a wrapper of the
 * whole page (its menus, breadcrumbs and sign-in prompts around the story) rather than the story.
 * A breadcrumb trail is no menu; stories carry one above their headline.
 */
function holdsSiteMenu(found: FoundBlock): boolean {
  return found !== undefined && SITE_MENU.test(found.html);
}

/** Which version of Readability's block stands: Defuddle's cleaning of it, or the block's prose. */
function chooseBlock(
  found: FoundBlock,
  cleaned: StageArticle | undefined,
  prose: StageArticle | undefined,
): ReturnType<typeof chooseArticle> {
  return chooseArticle(cleaned, prose, holdsSiteMenu(found) ? MENU_BLOCK_MIN_SHARE : undefined);
}

/**
 * What Readability's block is when it is no story: the site's menu (mostly lists of links) or a
 * form (mostly its controls' labels, `form`); undefined when it may be the story.
 */
function notAStory(
  found: FoundBlock,
  prose: StageArticle | undefined,
  form: boolean,
): 'menu' | 'form' | undefined {
  if (found !== undefined && prose !== undefined && isMenuBlock(prose, found.article)) return 'menu';
  return form ? 'form' : undefined;
}

/**
 * Readability's block cleaned by Defuddle, on a page of the block and the original head, without
 * the menus and "related stories" lists that came along inside the story's block (undefined when
 * the block is not a usable article or the cleaning failed), and whether the block is a form (see
 * {@link isFormBlock}).
 */
async function cleanBlock(
  log: CascadeLog,
  found: FoundBlock,
  head: string,
): Promise<{ cleaned: StageArticle | undefined; form: boolean }> {
  if (found === undefined || !isUsableArticle(found.article.text)) return { cleaned: undefined, form: false };
  const { parseHTML } = await loadLinkedom();
  const block = parseHTML(`<!doctype html><html><head>${head}</head><body>${found.html}</body></html>`);
  // Measured before Defuddle, which drops forms from the block it cleans; a form is not cleaned.
  if (isFormBlock(block.document.body as unknown as Element)) return { cleaned: undefined, form: true };
  const cleaned = (await runDefuddle(log, block.document as unknown as Document)).article;
  return { cleaned: cleaned === undefined ? undefined : withoutLinkLists(cleaned), form: false };
}

/** The chosen block and Defuddle's article of the whole page, with the titles each falls back on. */
interface BlockAndWhole {
  chosen: StageArticle;
  chosenWords: number;
  blockTitle: string | undefined;
  whole: StageArticle | undefined;
  wholeError: Parameters<typeof passOverDefuddle>[2];
  wholeTitle: string | undefined;
}

/** Decides a long block that is a small part of the page's prose. */
async function readPartialBlock(
  log: CascadeLog,
  page: Document,
  block: BlockAndWhole,
): Promise<RouteOutcome> {
  const { chosen, chosenWords, blockTitle, whole, wholeError, wholeTitle } = block;
  // The block is a small part of the page's prose: Defuddle's article stands when it holds the
  // block as a fragment spread through it.
  if (whole !== undefined && (holdsSpreadBlock(whole, chosen.text) || holdsListedBlock(whole, chosen.text))) {
    return finishStage(log, 'defuddle', whole, wholeTitle);
  }
  // The block may be one post of a series: a link aggregator's discussion declared an article,
  // where Readability keeps the longest comment, or a story the page splits around an embed.
  // Defuddle then reads the whole series, when it is prose: the bands of the page's grid around a
  // story are no series.
  const series = await wholeSeries(log, page, chosen, false, true);
  if (series !== undefined && series !== chosen) return finishStage(log, 'defuddle', series, wholeTitle);
  passOverDefuddle(log, whole, wholeError, PASSED_OVER.notSpread(chosenWords));
  return finishStage(log, 'readability', chosen, blockTitle);
}

/**
 * Decides a short block that Defuddle's article of the whole page does not extend: the block stays,
 * but on a page that claims to be an article only loosely it is one part of a category, a section
 * front or a thread, and the page is first read as such a page (see {@link readAsOtherPage}).
 */
async function readUnextendedBlock(
  log: CascadeLog,
  page: Document,
  block: BlockAndWhole,
  wholeRun: DefuddleRun,
): Promise<RouteOutcome> {
  const { chosen, chosenWords, blockTitle, whole, wholeError } = block;
  const other = log.looseArticle ? await readAsOtherPage(log, page, wholeRun) : undefined;
  if (other !== undefined) return other;
  passOverDefuddle(log, whole, wholeError, PASSED_OVER.notExtended(chosenWords));
  return finishStage(log, 'readability', chosen, blockTitle);
}

/**
 * The page read as a page of another kind (see `readOtherPage`: Defuddle on the whole page, widened
 * to the whole series), for a page that claims to be an article only loosely (see
 * `claimsArticleLoosely`); undefined, with nothing recorded, unless that gives Defuddle's usable
 * article. The spread region is not taken: on a story that prints its date only as text it takes in
 * the page around the story. `whole` is Defuddle's run on the whole page, which the article route has
 * made.
 */
async function readAsOtherPage(
  log: CascadeLog,
  page: Document,
  whole: DefuddleRun,
): Promise<RouteOutcome | undefined> {
  const recorded = log.parserFailures.length;
  const other = await readOtherPage({ ...log, kind: 'other' }, page, { spread: false, whole });
  if (other.article?.stage === 'defuddle') return other;
  log.parserFailures.length = recorded;
  return undefined;
}
