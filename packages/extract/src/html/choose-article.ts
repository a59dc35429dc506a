/** A stage's candidate article, reduced to what the choice needs. */
export interface ArticleCandidate {
  /** The stage's Markdown. */
  markdown: string;
  /** The same reduced to plain text. */
  text: string;
}

/**
 * The shortest share of Readability's words a Defuddle article may keep and still win. Defuddle
 * removes boilerplate (share boxes, related links) that Readability keeps, so a somewhat shorter
 * Defuddle article is usually the cleaner one; a much shorter one has usually lost article text or,
 * run on the whole page, picked another block.
 */
export const DEFUDDLE_MIN_WORD_SHARE = 2 / 3;

/** The share of Defuddle's word trigrams that must also be in Readability's article (the same block). */
export const DEFUDDLE_MIN_OVERLAP = 0.8;

/** Texts with at most this many words are checked for loading-shell wording. */
export const LOADING_SHELL_MAX_WORDS = 60;

const WORD = /[\p{L}\p{N}_]+/gu;
/**
 * Characters of the scripts written without spaces between words that count as one word each:
 * Chinese characters, Hiragana and Katakana (Hangul is written with spaces, and counts by them).
 * A sentence of them is one run of letters, which would count as one word: a Japanese story's
 * paragraph would weigh as much as a menu's link.
 */
const CJK_RANGES = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff66-\\uff9f';
const CJK_CHARACTER = new RegExp(`[${CJK_RANGES}]`);
/** A Chinese or Japanese letter alone, or a run of other letters, digits and `_`. */
const CJK_OR_WORD = new RegExp(
  `(?=[\\p{L}\\p{N}])[${CJK_RANGES}]|(?:(?![${CJK_RANGES}])[\\p{L}\\p{N}_])+`,
  'gu',
);
const LOADING_SHELL =
  /\b(loading|please wait|enable javascript|javascript (is )?(disabled|required|must be enabled)|requires? javascript|turn on javascript)\b/i;

/**
 * The words of a text: runs of letters, digits and `_`, as the article metric counts them, except
 * that each Chinese or Japanese character is a word of its own ({@link CJK_CHARACTER}).
 */
export function words(text: string): string[] {
  return text.match(CJK_CHARACTER.test(text) ? CJK_OR_WORD : WORD) ?? [];
}

/** Whether each ASCII code is a word character (letter, digit or `_`). */
const ASCII_WORD = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  ASCII_WORD[code] = /[A-Za-z0-9_]/.test(String.fromCharCode(code)) ? 1 : 0;
}
const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;
/**
 * What {@link WORD_CHARACTER} said of each code unit of the Basic Multilingual Plane met so far: 1
 * word, 2 not, 3 a word of its own ({@link CJK_CHARACTER}).
 */
const bmpWord = new Uint8Array(0x10000);

/**
 * How many words {@link words} finds in `text`, counted without building them: the stages count
 * words of every text node and candidate many times over, and the strings and arrays `words`
 * allocates for that cost more than the count.
 */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    let isWord: boolean;
    if (code < 128) {
      isWord = ASCII_WORD[code] === 1;
    } else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        // A character outside the Basic Multilingual Plane, as the metric's Unicode pattern reads it.
        isWord = WORD_CHARACTER.test(text.slice(index, index + 2));
        index++;
      } else {
        isWord = false;
      }
    } else {
      let known = bmpWord[code];
      if (known === 0) {
        const character = String.fromCharCode(code);
        known = WORD_CHARACTER.test(character) ? (CJK_CHARACTER.test(character) ? 3 : 1) : 2;
        bmpWord[code] = known;
      }
      if (known === 3) {
        // A Chinese or Japanese character is a word of its own.
        count++;
        inWord = false;
        continue;
      }
      isWord = known === 1;
    }
    if (isWord && !inWord) count++;
    inWord = isWord;
  }
  return count;
}

/** Whether a candidate can win at all: it has words and is not a "Loading…" or "enable JavaScript" shell. */
export function isUsableArticle(text: string): boolean {
  const count = countWords(text);
  if (count === 0) return false;
  return !(count <= LOADING_SHELL_MAX_WORDS && LOADING_SHELL.test(text));
}

/**
 * Picks between Defuddle's and Readability's article by measured content, not by order alone:
 * Defuddle wins when it is usable and either Readability is not, or Defuddle's article is a slightly
 * shorter version of the same block (at least `minShare` of its words); otherwise Readability's wins
 * when usable.
 */
export function chooseArticle(
  defuddle: ArticleCandidate | undefined,
  readability: ArticleCandidate | undefined,
  minShare = DEFUDDLE_MIN_WORD_SHARE,
): 'defuddle' | 'readability' | undefined {
  const defuddleUsable = defuddle !== undefined && isUsableArticle(defuddle.text);
  const readabilityUsable = readability !== undefined && isUsableArticle(readability.text);
  if (!readabilityUsable) return defuddleUsable ? 'defuddle' : undefined;
  if (!defuddleUsable) return 'readability';
  const defuddleWords = words(defuddle.text);
  const readabilityWords = words(readability.text);
  const share = defuddleWords.length / readabilityWords.length;
  if (share > 1 || share < minShare) return 'readability';
  return trigramOverlap(defuddleWords, readabilityWords) >= DEFUDDLE_MIN_OVERLAP ? 'defuddle' : 'readability';
}

/**
 * The share of `inner`'s word trigrams found among `outer`'s (for fewer than three words: 1 when
 * every word is in `outer`, else 0).
 */
export function trigramOverlap(inner: string[], outer: string[]): number {
  const { shared, total } = sharedTrigrams(inner, trigramSet(outer));
  return total === 0 ? (inner.every((word) => outer.includes(word)) ? 1 : 0) : shared / total;
}

/** The word trigrams of `list`, as keys (see {@link trigramAt}). */
export function trigramSet(list: string[]): Set<string> {
  const trigrams = new Set<string>();
  for (let index = 0; index + 2 < list.length; index++) trigrams.add(trigramAt(list, index));
  return trigrams;
}

/** How many of `inner`'s word trigrams there are, and how many of them `trigrams` holds. */
export function sharedTrigrams(
  inner: string[],
  trigrams: ReadonlySet<string>,
): { shared: number; total: number } {
  let total = 0;
  let shared = 0;
  for (let index = 0; index + 2 < inner.length; index++) {
    total++;
    if (trigrams.has(trigramAt(inner, index))) shared++;
  }
  return { shared, total };
}

/** The word trigram of `list` starting at `index`, as one key. */
export function trigramAt(list: string[], index: number): string {
  return `${list[index]} ${list[index + 1]} ${list[index + 2]}`;
}
