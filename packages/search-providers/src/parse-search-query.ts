import { hostInDomain } from './domain-filter.js';

/** What the relevance gate reads out of a query string. */
export interface ParsedQuery {
  /** Quoted phrases (straight or curly quotes), folded for matching. */
  phrases: string[];
  /** Significant terms outside quotes and operators, folded, without stopwords. */
  terms: string[];
  /** Terms and phrases prefixed with `-`, folded. */
  excluded: string[];
  /** Hosts named by `site:` operators (a result must lie in one of them). */
  sites: string[];
}

// Small function words that carry no topic in the languages most queries are written in.
const STOPWORDS = new Set(
  (
    'a an and are as at be by for from how in into is it of on or the to was what when where which who why with ' +
    'vs via der die das und oder ein eine le la les des et ou un une el los las y o de del'
  ).split(' '),
);

/** Lower-cases, strips diacritics and folds every run of non-letters/digits into one space. */
export function foldText(text: string): string {
  // Most snippets are plain ASCII: skip the costly Unicode decomposition for them.
  if (!/[^\u0020-\u007e\s]/.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const QUOTED = /(-?)["“”„]([^"“”„]*)["“”„]/g;

/**
 * Splits a query into phrases, terms, exclusions and `site:` hosts. `OR`/`AND` and operators other
 * than `site:` (such as `filetype:`) do not constrain the gate.
 */
export function parseSearchQuery(query: string): ParsedQuery {
  const phrases: string[] = [];
  const excluded: string[] = [];
  const withoutQuotes = query.replace(QUOTED, (_match, minus: string, phrase: string) => {
    const folded = foldText(phrase);
    if (folded !== '') (minus === '-' ? excluded : phrases).push(folded);
    return ' ';
  });
  const terms: string[] = [];
  const sites: string[] = [];
  for (const word of withoutQuotes.split(/\s+/)) {
    if (word === '' || word === 'OR' || word === 'AND' || word === '|') continue;
    const operator = /^(-?)([a-z]+):(.*)$/i.exec(word);
    if (operator) {
      const [, minus, name, value] = operator;
      if (name!.toLowerCase() === 'site' && minus === '' && value) {
        sites.push(
          value
            .toLowerCase()
            .replace(/^\*?\./, '')
            .replace(/\/.*$/, ''),
        );
      }
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      const folded = foldText(word.slice(1));
      if (folded !== '') excluded.push(folded);
      continue;
    }
    for (const token of foldText(word).split(' ')) {
      if (token !== '' && !STOPWORDS.has(token)) terms.push(token);
    }
  }
  const significant = terms.filter((term) => term.length > 1 || /[^\p{Script=Latin}\p{N}]/u.test(term));
  return { phrases, terms: [...new Set(significant)], excluded, sites };
}

/** Whether a host satisfies the `site:` operators of a query (true when there are none). */
export function hostMatchesSites(host: string, sites: readonly string[]): boolean {
  return sites.length === 0 || sites.some((site) => hostInDomain(host, site));
}
