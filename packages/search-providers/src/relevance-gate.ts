import { domainToUnicode } from 'node:url';
import { type Stemmer, stemmersForQuery } from './inflection.js';
import { foldText, type ParsedQuery, parseSearchQuery, urlMatchesSites } from './parse-search-query.js';
import type { SearchResult } from './search-result.js';

/** The shortest term that may match another word by shared prefix (plural, inflection). */
export const MIN_PREFIX_MATCH_LENGTH = 4;
/** The most characters a prefix match may leave over (`index` ~ `indexes`, not `in` ~ `internal`). */
export const MAX_PREFIX_MATCH_SUFFIX = 3;
/**
 * The most characters a word and a query term sharing a stem may each have past their common start:
 * an inflection changes an ending (`city` ~ `cities`, `москва` ~ `москвами`), while a longer tail is
 * a derived word the stemmer also cut down (`index` is not `indexability`).
 */
export const MAX_INFLECTION_ENDING = 4;

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) and
 * Korean, whose particles attach to the word: a term or phrase in them matches as a substring.
 */
const UNSPACED_SCRIPT =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Thai}\p{Script_Extensions=Lao}\p{Script_Extensions=Khmer}\p{Script_Extensions=Myanmar}\p{Script_Extensions=Hangul}]/u;

/**
 * Whether folded text (padded with spaces) contains a folded phrase: as a whole-word sequence, or,
 * where the phrase starts or ends in a script without word spaces, with that end open.
 */
function containsPhrase(folded: string, phrase: string): boolean {
  if (!UNSPACED_SCRIPT.test(phrase)) return folded.includes(` ${phrase} `);
  phrase = joinUnspaced(phrase);
  const open = (character: string | undefined) => character !== undefined && UNSPACED_SCRIPT.test(character);
  const characters = [...phrase];
  const before = open(characters[0]) ? '' : ' ';
  const after = open(characters[characters.length - 1]) ? '' : ' ';
  return folded.includes(`${before}${phrase}${after}`);
}

const SPACE_INSIDE_UNSPACED = new RegExp(`(${UNSPACED_SCRIPT.source}) (?=${UNSPACED_SCRIPT.source})`, 'gu');

/** Drops a space between two characters of unspaced scripts, where it is punctuation folded away. */
function joinUnspaced(text: string): string {
  return UNSPACED_SCRIPT.test(text) ? text.replace(SPACE_INSIDE_UNSPACED, '$1') : text;
}

/** Percent-decodes what decodes; a bare or broken `%` sequence stays as written. */
function decodeLeniently(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The words of a text, lower-case in their written form (diacritics kept), for a stemmer. */
function writtenWords(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((word) => word !== '');
}

/**
 * Stems of words under each of a query's stemmers, each folded like the text it is compared in.
 * A word is stemmed as written and as folded, so `Häuser` and `Hauser` reach the same stem.
 */
class StemIndex {
  readonly #stemmers: readonly Stemmer[];
  readonly #memo: Map<string, string>[];

  constructor(stemmers: readonly Stemmer[]) {
    this.#stemmers = stemmers;
    this.#memo = stemmers.map(() => new Map());
  }

  get empty(): boolean {
    return this.#stemmers.length === 0;
  }

  /** The stems of `words` under stemmer `index`, each with the folded words that reach it. */
  stems(index: number, words: Iterable<string>): Map<string, string[]> {
    const stems = new Map<string, string[]>();
    for (const word of words) {
      const folded = foldText(word);
      if (folded === '' || folded.includes(' ')) continue;
      for (const form of new Set([word, folded])) {
        const stem = this.#stem(index, form);
        if (stem === '') continue;
        const reaching = stems.get(stem);
        if (reaching === undefined) stems.set(stem, [folded]);
        else if (!reaching.includes(folded)) reaching.push(folded);
      }
    }
    return stems;
  }

  /** One map of stems per stemmer for the words of a text. */
  textStems(words: readonly string[]): Map<string, string[]>[] {
    return this.#stemmers.map((_stemmer, index) => this.stems(index, words));
  }

  #stem(index: number, word: string): string {
    const memo = this.#memo[index]!;
    let stem = memo.get(word);
    if (stem === undefined) {
      let raw: string;
      try {
        raw = this.#stemmers[index]!(word);
      } catch {
        raw = word;
      }
      stem = foldText(raw);
      memo.set(word, stem);
    }
    return stem;
  }
}

/** A query's stemmers, and the stems of one result's text under them, computed when first needed. */
interface ResultStems {
  index: StemIndex;
  text: () => Map<string, string[]>[];
}

function termMatches(
  term: string,
  forms: readonly string[],
  words: ReadonlySet<string>,
  folded: string,
  stems: ResultStems,
): boolean {
  if (UNSPACED_SCRIPT.test(term)) return folded.includes(joinUnspaced(term));
  if (words.has(term)) return true;
  return matchesByPrefix(term, words) || matchesByStem(term, forms, stems);
}

/** Whether a word of the text extends the term, or the term extends it, by a few characters. */
function matchesByPrefix(term: string, words: ReadonlySet<string>): boolean {
  if (term.length < MIN_PREFIX_MATCH_LENGTH) return false;
  for (const word of words) if (extendsBriefly(term, word)) return true;
  return false;
}

/** Whether the longer of two words starts with the shorter and goes on past it only a little. */
function extendsBriefly(term: string, word: string): boolean {
  const [shorter, longer] = word.length < term.length ? [word, term] : [term, word];
  return (
    shorter.length >= MIN_PREFIX_MATCH_LENGTH &&
    longer.startsWith(shorter) &&
    longer.length - shorter.length <= MAX_PREFIX_MATCH_SUFFIX
  );
}

