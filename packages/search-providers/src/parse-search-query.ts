import { hostInDomain, normalizeHost } from './domain-filter.js';

/** One `site:` operator as a result URL is compared with it. */
export interface SiteOperator {
  /** The host, lower-case ASCII (punycode for an internationalized name), without a trailing dot. */
  host: string;
  /**
   * A path prefix (`/3/`), percent-encoded as a URL parser writes it, or `''` for the whole host. A
   * result lies under it when its path equals it or continues it past a `/`.
   */
  path: string;
}

/** What the relevance gate reads out of a query string. */
export interface ParsedQuery {
  /** Quoted phrases (straight or curly quotes), folded for matching. */
  phrases: string[];
  /** Significant terms outside quotes and operators, folded, without stopwords. */
  terms: string[];
  /**
   * The written forms of each of `terms` (same index), lower-case but not folded, for stemmers that
   * need the diacritics a language writes (`häuser`, `москве`).
   */
  termForms: string[][];
  /** Terms and phrases prefixed with `-`, folded. */
  excluded: string[];
  /** What `site:` operators name (a result must lie under one of them). */
  sites: SiteOperator[];
  /** What `-site:` operators name (a result must lie under none of them). */
  excludedSites: SiteOperator[];
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
  const writtenForms = new Map<string, string[]>();
  const sites: SiteOperator[] = [];
  const excludedSites: SiteOperator[] = [];
  for (const word of withoutQuotes.split(/\s+/)) {
    if (word === '' || word === 'OR' || word === 'AND' || word === '|') continue;
    const operator = /^(-?)([a-z]+):(.*)$/i.exec(word);
    if (operator) {
      const [, minus, name, value] = operator;
      if (name!.toLowerCase() === 'site' && value) {
        const site = parseSiteOperator(value);
        if (site !== undefined) (minus === '' ? sites : excludedSites).push(site);
      }
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      const folded = foldText(word.slice(1));
      if (folded !== '') excluded.push(folded);
      continue;
    }
    for (const piece of word
      .normalize('NFC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}\p{M}]+/u)) {
      const tokens = foldText(piece).split(' ');
      for (const token of tokens) {
        if (token === '' || STOPWORDS.has(token)) continue;
        if (!(token.length > 1 || /[^\p{Script=Latin}\p{N}]/u.test(token))) continue;
        let forms = writtenForms.get(token);
        if (forms === undefined) {
          forms = [];
          writtenForms.set(token, forms);
          terms.push(token);
        }
        const form = tokens.length === 1 ? piece : token;
        if (!forms.includes(form)) forms.push(form);
      }
    }
  }
  return {
    phrases,
    terms,
    termForms: terms.map((term) => writtenForms.get(term)!),
    excluded,
    sites,
    excludedSites,
  };
}

/**
 * Reads a `site:` value the way people write it: `Example.COM`, `https://docs.python.org`,
 * `münchen.de` or `xn--mnchen-3ya.de`, `example.com.`, `example.com:8443`, `*.example.com`,
 * `docs.python.org/3/`. The scheme, port, user part, query and fragment are ignored. `undefined` when
 * no host is left.
 */
export function parseSiteOperator(value: string): SiteOperator | undefined {
  let rest = value.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const pathStart = rest.search(/[/?#]/);
  let authority = pathStart === -1 ? rest : rest.slice(0, pathStart);
  rest = pathStart === -1 ? '' : rest.slice(pathStart);
  authority = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  const host = normalizeHost(authority.replace(/^\*?\./, ''));
  if (host === '') return undefined;
  const pathOnly = rest.replace(/[?#].*$/, '');
  if (pathOnly === '' || pathOnly === '/') return { host, path: '' };
  let path: string;
  try {
    // The parser percent-encodes and resolves dot segments exactly as it does for result URLs.
    path = new URL(pathOnly, 'http://site.invalid').pathname;
  } catch {
    path = pathOnly;
  }
  return { host, path };
}

/** Whether a result URL lies under one `site:` operator: inside its host, and under its path if any. */
export function urlUnderSite(url: URL, site: SiteOperator): boolean {
  if (!hostInDomain(url.hostname, site.host)) return false;
  if (site.path === '') return true;
  const path = url.pathname;
  if (site.path.endsWith('/')) return path.startsWith(site.path) || `${path}/` === site.path;
  return path === site.path || path.startsWith(`${site.path}/`);
}

/**
 * Whether a result URL satisfies the `site:` operators of a query: under one of `sites` (when any)
 * and under none of `excludedSites`.
 */
export function urlMatchesSites(
  url: URL,
  query: Pick<ParsedQuery, 'sites'> & Partial<Pick<ParsedQuery, 'excludedSites'>>,
): boolean {
  if (query.excludedSites?.some((site) => urlUnderSite(url, site))) return false;
  return query.sites.length === 0 || query.sites.some((site) => urlUnderSite(url, site));
}
