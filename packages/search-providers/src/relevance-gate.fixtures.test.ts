// The relevance gate on the recorded result pages (DuckDuckGo, Startpage, searx): what it admits with
// stemming and what the exact-and-prefix rules alone admit, for each page's recorded query and for
// inflected wordings of words those pages contain.
import { readFileSync } from 'node:fs';
import { parseDuckDuckGoHtml, parseStartpageHtml } from '@mono-agent/keyless-html';
import { describe, expect, it } from 'vitest';
import { applyRelevanceGate } from './relevance-gate.js';
import type { SearchResult } from './search-result.js';

const keyless = (name: string) =>
  readFileSync(new URL(`../../keyless-html/src/__fixtures__/${name}`, import.meta.url), 'utf8');

function pageResults(name: string, parse: typeof parseDuckDuckGoHtml): SearchResult[] {
  const outcome = parse({ status: 200, headers: {}, body: keyless(name) });
  return outcome.kind === 'results' ? outcome.results : [];
}

function searxResults(name: string): SearchResult[] {
  const body = JSON.parse(
    readFileSync(new URL(`./__fixtures__/searx/searx-1.1.0_${name}.json`, import.meta.url), 'utf8'),
  ) as { results: { url: string; title: string; content?: string }[] };
  return body.results.map((result) => ({
    url: result.url,
    title: result.title,
    snippet: result.content ?? '',
  }));
}

const pages: Record<string, SearchResult[]> = {
  duckduckgo: pageResults('lofi_duckduckgo-html-get-foo.html', parseDuckDuckGoHtml),
  'startpage-http': pageResults('websearchmcp_startpage-http.html', parseStartpageHtml),
  'startpage-browser': pageResults('websearchmcp_startpage-browser.html', parseStartpageHtml),
  searx: searxResults('results-local-engines'),
};

const admitted = (results: SearchResult[], query: string, stemmed: boolean) =>
  applyRelevanceGate(results, query, stemmed ? {} : { stemmers: [] }).relevant.map((result) => result.url);

// [page, query, admitted by exact and prefix matching alone, admitted with stemming]. The recorded
// queries are `foo` (DuckDuckGo), `javascript tutorial` (Startpage) and `test` (searx); every query
// also runs against the other pages, whose results are all irrelevant to it.
const table: [page: string, query: string, before: number, after: number][] = [
  ['duckduckgo', 'foo', 10, 10],
  ['duckduckgo', 'foo dictionaries', 0, 4],
  ['duckduckgo', 'foo fighter', 5, 5],
  ['duckduckgo', 'javascript tutorials', 0, 0],
  ['duckduckgo', 'queries strings', 0, 0],
  ['startpage-http', 'javascript tutorial', 10, 10],
  ['startpage-http', 'javascript tutorials', 10, 10],
  ['startpage-http', 'javascript beginner courses', 4, 4],
  ['startpage-http', 'javascript libraries', 0, 0],
  ['startpage-http', 'foo dictionaries', 0, 0],
  ['startpage-http', 'queries strings', 0, 0],
  ['startpage-browser', 'javascript tutorial', 10, 10],
  ['startpage-browser', 'javascript tutorials', 10, 10],
  ['startpage-browser', 'javascript beginner courses', 5, 5],
  ['startpage-browser', 'foo dictionaries', 0, 0],
  ['searx', 'test', 0, 0],
  ['searx', 'queries strings', 0, 1],
  ['searx', 'foo dictionaries', 0, 0],
  ['searx', 'javascript tutorials', 0, 0],
];

describe('the relevance gate on the recorded pages', () => {
  it.each(table)('%s, %j: %i admitted without stemming, %i with it', (page, query, before, after) => {
    const exact = admitted(pages[page]!, query, false);
    const stemmed = admitted(pages[page]!, query, true);
    expect([exact.length, stemmed.length]).toEqual([before, after]);
    // Stemming only adds: whatever the exact and prefix rules admit stays admitted.
    for (const url of exact) expect(stemmed).toContain(url);
  });

  it('admits, for `foo dictionaries`, exactly the dictionary pages it dropped before', () => {
    expect(admitted(pages.duckduckgo!, 'foo dictionaries', true)).toEqual([
      'https://www.dictionary.com/e/tech-science/foo/',
      'https://dictionary.cambridge.org/us/dictionary/english/foo',
      'https://en.wiktionary.org/wiki/foo',
      'https://www.merriam-webster.com/dictionary/foo',
    ]);
    // `queries strings` finds the one result whose snippet speaks of "a query string".
    expect(admitted(pages.searx!, 'queries strings', true)).toEqual(['https://example.net/gamma?x=1&y=2']);
  });
});
