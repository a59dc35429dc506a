import { describe, expect, it } from 'vitest';
import { normalizeResultUrl, resultIdentity } from './normalize-result-url.js';
import { isTrackingParameter } from './remove-tracking-parameters.js';

describe('normalizeResultUrl', () => {
  it('drops tracking parameters and the fragment, keeping other parameters in order', () => {
    expect(
      normalizeResultUrl(
        'https://Example.com/a/b?z=1&utm_source=news&UTM_Medium=x&gclid=abc&a=2&fbclid=q&msclkid=m#section',
      ),
    ).toBe('https://example.com/a/b?z=1&a=2');
  });

  it('keeps a URL without tracking parameters byte-identical apart from case of the host', () => {
    expect(normalizeResultUrl('https://example.com/search?q=a%20b&page=2')).toBe(
      'https://example.com/search?q=a%20b&page=2',
    );
    expect(normalizeResultUrl('https://example.com/path%7Ex')).toBe('https://example.com/path%7Ex');
  });

  it('removes the question mark when every parameter was tracking', () => {
    expect(normalizeResultUrl('https://example.com/?utm_campaign=x')).toBe('https://example.com/');
  });

  it('rejects non-web schemes, credentials and garbage', () => {
    expect(normalizeResultUrl('javascript:alert(1)')).toBeUndefined();
    expect(normalizeResultUrl('ftp://example.com/file')).toBeUndefined();
    expect(normalizeResultUrl('https://user:secret@example.com/')).toBeUndefined();
    expect(normalizeResultUrl('/relative/path')).toBeUndefined();
    expect(normalizeResultUrl('')).toBeUndefined();
  });

  it('recognises tracking families by prefix and exact names only', () => {
    expect(isTrackingParameter('utm_content')).toBe(true);
    expect(isTrackingParameter('pk_campaign')).toBe(true);
    expect(isTrackingParameter('gclid')).toBe(true);
    expect(isTrackingParameter('utmost')).toBe(false);
    expect(isTrackingParameter('id')).toBe(false);
    expect(isTrackingParameter('ref')).toBe(false);
  });
});

describe('resultIdentity', () => {
  it('treats scheme, www., trailing slash and parameter order as the same page', () => {
    const a = resultIdentity(normalizeResultUrl('http://www.example.com/docs/?b=2&a=1')!);
    const b = resultIdentity(normalizeResultUrl('https://example.com/docs?a=1&b=2')!);
    expect(a).toBe(b);
  });

  it('keeps different paths, ports and parameter values apart', () => {
    const base = resultIdentity('https://example.com/docs');
    expect(resultIdentity('https://example.com/docs2')).not.toBe(base);
    expect(resultIdentity('https://example.com:8443/docs')).not.toBe(base);
    expect(resultIdentity('https://example.com/docs?a=1')).not.toBe(
      resultIdentity('https://example.com/docs?a=2'),
    );
  });
});