/**
 * Whether the text holds an inflected form of the term (`cities` for `city`, `Москве` for `Москва`):
 * the same stem under one stemmer, and endings short enough to be inflection rather than derivation.
 */
function matchesByStem(term: string, forms: readonly string[], stems: ResultStems): boolean {
  if (stems.index.empty) return false;
  const textStems = stems.text();
  for (let index = 0; index < textStems.length; index += 1) {
    for (const [stem, termWords] of stems.index.stems(index, [term, ...forms])) {
      const reaching = textStems[index]!.get(stem);
      if (reaching !== undefined && someInflection(termWords, reaching)) return true;
    }
  }
  return false;
}

/** Whether any word of the text is an inflection of any of the term's words. */
function someInflection(termWords: readonly string[], textWords: readonly string[]): boolean {
  return textWords.some((word) => termWords.some((own) => inflectionOf(own, word)));
}

/** Whether two words differ only past a common start, by at most {@link MAX_INFLECTION_ENDING} each. */
function inflectionOf(first: string, second: string): boolean {
  let common = 0;
  while (common < first.length && common < second.length && first[common] === second[common]) common += 1;
  return (
    common > 0 &&
    first.length - common <= MAX_INFLECTION_ENDING &&
    second.length - common <= MAX_INFLECTION_ENDING
  );
}

/** How many of the query's terms a result must contain: all of one or two, half (rounded up) of more. */
export function requiredTermMatches(termCount: number): number {
  return termCount <= 2 ? termCount : Math.ceil(termCount / 2);
}

/** Options of the relevance gate. */
export interface RelevanceOptions {
  /** The search's `language` tag; it picks the stemmer (otherwise the query's script does). */
  language?: string;
  /** Stemmers to use instead of those the query and language pick (an empty list: exact and prefix only). */
  stemmers?: readonly Stemmer[];
}

/**
 * Whether one result is relevant to a parsed query. The rule, applied to the folded text of title,
 * snippet and URL (lower case, no diacritics, punctuation as spaces):
 * 1. every quoted phrase appears as a whole-word sequence (exactly: phrases are never stemmed);
 * 2. no excluded (`-word`, `-"phrase"`) term or phrase appears;
 * 3. with `site:` operators, the result's URL lies under one of them (host and subdomains, and the
 *    path prefix when one is given) and under no `-site:` one;
 * 4. at least {@link requiredTermMatches} of the distinct unquoted terms appear, a term matching a word
 *    that equals it, that extends it (or that it extends) by at most {@link MAX_PREFIX_MATCH_SUFFIX}
 *    characters when the shorter is {@link MIN_PREFIX_MATCH_LENGTH}+ long, or that shares its stem
 *    under the query's stemmer (see {@link stemmersForQuery}).
 */
export function isRelevant(
  result: SearchResult,
  query: ParsedQuery,
  options: RelevanceOptions = {},
): boolean {
  const stemmers =
    options.stemmers ??
    stemmersForQuery([...query.terms, ...query.termForms.flat()].join(' '), options.language);
  return isRelevantWith(result, query, new StemIndex(stemmers));
}

function isRelevantWith(result: SearchResult, query: ParsedQuery, stemIndex: StemIndex): boolean {
  let url: URL;
  let urlText: string;
  try {
    url = new URL(result.url);
    // An internationalized host reads in its own script (`xn--mnchen-3ya.de` is `münchen.de`).
    urlText = `${domainToUnicode(url.hostname) || url.hostname} ${decodeLeniently(url.pathname)}`;
  } catch {
    return false;
  }
  if (!urlMatchesSites(url, query)) return false;
  const text = `${result.title} ${result.snippet} ${urlText}`;
  const folded = ` ${joinUnspaced(foldText(text))} `;
  const words = new Set(folded.split(' '));
  words.delete('');
  if (!query.phrases.every((phrase) => containsPhrase(folded, phrase))) return false;
  if (query.excluded.some((term) => containsPhrase(folded, term))) return false;
  let textStems: Map<string, string[]>[] | undefined;
  const stems: ResultStems = {
    index: stemIndex,
    text: () => {
      textStems ??= stemIndex.textStems(writtenWords(text));
      return textStems;
    },
  };
  const matched = query.terms.filter((term, index) =>
    termMatches(term, query.termForms[index] ?? [], words, folded, stems),
  ).length;
  return matched >= requiredTermMatches(query.terms.length);
}

/** Results split by the gate, order kept. */
export interface RelevanceOutcome<Result extends SearchResult> {
  /** Results that satisfy the rule of {@link isRelevant}. */
  relevant: Result[];
  /** How many results failed it. */
  irrelevant: number;
}

/**
 * Applies the relevance gate of {@link isRelevant} to a list for one query string; `language` (the
 * search's tag) picks the stemmer.
 */
export function applyRelevanceGate<Result extends SearchResult>(
  results: readonly Result[],
  query: string,
  options: RelevanceOptions = {},
): RelevanceOutcome<Result> {
  const parsed = parseSearchQuery(query);
  const stemIndex = new StemIndex(
    options.stemmers ?? stemmersForQuery(query.normalize('NFC').toLowerCase(), options.language),
  );
  const relevant = results.filter((result) => isRelevantWith(result, parsed, stemIndex));
  return { relevant, irrelevant: results.length - relevant.length };
}
