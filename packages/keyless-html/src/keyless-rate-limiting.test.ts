import { describe, expect, it } from 'vitest';
import { readFixture } from './__fixtures__/read-fixture.js';
import { parseDuckDuckGoHtml } from './parse-duckduckgo-html.js';
import { parseStartpageHtml } from './parse-startpage-html.js';

// One block per row of the specification's "Keyless rate limiting" table, then the statuses the
// table leaves to the caller's `backend_unavailable`.

const duckDuckGoChallenge = readFixture('clele_challenge-202.html');
const duckDuckGoResults = readFixture('lofi_duckduckgo-html-get-foo.html');
const startpageResults = readFixture('websearchmcp_startpage-http.html');
const parsers = { DuckDuckGo: parseDuckDuckGoHtml, Startpage: parseStartpageHtml };

describe('HTTP 202, 403 or 429 from DuckDuckGo → rate_limited', () => {
  it.each([202, 403, 429])('HTTP %i with the real challenge page', (status) => {
    expect(parseDuckDuckGoHtml({ status, headers: {}, body: duckDuckGoChallenge })).toEqual({
      kind: 'rate_limited',
      signal: 'status',
      reason: `DuckDuckGo answered HTTP ${status}`,
    });
  });

  it.each([202, 403, 429])('HTTP %i even when the body holds results', (status) => {
    expect(parseDuckDuckGoHtml({ status, headers: {}, body: duckDuckGoResults })).toMatchObject({
      kind: 'rate_limited',
      signal: 'status',
    });
  });
});

describe('3xx from Startpage to a captcha or block page → rate_limited', () => {
  // Derived: a redirect is only a status and a Location; the paths are Startpage's captcha pages.
  it.each([
    [302, 'https://www.startpage.com/sp/captcha?ref=search'],
    [303, '/sp/captcha-block?bc=XX'],
    [301, 'https://www.startpage.com/sp/captcha'],
    [307, '/sp/captcha'],
  ])('HTTP %i to %s', (status, location) => {
    const outcome = parseStartpageHtml({ status, headers: { location }, body: '' });
    expect(outcome).toMatchObject({ kind: 'rate_limited', signal: 'redirect' });
  });

  it('reads the Location of a Headers object', () => {
    const headers = new Headers({ Location: 'https://www.startpage.com/sp/captcha?bc=1' });
    expect(parseStartpageHtml({ status: 302, headers, body: '' })).toMatchObject({ kind: 'rate_limited' });
  });

  it('leaves a redirect elsewhere to backend_unavailable, not rate_limited', () => {
    const outcome = parseStartpageHtml({
      status: 302,
      headers: { location: 'https://www.startpage.com/' },
      body: '',
    });
    expect(outcome).toMatchObject({ kind: 'unavailable', status: 302 });
    expect(parseStartpageHtml({ status: 302, headers: {}, body: '' })).toMatchObject({ kind: 'unavailable' });
  });

  it('treats a DuckDuckGo redirect to its anomaly check the same way', () => {
    const location = '//duckduckgo.com/anomaly.js?sv=html';
    expect(parseDuckDuckGoHtml({ status: 302, headers: { location }, body: '' })).toMatchObject({
      kind: 'rate_limited',
      signal: 'redirect',
    });
  });
});

describe('2xx that parses to nothing but carries challenge markers (either engine) → rate_limited', () => {
  it('DuckDuckGo: the real challenge page served with 200', () => {
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body: duckDuckGoChallenge })).toMatchObject({
      kind: 'rate_limited',
      signal: 'challenge',
    });
  });

  it('Startpage: the derived captcha page served with 200', () => {
    const body = readFixture('derived/startpage-captcha.html');
    expect(parseStartpageHtml({ status: 200, headers: {}, body })).toMatchObject({
      kind: 'rate_limited',
      signal: 'challenge',
    });
  });

  it('Startpage: an empty page that was served from the captcha URL', () => {
    const response = { status: 200, headers: {}, body: '', url: 'https://www.startpage.com/sp/captcha?bc=7' };
    expect(parseStartpageHtml(response)).toMatchObject({ kind: 'rate_limited', signal: 'challenge' });
  });
});

describe('2xx proof-of-work interstitial → rate_limited', () => {
  const pages = {
    Anubis: readFixture('derived/anubis-challenge.html'),
    'Verifying your request…': readFixture('derived/verifying-interstitial.html'),
  };

  describe.each(Object.entries(parsers))('%s', (_, parse) => {
    it.each(Object.entries(pages))('the derived %s page', (_, body) => {
      expect(parse({ status: 200, headers: {}, body })).toMatchObject({
        kind: 'rate_limited',
        signal: 'proof_of_work',
      });
    });
  });
});

describe('2xx that parses to nothing (either engine) → genuine no results', () => {
  it('DuckDuckGo: the real ad-only result page', () => {
    const body = readFixture('clele_results-200.html');
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body })).toEqual({ kind: 'no_results' });
  });

  it('DuckDuckGo: the derived no-results page', () => {
    const body = readFixture('derived/duckduckgo-no-results.html');
    expect(parseDuckDuckGoHtml({ status: 200, headers: {}, body })).toEqual({ kind: 'no_results' });
  });

  it('Startpage: the real result page with its result items renamed (derived)', () => {
    const body = startpageResults.replaceAll('class="result css-o7i03b"', 'class="removed"');
    expect(parseStartpageHtml({ status: 200, headers: {}, body })).toEqual({ kind: 'no_results' });
  });

  it.each(Object.entries(parsers))('%s: an empty 200 and a 204', (_, parse) => {
    expect(parse({ status: 200, headers: {}, body: '' })).toEqual({ kind: 'no_results' });
    expect(parse({ status: 204, headers: {}, body: '' })).toEqual({ kind: 'no_results' });
  });
});

describe('statuses outside the table → unavailable (the caller reports backend_unavailable)', () => {
  describe.each(Object.entries(parsers))('%s', (engine, parse) => {
    it.each([400, 404, 410, 500, 502, 503, 504])('HTTP %i', (status) => {
      expect(parse({ status, headers: {}, body: duckDuckGoResults })).toEqual({
        kind: 'unavailable',
        status,
        reason: `${engine} answered HTTP ${status}`,
      });
    });
  });

  it('Startpage 403 and 429 are blocks: no credentials are sent, so nothing else can be meant', () => {
    for (const status of [403, 429]) {
      expect(parseStartpageHtml({ status, headers: {}, body: startpageResults })).toMatchObject({
        kind: 'rate_limited',
        signal: 'status',
      });
    }
  });

  it('Startpage 202 is an ordinary success', () => {
    const outcome = parseStartpageHtml({ status: 202, headers: {}, body: startpageResults });
    expect(outcome.kind).toBe('results');
  });
});
