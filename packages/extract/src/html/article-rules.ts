import {
  countWords,
  DEFUDDLE_MIN_OVERLAP,
  isUsableArticle,
  trigramAt,
  trigramOverlap,
  words,
} from './choose-article.js';
import { dropLinkLists } from './drop-link-lists.js';
import { markdownToText } from './markdown-to-text.js';
import type { StageArticle } from './stage-runs.js';

/**
 * The largest share of the words of Readability's block that may be left once its lists of links are
 * dropped for the block to count as a menu rather than a story (see the article route).
 */
export const MENU_BLOCK_MAX_PROSE_SHARE = 1 / 3;

/**
 * Words under which Readability's block may be a fragment of the article rather than all of it (a
 * recipe's introduction without the recipe). Such a block is compared with Defuddle's article of the
 * whole page, which wins when it holds the block and is {@link SHORT_BLOCK_MIN_GROWTH} to
 * {@link SHORT_BLOCK_MAX_GROWTH} times its words: less is a short story with the page's extras
 * around it (a news brief stays a brief), more is the whole page taken in, comments, menus and all.
 */
export const SHORT_BLOCK_MAX_WORDS = 150;
export const SHORT_BLOCK_MIN_GROWTH = 3;
export const SHORT_BLOCK_MAX_GROWTH = 8;

/**
 * Words under which Readability's block is no story at all but a box it settled on for want of one
 * (an "add to home screen" banner, a newsletter form, a footer): Defuddle's usable article of the
 * whole page then wins whether or not it holds the block.
 */
export const BANNER_BLOCK_MAX_WORDS = 50;

/**
 * The share of the page's prose (the words of its main region outside chrome and links, see
 * `regionProseWords`) under which the block an article page's route chose may be a fragment
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

/**
 * The share of the words of Readability's block that its form controls' labels hold (`<label>`,
 * `<legend>`, `<option>`, `<button>`) from which the block is a form (a newsletter sign-up, a
 * log-in dialog) rather than a story. A page wrapped whole in a form (ASP.NET Web Forms) keeps its
 * text in paragraphs, not in labels.
 */
export const FORM_BLOCK_MIN_LABEL_SHARE = 1 / 2;

const FORM_LABELS = 'label, legend, option, button';
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * Whether Readability's block (`block`, parsed) is a form: its labels hold at least
 * {@link FORM_BLOCK_MIN_LABEL_SHARE} of its words.
 */
export function isFormBlock(block: Element): boolean {
  // Each text node counted on its own: adjacent labels' words never run together.
  let total = 0;
  let labelled = 0;
  const pending: Node[] = [block];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === ELEMENT_NODE) {
        const name = (child as Element).localName;
        if (name !== 'script' && name !== 'style') pending.push(child);
        continue;
      }
      if (child.nodeType !== TEXT_NODE) continue;
      const count = countWords(child.nodeValue ?? '');
      total += count;
      if (child.parentElement?.closest(FORM_LABELS) != null) labelled += count;
    }
  }
  return total > 0 && labelled >= FORM_BLOCK_MIN_LABEL_SHARE * total;
}

/**
 * Whether Readability's block is the site's menu: without its lists of links (`prose`), it keeps
 * under {@link MENU_BLOCK_MAX_PROSE_SHARE} of its words.
 */
export function isMenuBlock(prose: StageArticle, block: StageArticle): boolean {
  return countWords(prose.text) < MENU_BLOCK_MAX_PROSE_SHARE * countWords(block.text);
}

/** Whether a block of `words` words may be a fragment of its article (see {@link SHORT_BLOCK_MAX_WORDS}). */
export function isShortBlock(words: number): boolean {
  return words < SHORT_BLOCK_MAX_WORDS;
}

/**
 * Whether a block of `words` words is a box Readability settled on for want of a story (see
 * {@link BANNER_BLOCK_MAX_WORDS}).
 */
export function isBannerBlock(words: number): boolean {
  return words < BANNER_BLOCK_MAX_WORDS;
}

/**
 * Whether a block of `words` words holds under {@link FRAGMENT_MAX_SHARE} of the page's prose
 * (`pageWords`), and so may be a fragment of the story.
 */
export function isFragmentOfPage(words: number, pageWords: number): boolean {
  return words < FRAGMENT_MAX_SHARE * pageWords;
}

/** The article without its link-only lists, unless those lists are all it has. */
export function withoutLinkLists(article: StageArticle): StageArticle {
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
export function extendsBlock(whole: StageArticle, block: string): boolean {
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
export function withoutLinks(markdown: string): string {
  // Innermost first: an image, then the link around it. Deeper nesting is not Markdown's.
  let rest = markdown;
  for (let pass = 0; pass < 2; pass++) rest = rest.replace(/!?\[[^[\]]*\](?:\([^()]*\))?/g, ' ');
  return rest;
}

/** Words from which a line of text is a paragraph's (prose), not a list's entry, a name or a table's row. */
export const PROSE_LINE_MIN_WORDS = 12;

/** The largest share of its words a block may hold in paragraph lines to be a list rather than prose. */
export const LISTED_BLOCK_MAX_PROSE_SHARE = 0.25;

/**
 * The words, as a share of a listed block's, that Defuddle's article must hold in paragraph lines
 * besides the block's own for it to be the story around the list.
 */
export const LISTED_BLOCK_MIN_STORY_SHARE = 0.5;

/** Words in paragraph lines (see {@link PROSE_LINE_MIN_WORDS}) of `text`, and all its words. */
function proseWords(text: string): { prose: number; all: number } {
  let prose = 0;
  let all = 0;
  for (const line of text.split('\n')) {
    const count = countWords(line);
    all += count;
    if (count >= PROSE_LINE_MIN_WORDS) prose += count;
  }
  return { prose, all };
}

/**
 * Whether Readability's block `block` is a list the story carries (signatories, a roster, a table of
 * names), which Readability picks for its many commas, and Defuddle's article `whole` holds it with
 * the story's prose: at most {@link LISTED_BLOCK_MAX_PROSE_SHARE} of the block's words are in
 * paragraph lines, most of its word trigrams are in `whole`, and `whole`'s paragraph lines hold,
 * besides the block's own, {@link LISTED_BLOCK_MIN_STORY_SHARE} of the block's words or more.
 */
export function holdsListedBlock(whole: StageArticle, block: string): boolean {
  if (!isUsableArticle(whole.text)) return false;
  const inBlock = proseWords(block);
  if (inBlock.prose > LISTED_BLOCK_MAX_PROSE_SHARE * inBlock.all) return false;
  if (proseWords(whole.text).prose - inBlock.prose < LISTED_BLOCK_MIN_STORY_SHARE * inBlock.all) return false;
  return trigramOverlap(words(block), words(whole.text)) >= DEFUDDLE_MIN_OVERLAP;
}
