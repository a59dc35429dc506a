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

/** A word shaped `name:value`, with an optional `-` before it. */
const OPERATOR = /^(-?)([a-z]+):(.*)$/i;

/** Words that join terms rather than name a topic. */
const CONNECTIVES = new Set(['', 'OR', 'AND', '|']);

/** What the reading of a query gathers, in the order it meets it. */
interface QueryParts {
  phrases: string[];
  excluded: string[];
  terms: string[];
  /** The written forms of each term, keyed by the folded term. */
  writtenForms: Map<string, string[]>;
  sites: SiteOperator[];
  excludedSites: SiteOperator[];
}

/**
 * Splits a query into phrases, terms, exclusions and `site:` hosts. `OR`/`AND` and operators other
 * than `site:` (such as `filetype:`) do not constrain the gate.
 */
export function parseSearchQuery(query: string): ParsedQuery {
  const parts: QueryParts = {
    phrases: [],
    excluded: [],
    terms: [],
    writtenForms: new Map(),
    sites: [],
    excludedSites: [],
  };
  // Quoted phrases are taken out first, so the words inside them are not read as terms too.
  const withoutQuotes = query.replace(QUOTED, (_match, minus: string, phrase: string) => {
    const folded = foldText(phrase);
    if (folded !== '') (minus === '-' ? parts.excluded : parts.phrases).push(folded);
    return ' ';
  });
  for (const word of withoutQuotes.split(/\s+/)) readWord(word, parts);
  const { phrases, terms, writtenForms, excluded, sites, excludedSites } = parts;
  return {
    phrases,
    terms,
    termForms: terms.map((term) => writtenForms.get(term)!),
    excluded,
    sites,
    excludedSites,
  };
}

/** Reads one unquoted word as a connective, an operator, an exclusion or terms. */
function readWord(word: string, parts: QueryParts): void {
  if (CONNECTIVES.has(word)) return;
  const operator = OPERATOR.exec(word);
  if (operator) {
    readOperator(operator[1]!, operator[2]!, operator[3]!, parts);
    return;
  }
  if (word.startsWith('-') && word.length > 1) {
    const folded = foldText(word.slice(1));
    if (folded !== '') parts.excluded.push(folded);
    return;
  }
  readTerms(word, parts);
}

/** Keeps a `site:` or `-site:` operator that names a host; other operators are dropped. */
function readOperator(minus: string, name: string, value: string, parts: QueryParts): void {
  if (name.toLowerCase() !== 'site' || value === '') return;
  const site = parseSiteOperator(value);
  if (site !== undefined) (minus === '' ? parts.sites : parts.excludedSites).push(site);
}

/** Adds the significant terms of one plain word, with the forms they are written in. */
function readTerms(word: string, parts: QueryParts): void {
  for (const piece of word
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)) {
    const tokens = foldText(piece).split(' ');
    // A piece that folds to a single token keeps its written form (diacritics and all); the tokens
    // of a piece that folding splits apart are their own forms.
    for (const token of tokens) {
      if (isSignificantTerm(token)) addTerm(token, tokens.length === 1 ? piece : token, parts);
    }
  }
}

/** Whether a folded token names a topic: not a stopword, and not a lone Latin letter. */
function isSignificantTerm(token: string): boolean {
  if (token === '' || STOPWORDS.has(token)) return false;
  return token.length > 1 || /[^\p{Script=Latin}\p{N}]/u.test(token);
}

/** Records a term on its first sighting, and each written form of it once. */
function addTerm(term: string, form: string, parts: QueryParts): void {
  let forms = parts.writtenForms.get(term);
  if (forms === undefined) {
    forms = [];
    parts.writtenForms.set(term, forms);
    parts.terms.push(term);
  }
  if (!forms.includes(form)) forms.push(form);
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
