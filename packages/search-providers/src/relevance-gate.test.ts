import { describe, expect, it } from 'vitest';
import { parseSearchQuery, parseSiteOperator, urlUnderSite } from './parse-search-query.js';
import {
  applyRelevanceGate,
  isRelevant,
  MAX_INFLECTION_ENDING,
  requiredTermMatches,
} from './relevance-gate.js';

const result = (title: string, snippet = '', url = 'https://example.com/page') => ({ title, snippet, url });

describe('parseSearchQuery', () => {
  it('separates phrases, terms, exclusions and site operators', () => {
    expect(
      parseSearchQuery('"rate limit" node.js -deprecated site:docs.example.com OR undici filetype:pdf'),
    ).toEqual({
      phrases: ['rate limit'],
      terms: ['node', 'js', 'undici'],
      termForms: [['node'], ['js'], ['undici']],
      excluded: ['deprecated'],
      sites: [{ host: 'docs.example.com', path: '' }],
      excludedSites: [],
    });
  });

  it('reads curly quotes, excluded phrases and drops stopwords', () => {
    expect(parseSearchQuery('“Café Crème” -"instant coffee" the history of')).toEqual({
      phrases: ['cafe creme'],
      terms: ['history'],
      termForms: [['history']],
      excluded: ['instant coffee'],
      sites: [],
      excludedSites: [],
    });
  });

  it('keeps the written form of each term beside its folded one', () => {
    expect(parseSearchQuery('Häuser Москве').termForms).toEqual([['häuser'], ['москве']]);
  });
});

describe('parseSiteOperator', () => {
  it('reads site: values as hosts are compared', () => {
    const expected = { host: 'xn--mnchen-3ya.de', path: '' };
    for (const written of [
      'münchen.de',
      'MÜNCHEN.DE',
      'xn--mnchen-3ya.de',
      'https://münchen.de/',
      'münchen.de.',
    ]) {
      expect(parseSiteOperator(written)).toEqual(expected);
    }
    expect(parseSiteOperator('HTTPS://Docs.Python.org:443/3/')).toEqual({
      host: 'docs.python.org',
      path: '/3/',
    });
    expect(parseSiteOperator('*.example.com/a b')).toEqual({ host: 'example.com', path: '/a%20b' });
    expect(parseSiteOperator('https://')).toBeUndefined();
  });

  it('keeps results under a path prefix, with or without its trailing slash', () => {
    const slash = parseSiteOperator('docs.python.org/3/')!;
    const bare = parseSiteOperator('docs.python.org/3')!;
    for (const site of [slash, bare]) {
      expect(urlUnderSite(new URL('https://docs.python.org/3/library/os.html'), site)).toBe(true);
      expect(urlUnderSite(new URL('https://docs.python.org/3/'), site)).toBe(true);
      expect(urlUnderSite(new URL('https://docs.python.org/3'), site)).toBe(true);
      expect(urlUnderSite(new URL('https://docs.python.org/2/library/os.html'), site)).toBe(false);
      expect(urlUnderSite(new URL('https://docs.python.org/35/'), site)).toBe(false);
      expect(urlUnderSite(new URL('https://eu.docs.python.org/3/x'), site)).toBe(true);
    }
  });
});

