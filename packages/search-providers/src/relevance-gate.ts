import { domainToUnicode } from 'node:url';
import { foldText, hostMatchesSites, type ParsedQuery, parseSearchQuery } from './parse-search-query.js';
import type { SearchResult } from './search-result.js';

/** The shortest term that may match another word by shared prefix (plural, inflection). */
export const MIN_PREFIX_MATCH_LENGTH = 4;
/** The most characters a prefix match may leave over (`index` ~ `indexes`, not `in` ~ `internal`). */
export const MAX_PREFIX_MATCH_SUFFIX = 3;

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

function termMatches(term: string, words: ReadonlySet<string>, folded: string): boolean {
  if (UNSPACED_SCRIPT.test(term)) return folded.includes(joinUnspaced(term));
  if (words.has(term)) return true;
  if (term.length < MIN_PREFIX_MATCH_LENGTH) return false;
  for (const word of words) {
    const [shorter, longer] = word.length < term.length ? [word, term] : [term, word];
    if (
      shorter.length >= MIN_PREFIX_MATCH_LENGTH &&
      longer.startsWith(shorter) &&
      longer.length - shorter.length <= MAX_PREFIX_MATCH_SUFFIX
    ) {
      return true;
    }
  }
  return false;
}

/** How many of the query's terms a result must contain: all of one or two, half (rounded up) of more. */
export function requiredTermMatches(termCount: number): number {
  return termCount <= 2 ? termCount : Math.ceil(termCount / 2);
}

/**
 * Whether one result is relevant to a parsed query. The rule, applied to the folded text of title,
 * snippet and URL (lower case, no diacritics, punctuation as spaces):
 * 1. every quoted phrase appears as a whole-word sequence;
 * 2. no excluded (`-word`, `-"phrase"`) term or phrase appears;
 * 3. with `site:` operators, the result's host lies in one of the named domains;
 * 4. at least {@link requiredTermMatches} of the distinct unquoted terms appear, a term matching a word
 *    that equals it or extends it (or that it extends) by at most {@link MAX_PREFIX_MATCH_SUFFIX}
 *    characters when the shorter is {@link MIN_PREFIX_MATCH_LENGTH}+ long.
 */
export function isRelevant(result: SearchResult, query: ParsedQuery): boolean {
  let host: string;
  let urlText: string;
  try {
    const url = new URL(result.url);
    host = url.hostname;
    // An internationalized host reads in its own script (`xn--mnchen-3ya.de` is `münchen.de`).
    urlText = `${domainToUnicode(url.hostname) || url.hostname} ${decodeLeniently(url.pathname)}`;
  } catch {
    return false;
  }
  if (!hostMatchesSites(host, query.sites)) return false;
  const folded = ` ${joinUnspaced(foldText(`${result.title} ${result.snippet} ${urlText}`))} `;
  const words = new Set(folded.split(' '));
  words.delete('');
  if (!query.phrases.every((phrase) => containsPhrase(folded, phrase))) return false;
  if (query.excluded.some((term) => containsPhrase(folded, term))) return false;
  const matched = query.terms.filter((term) => termMatches(term, words, folded)).length;
  return matched >= requiredTermMatches(query.terms.length);
}

/** Results split by the gate, order kept. */
export interface RelevanceOutcome<Result extends SearchResult> {
  /** Results that satisfy the rule of {@link isRelevant}. */
  relevant: Result[];
  /** How many results failed it. */
  irrelevant: number;
}

/** Applies the relevance gate of {@link isRelevant} to a list for one query string. */
export function applyRelevanceGate<Result extends SearchResult>(
  results: readonly Result[],
  query: string,
): RelevanceOutcome<Result> {
  const parsed = parseSearchQuery(query);
  const relevant = results.filter((result) => isRelevant(result, parsed));
  return { relevant, irrelevant: results.length - relevant.length };
}
