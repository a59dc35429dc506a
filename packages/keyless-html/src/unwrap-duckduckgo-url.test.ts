import { describe, expect, it } from 'vitest';
import { unwrapDuckDuckGoUrl } from './unwrap-duckduckgo-url.js';

const base = 'https://html.duckduckgo.com/html/';

describe('unwrapDuckDuckGoUrl', () => {
  it('takes the uddg target of a wrapped link and drops rut', () => {
    const href =
      '//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DeBG7P%2DK%2Dr1Y&rut=321162275d52';
    expect(unwrapDuckDuckGoUrl(href, base)).toBe('https://www.youtube.com/watch?v=eBG7P-K-r1Y');
  });

  it('decodes the target once only', () => {
    const href = '//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa%2520b%3Fq%3D1%2526x';
    expect(unwrapDuckDuckGoUrl(href, base)).toBe('https://example.com/a%20b?q=1%26x');
  });

  it('keeps the direct links of POST result pages', () => {
    expect(unwrapDuckDuckGoUrl('https://example.org/page?x=1', base)).toBe('https://example.org/page?x=1');
    expect(unwrapDuckDuckGoUrl('http://example.org/', base)).toBe('http://example.org/');
  });

  it('drops ad redirects, wrapped or not', () => {
    expect(
      unwrapDuckDuckGoUrl(
        '//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dx.com',
        base,
      ),
    ).toBeUndefined();
    expect(unwrapDuckDuckGoUrl('https://duckduckgo.com/y.js?ad_domain=x.com', base)).toBeUndefined();
  });

  it('drops links into DuckDuckGo itself and wrappers without a target', () => {
    expect(unwrapDuckDuckGoUrl('/html/?q=foo', base)).toBeUndefined();
    expect(unwrapDuckDuckGoUrl('//duckduckgo.com/l/?rut=abc', base)).toBeUndefined();
  });

  it('drops targets that are not absolute http(s) URLs', () => {
    expect(unwrapDuckDuckGoUrl('javascript:alert(1)', base)).toBeUndefined();
    expect(unwrapDuckDuckGoUrl('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)', base)).toBeUndefined();
    expect(unwrapDuckDuckGoUrl('//duckduckgo.com/l/?uddg=%2Frelative%2Fpath', base)).toBeUndefined();
    expect(unwrapDuckDuckGoUrl('//duckduckgo.com/l/?uddg=ftp%3A%2F%2Fexample.com%2F', base)).toBeUndefined();
  });
});
