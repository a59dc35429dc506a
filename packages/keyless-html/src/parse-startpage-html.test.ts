import { describe, expect, it } from 'vitest';
import { readFixture } from './__fixtures__/read-fixture.js';
import type { KeylessParseOutcome, KeylessResult } from './parse-outcome.js';
import { parseStartpageHtml } from './parse-startpage-html.js';

const pages = {
  browser: readFixture('websearchmcp_startpage-browser.html'),
  http: readFixture('websearchmcp_startpage-http.html'),
};

// The `href` of each page's `a.result-title` links, read off the recorded markup by hand.
const expectedUrls = {
  browser: [
    'https://www.w3schools.com/js/',
    'https://javascript.info/',
    'https://www.javascripttutorial.net/',
    'https://www.youtube.com/watch?v=Ihy0QziLDf0',
    'https://www.youtube.com/playlist?list=PL0eyrZgxdwhxNGMWROnaY35NLyEjTqcgB',
    'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide',
    'https://www.youtube.com/watch?v=EerdGm-ehJQ',
    'https://www.tutorialspoint.com/javascript/index.htm',
    'https://www.w3schools.com/js/js_intro.asp',
    'https://www.youtube.com/watch?v=lfmg-EJ8gm4',
  ],
  http: [
    'https://www.w3schools.com/js/',
    'https://javascript.info/',
    'https://www.javascripttutorial.net/',
    'https://www.youtube.com/watch?v=Ihy0QziLDf0',
    'https://www.tutorialspoint.com/javascript/index.htm',
    'https://www.petanikode.com/tutorial/javascript/',
    'https://www.youtube.com/playlist?list=PL0eyrZgxdwhxNGMWROnaY35NLyEjTqcgB',
    'https://id.javascript.info/',
    'https://www.youtube.com/watch?v=EerdGm-ehJQ',
    'https://www.geeksforgeeks.org/javascript/javascript-tutorial/',
  ],
};

function resultsOf(outcome: KeylessParseOutcome): KeylessResult[] {
  if (outcome.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(outcome)}`);
  return outcome.results;
}

describe.each(['browser', 'http'] as const)(
  'parseStartpageHtml on the real %s-captured result page',
  (capture) => {
    const results = resultsOf(parseStartpageHtml({ status: 200, headers: {}, body: pages[capture] }));

    it('finds its 10 web results in page order', () => {
      expect(results.map((result) => result.url)).toEqual(expectedUrls[capture]);
      expect(results[0]).toEqual({
        title: 'JavaScript Tutorial - W3Schools',
        url: 'https://www.w3schools.com/js/',
        snippet:
          'Well organized and easy to understand Web building tutorials with lots of examples of how to use HTML, CSS, JavaScript, SQL, Python, PHP, Bootstrap, Java, ...',
      });
      expect(results[7]?.title).toBe(
        capture === 'browser' ? 'JavaScript Tutorial - TutorialsPoint' : 'Tutorial JavaScript Modern',
      );
    });

    it('gives absolute http(s) URLs off Startpage, each once', () => {
      for (const { url } of results) {
        expect(url).toMatch(/^https?:\/\//);
        expect(new URL(url).hostname).not.toMatch(/startpage\.com$/);
      }
      expect(new Set(results.map((result) => result.url)).size).toBe(results.length);
    });

    it('normalises whitespace and decodes entities in titles and snippets', () => {
      for (const { title, snippet } of results) {
        expect(title).not.toBe('');
        for (const text of [title, snippet]) {
          expect(text).not.toMatch(/[<>\u00a0]|&[a-z#0-9]+;|\s{2}|^\s|\s$/);
        }
      }
    });
  },
);

describe('parseStartpageHtml', () => {
  it('keeps at most `limit` results when asked', () => {
    const outcome = parseStartpageHtml({ status: 200, headers: {}, body: pages.http }, { limit: 1 });
    expect(resultsOf(outcome).map((result) => result.url)).toEqual(['https://www.w3schools.com/js/']);
  });

  it('reads a result page whose result items are gone as a genuine empty answer', () => {
    // Derived from the recorded page: every result item renamed, as on a page that matched nothing.
    const emptied = pages.http.replaceAll('class="result css-o7i03b"', 'class="removed"');
    expect(emptied).not.toContain('class="result ');
    expect(parseStartpageHtml({ status: 200, headers: {}, body: emptied })).toEqual({ kind: 'no_results' });
  });
});
