import { describe, expect, it } from 'vitest';
import { readFixture } from './__fixtures__/read-fixture.js';
import { parseDuckDuckGoHtml } from './parse-duckduckgo-html.js';
import type { KeylessParseOutcome, KeylessResult } from './parse-outcome.js';

const lofiPage = readFixture('lofi_duckduckgo-html-get-foo.html');
const adOnlyPage = readFixture('clele_results-200.html');
const challengePage = readFixture('clele_challenge-202.html');

function resultsOf(outcome: KeylessParseOutcome): KeylessResult[] {
  if (outcome.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(outcome)}`);
  return outcome.results;
}

describe('parseDuckDuckGoHtml on the real GET result page (lofi)', () => {
  const results = resultsOf(parseDuckDuckGoHtml({ status: 200, headers: {}, body: lofiPage }));

  it('finds the 10 organic results in page order', () => {
    expect(results).toHaveLength(10);
    expect(results[0]).toEqual({
      title: 'Foo Fighters - Wikipedia',
      url: 'https://en.wikipedia.org/wiki/Foo_Fighters',
      snippet:
        'Foo Fighters are a rock band formed in 1994 by former Nirvana drummer Dave Grohl. They have won 15 Grammy Awards and were inducted into the Rock and Roll Hall of Fame in 2021.',
    });
    expect(results.map((result) => result.url)).toEqual([
      'https://en.wikipedia.org/wiki/Foo_Fighters',
      'https://www.dictionary.com/e/tech-science/foo/',
      'https://dictionary.cambridge.org/us/dictionary/english/foo',
      'https://en.wiktionary.org/wiki/foo',
      'https://www.youtube.com/watch?v=eBG7P-K-r1Y',
      'https://foofighters.com/',
      'https://www.youtube.com/watch?v=h_L4Rixya64',
      'https://www.youtube.com/playlist?list=PL83F62FF359785F29',
      'https://www.merriam-webster.com/dictionary/foo',
      'https://footokyo.jp/',
    ]);
  });

  it('unwraps every uddg link to an absolute http(s) URL off DuckDuckGo', () => {
    for (const { url } of results) {
      expect(url).toMatch(/^https?:\/\//);
      expect(new URL(url).hostname).not.toMatch(/duckduckgo\.com$/);
    }
  });

  it('decodes entities and drops the markup of titles and snippets', () => {
    expect(results[1]?.title).toBe('foo | Meaning & Origin - Dictionary.com');
    expect(results[4]?.snippet.startsWith('"Everlong" by Foo Fighters')).toBe(true);
    expect(results[7]?.snippet).toContain("Foo Fighters' best songs");
    for (const { title, snippet } of results) {
      for (const text of [title, snippet]) {
        expect(text).not.toMatch(/[<>]|&[a-z#0-9]+;|\s{2}|^\s|\s$/);
      }
    }
  });

  it('keeps at most `limit` results when asked', () => {
    const limited = resultsOf(
      parseDuckDuckGoHtml({ status: 200, headers: {}, body: lofiPage }, { limit: 3 }),
    );
    expect(limited).toEqual(results.slice(0, 3));
    expect(() => parseDuckDuckGoHtml({ status: 200, headers: {}, body: lofiPage }, { limit: 11 })).toThrow(
      RangeError,
    );
  });

  it('reads a Headers object as well as a record', () => {
    const outcome = parseDuckDuckGoHtml({ status: 200, headers: new Headers(), body: lofiPage });
    expect(resultsOf(outcome)).toEqual(results);
  });
});

describe('parseDuckDuckGoHtml on the real ad-only result page (clele)', () => {
  it('is a result page without organic results or challenge markers: no results', () => {
    expect(adOnlyPage).toContain('result--ad');
    expect(adOnlyPage).not.toMatch(/challenge-form|anomaly|captcha/i);
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: adOnlyPage })).toEqual({
      kind: 'no_results',
    });
  });

  it('skips the ad by its result--ad class even when it links off DuckDuckGo', () => {
    // Derived from the recorded page: the ad's y.js link replaced by an ordinary target.
    const offsite = adOnlyPage.replace(
      /href="\/\/duckduckgo\.com\/l\/\?uddg=[^"]+"/,
      'href="https://www.farnell.com/"',
    );
    expect(offsite).toContain('href="https://www.farnell.com/"');
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: offsite })).toEqual({ kind: 'no_results' });
    const unmarked = offsite.replace('result--ad', '');
    expect(resultsOf(parseDuckDuckGoHtml({ status: 200, headers: {}, body: unmarked }))).toEqual([
      {
        title: 'Stmicroelectronics - Farnell® France',
        url: 'https://www.farnell.com/',
        snippet: expect.any(String),
      },
    ]);
  });

  it('skips the ad by its y.js target even without the result--ad class', () => {
    // Derived from the recorded page: the ad class removed, so only the y.js rule can drop it.
    const unmarked = adOnlyPage.replace('result--ad', '');
    expect(unmarked).not.toContain('result--ad');
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: unmarked })).toEqual({ kind: 'no_results' });
  });
});

describe('parseDuckDuckGoHtml on the real challenge page (clele)', () => {
  it('with its real status 202 is rate limited', () => {
    expect(parseDuckDuckGoHtml({ status: 202, headers: {}, body: challengePage })).toMatchObject({
      kind: 'rate_limited',
      signal: 'status',
    });
  });

  it('with status 200 is rate limited through its challenge markers', () => {
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: challengePage })).toMatchObject({
      kind: 'rate_limited',
      signal: 'challenge',
    });
  });
});

describe('parseDuckDuckGoHtml on POST result pages', () => {
  it('keeps direct links as they are', () => {
    // Derived from the recorded page: each uddg wrapper replaced by its target, as POST pages link.
    const direct = lofiPage.replace(
      /\/\/duckduckgo\.com\/l\/\?uddg=([^&"]+)&amp;rut=[0-9a-f]+/g,
      (_, target) => decodeURIComponent(target),
    );
    expect(direct).not.toContain('uddg=');
    const results = resultsOf(parseDuckDuckGoHtml({ status: 200, headers: {}, body: direct }));
    expect(results).toHaveLength(10);
    expect(results[0]?.url).toBe('https://en.wikipedia.org/wiki/Foo_Fighters');
  });
});

describe('parseDuckDuckGoHtml on empty pages', () => {
  it('reads the derived no-results page as a genuine empty answer', () => {
    const page = readFixture('derived/duckduckgo-no-results.html');
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: page })).toEqual({ kind: 'no_results' });
  });

  it('reads an empty body as a genuine empty answer', () => {
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: '' })).toEqual({ kind: 'no_results' });
  });
});