describe('isRelevant', () => {
  it('requires every quoted phrase as a word sequence', () => {
    const query = parseSearchQuery('"exact phrase" tool');
    expect(isRelevant(result('An Exact Phrase tool'), query)).toBe(true);
    expect(isRelevant(result('Exact, phrase-matching tool'), query)).toBe(true);
    expect(isRelevant(result('exact tooling phrase'), query)).toBe(false);
    expect(isRelevant(result('inexact phrase tool'), query)).toBe(false);
  });

  it('requires all of one or two terms and half of more', () => {
    expect(requiredTermMatches(0)).toBe(0);
    expect(requiredTermMatches(2)).toBe(2);
    expect(requiredTermMatches(3)).toBe(2);
    expect(requiredTermMatches(5)).toBe(3);
    const two = parseSearchQuery('undici interceptors');
    expect(isRelevant(result('undici interceptors explained'), two)).toBe(true);
    expect(isRelevant(result('undici release notes'), two)).toBe(false);
    const four = parseSearchQuery('postgres vacuum autovacuum tuning');
    expect(isRelevant(result('Tuning autovacuum'), four)).toBe(true);
    expect(isRelevant(result('Postgres release notes'), four)).toBe(false);
  });

  it('matches inflections within the prefix bound only', () => {
    const query = parseSearchQuery('index');
    expect(isRelevant(result('Indexes in practice'), query)).toBe(true);
    expect(isRelevant(result('Indexing'), query)).toBe(true);
    expect(isRelevant(result('Independence day'), query)).toBe(false);
    expect(isRelevant(result('Indexability rules'), query)).toBe(false);
  });

  it('counts words in the URL and folds diacritics', () => {
    expect(
      isRelevant(
        result('Home', '', 'https://example.com/guides/creme-brulee'),
        parseSearchQuery('crème brûlée'),
      ),
    ).toBe(true);
  });

  it('enforces site: and exclusions', () => {
    const query = parseSearchQuery('pricing site:example.com -enterprise');
    expect(isRelevant(result('Pricing', '', 'https://shop.example.com/pricing'), query)).toBe(true);
    expect(isRelevant(result('Pricing', '', 'https://example.org/pricing'), query)).toBe(false);
    expect(isRelevant(result('Enterprise pricing', '', 'https://example.com/p'), query)).toBe(false);
  });

  it('matches inflected forms through the stemmer of the query or its language', () => {
    expect(isRelevant(result('Largest cities of Europe'), parseSearchQuery('city'))).toBe(true);
    expect(isRelevant(result('Погода в Москве'), parseSearchQuery('Москва погода'))).toBe(true);
    expect(isRelevant(result('Alte Häuser'), parseSearchQuery('Haus alt'), { language: 'de' })).toBe(true);
    expect(isRelevant(result('Las ciudades de España'), parseSearchQuery('ciudad'), { language: 'es' })).toBe(
      true,
    );
    // Derived words, unrelated words and quoted phrases stay out.
    expect(isRelevant(result('Organization chart'), parseSearchQuery('organize'))).toBe(false);
    expect(isRelevant(result('Cityscape photos'), parseSearchQuery('cities'))).toBe(false);
    expect(isRelevant(result('Big cities guide'), parseSearchQuery('"big city"'))).toBe(false);
    expect(isRelevant(result('Погода в Казани'), parseSearchQuery('Москва погода'))).toBe(false);
  });

  it('accepts a shared stem only within MAX_INFLECTION_ENDING characters of ending', () => {
    expect(MAX_INFLECTION_ENDING).toBe(4);
    const stemmers = [(word: string) => word.slice(0, 3)];
    const query = parseSearchQuery('abcx');
    // `abcx` and `abcdefg` share the stem `abc` and the start `abc`: endings of 1 and 4 characters.
    expect(isRelevant(result('abcdefg'), query, { stemmers })).toBe(true);
    expect(isRelevant(result('abcdefgh'), query, { stemmers })).toBe(false);
  });

  it('matches scripts without spaces by substring', () => {
    const query = parseSearchQuery('東京 天気');
    expect(isRelevant(result('今日の東京の天気予報'), query)).toBe(true);
    expect(isRelevant(result('大阪の天気'), query)).toBe(false);
  });

  it('rejects results whose URL cannot be parsed', () => {
    expect(isRelevant({ title: 'x', snippet: '', url: 'not a url' }, parseSearchQuery('x'))).toBe(false);
  });
});

describe('applyRelevanceGate', () => {
  it('keeps order and counts what it dropped', () => {
    const outcome = applyRelevanceGate(
      [result('Rust borrow checker'), result('Cooking pasta'), result('The borrow checker in Rust')],
      'rust borrow checker',
    );
    expect(outcome.relevant.map((entry) => entry.title)).toEqual([
      'Rust borrow checker',
      'The borrow checker in Rust',
    ]);
    expect(outcome.irrelevant).toBe(1);
  });
});
