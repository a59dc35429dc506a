import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from './parse-search-query.js';
import { applyRelevanceGate, isRelevant, requiredTermMatches } from './relevance-gate.js';

const result = (title: string, snippet = '', url = 'https://example.com/page') => ({ title, snippet, url });

describe('parseSearchQuery', () => {
  it('separates phrases, terms, exclusions and site operators', () => {
    expect(
      parseSearchQuery('"rate limit" node.js -deprecated site:docs.example.com OR undici filetype:pdf'),
    ).toEqual({
      phrases: ['rate limit'],
      terms: ['node', 'js', 'undici'],
      excluded: ['deprecated'],
      sites: ['docs.example.com'],
    });
  });

  it('reads curly quotes, excluded phrases and drops stopwords', () => {
    expect(parseSearchQuery('“Café Crème” -"instant coffee" the history of')).toEqual({
      phrases: ['cafe creme'],
      terms: ['history'],
      excluded: ['instant coffee'],
      sites: [],
    });
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
