import { describe, expect, it } from 'vitest';
import { KEYLESS_ACCEPT, KEYLESS_DEFAULT_ACCEPT_LANGUAGE, KEYLESS_USER_AGENT } from './browser-headers.js';
import {
  buildDuckDuckGoRequest,
  DUCKDUCKGO_HTML_ENDPOINT,
  duckDuckGoFilterSupport,
} from './build-duckduckgo-request.js';
import { MAX_RESULT_LIMIT, MIN_RESULT_LIMIT } from './search-request.js';

function form(body: string | undefined): URLSearchParams {
  expect(body).toBeTypeOf('string');
  return new URLSearchParams(body);
}

describe('buildDuckDuckGoRequest', () => {
  it('posts the form to the HTML endpoint', () => {
    const request = buildDuckDuckGoRequest({ query: 'foo' });
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://html.duckduckgo.com/html/');
    expect(request.url).toBe(DUCKDUCKGO_HTML_ENDPOINT);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe('q=foo&b=');
  });

  it('keeps quotes and site: operators byte-identical in the encoded query', () => {
    const query = '"exact phrase" site:example.com';
    const request = buildDuckDuckGoRequest({ query, language: 'en', timeRange: 'year' });
    expect(request.body).toContain('q=%22exact+phrase%22+site%3Aexample.com&');
    expect(form(request.body).get('q')).toBe(query);
  });

  it('sends a query exactly as given, surrounding spaces and unicode included', () => {
    const query = '  -excluded "Grüße aus Köln" OR site:*.example.org  ';
    expect(form(buildDuckDuckGoRequest({ query }).body).get('q')).toBe(query);
  });

  it('maps each time range to the df field', () => {
    expect(form(buildDuckDuckGoRequest({ query: 'q', timeRange: 'day' }).body).get('df')).toBe('d');
    expect(form(buildDuckDuckGoRequest({ query: 'q', timeRange: 'month' }).body).get('df')).toBe('m');
    expect(form(buildDuckDuckGoRequest({ query: 'q', timeRange: 'year' }).body).get('df')).toBe('y');
    expect(form(buildDuckDuckGoRequest({ query: 'q' }).body).has('df')).toBe(false);
  });

  it('sends the language as a kl region hint and as Accept-Language', () => {
    const request = buildDuckDuckGoRequest({ query: 'q', language: 'en-gb' });
    expect(form(request.body).get('kl')).toBe('uk-en');
    expect(request.headers['accept-language']).toBe('en-GB,en;q=0.9');
    expect(buildDuckDuckGoRequest({ query: 'q', language: 'pt_br' }).headers['accept-language']).toBe(
      'pt-BR,pt;q=0.9,en;q=0.5',
    );
  });

  it('leaves kl out and sends the default Accept-Language when no usable language is given', () => {
    const plain = buildDuckDuckGoRequest({ query: 'q' });
    expect(form(plain.body).has('kl')).toBe(false);
    expect(plain.headers['accept-language']).toBe(KEYLESS_DEFAULT_ACCEPT_LANGUAGE);
    const malformed = buildDuckDuckGoRequest({ query: 'q', language: 'en\r\nx-injected: 1' });
    expect(form(malformed.body).has('kl')).toBe(false);
    expect(malformed.headers['accept-language']).toBe(KEYLESS_DEFAULT_ACCEPT_LANGUAGE);
  });

  it("carries the headers of a browser submitting DuckDuckGo's own form", () => {
    const { headers } = buildDuckDuckGoRequest({ query: 'q' });
    expect(headers['user-agent']).toBe(KEYLESS_USER_AGENT);
    expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(.+\) Gecko\/20100101 Firefox\/\d+\.0$/);
    expect(headers.accept).toBe(KEYLESS_ACCEPT);
    expect(headers.referer).toBe('https://html.duckduckgo.com/');
  });

  it('keeps Accept-Language when DuckDuckGo has no region for the language', () => {
    const request = buildDuckDuckGoRequest({ query: 'q', language: 'he' });
    expect(form(request.body).has('kl')).toBe(false);
    expect(request.headers['accept-language']).toBe('he,en;q=0.5');
  });

  it('never sends cookies or credentials', () => {
    const names = Object.keys(buildDuckDuckGoRequest({ query: 'q', language: 'de' }).headers);
    expect(names).not.toContain('cookie');
    expect(names).not.toContain('authorization');
    for (const name of names) expect(name).toBe(name.toLowerCase());
  });

  it('accepts limits at both bounds and rejects values past them', () => {
    expect(() => buildDuckDuckGoRequest({ query: 'q', limit: MIN_RESULT_LIMIT })).not.toThrow();
    expect(() => buildDuckDuckGoRequest({ query: 'q', limit: MAX_RESULT_LIMIT })).not.toThrow();
    expect(() => buildDuckDuckGoRequest({ query: 'q', limit: MIN_RESULT_LIMIT - 1 })).toThrow(RangeError);
    expect(() => buildDuckDuckGoRequest({ query: 'q', limit: MAX_RESULT_LIMIT + 1 })).toThrow(RangeError);
    expect(() => buildDuckDuckGoRequest({ query: 'q', limit: 2.5 })).toThrow(RangeError);
  });

  it('rejects an empty query and an unknown time range', () => {
    expect(() => buildDuckDuckGoRequest({ query: '' })).toThrow(TypeError);
    expect(() => buildDuckDuckGoRequest({ query: '   ' })).toThrow(TypeError);
    // @ts-expect-error: a JavaScript caller can pass any string
    expect(() => buildDuckDuckGoRequest({ query: 'q', timeRange: 'week' })).toThrow(RangeError);
  });

  it('declares the language a hint and the time range advisory', () => {
    expect(duckDuckGoFilterSupport).toEqual({ language: 'hint', timeRange: 'advisory' });
    expect(Object.isFrozen(duckDuckGoFilterSupport)).toBe(true);
  });
});
