import { describe, expect, it } from 'vitest';
import { KEYLESS_ACCEPT, KEYLESS_DEFAULT_ACCEPT_LANGUAGE, KEYLESS_USER_AGENT } from './browser-headers.js';
import {
  buildStartpageRequest,
  STARTPAGE_SEARCH_ENDPOINT,
  startpageFilterSupport,
} from './build-startpage-request.js';
import { MAX_RESULT_LIMIT, MIN_RESULT_LIMIT } from './search-request.js';

function parameters(url: string): URLSearchParams {
  const parsed = new URL(url);
  expect(parsed.origin + parsed.pathname).toBe(STARTPAGE_SEARCH_ENDPOINT);
  return parsed.searchParams;
}

describe('buildStartpageRequest', () => {
  it('asks for the web results page with a GET and no body', () => {
    const request = buildStartpageRequest({ query: 'javascript tutorial' });
    expect(request.method).toBe('GET');
    expect(request.url).toBe('https://www.startpage.com/sp/search?query=javascript+tutorial&cat=web');
    expect(request).not.toHaveProperty('body');
  });

  it('keeps quotes and site: operators byte-identical in the encoded query', () => {
    const query = '"exact phrase" site:example.com';
    const request = buildStartpageRequest({ query, timeRange: 'day' });
    expect(request.url).toContain('query=%22exact+phrase%22+site%3Aexample.com&');
    expect(parameters(request.url).get('query')).toBe(query);
  });

  it('sends each time range as the advisory with_date parameter', () => {
    expect(parameters(buildStartpageRequest({ query: 'q', timeRange: 'day' }).url).get('with_date')).toBe(
      'd',
    );
    expect(parameters(buildStartpageRequest({ query: 'q', timeRange: 'month' }).url).get('with_date')).toBe(
      'm',
    );
    expect(parameters(buildStartpageRequest({ query: 'q', timeRange: 'year' }).url).get('with_date')).toBe(
      'y',
    );
    expect(parameters(buildStartpageRequest({ query: 'q' }).url).has('with_date')).toBe(false);
  });

  it('sends no language, as its filter support declares', () => {
    const request = buildStartpageRequest({ query: 'q', language: 'de-DE' });
    expect([...parameters(request.url).keys()]).toEqual(['query', 'cat']);
    expect(request.headers['accept-language']).toBe(KEYLESS_DEFAULT_ACCEPT_LANGUAGE);
    expect(startpageFilterSupport).toEqual({ language: 'unsupported', timeRange: 'advisory' });
  });

  it("carries the headers of a browser submitting Startpage's own form", () => {
    const { headers } = buildStartpageRequest({ query: 'q' });
    expect(headers['user-agent']).toBe(KEYLESS_USER_AGENT);
    expect(headers.accept).toBe(KEYLESS_ACCEPT);
    expect(headers.referer).toBe('https://www.startpage.com/');
  });

  it('never sends cookies or credentials', () => {
    const names = Object.keys(buildStartpageRequest({ query: 'q' }).headers);
    expect(names).not.toContain('cookie');
    expect(names).not.toContain('authorization');
  });

  it('accepts limits at both bounds and rejects values past them', () => {
    expect(() => buildStartpageRequest({ query: 'q', limit: MIN_RESULT_LIMIT })).not.toThrow();
    expect(() => buildStartpageRequest({ query: 'q', limit: MAX_RESULT_LIMIT })).not.toThrow();
    expect(() => buildStartpageRequest({ query: 'q', limit: MIN_RESULT_LIMIT - 1 })).toThrow(RangeError);
    expect(() => buildStartpageRequest({ query: 'q', limit: MAX_RESULT_LIMIT + 1 })).toThrow(RangeError);
  });

  it('rejects an empty query', () => {
    expect(() => buildStartpageRequest({ query: '' })).toThrow(TypeError);
  });
});
