import { describe, expect, it } from 'vitest';
import { isHostOf, toHttpUrl } from './http-url.js';

describe('toHttpUrl', () => {
  it('resolves protocol-relative and relative links against the base', () => {
    expect(toHttpUrl('//example.com/a', 'https://html.duckduckgo.com/html/')?.href).toBe(
      'https://example.com/a',
    );
    expect(toHttpUrl('/sp/captcha', 'https://www.startpage.com/sp/search')?.href).toBe(
      'https://www.startpage.com/sp/captcha',
    );
  });

  it('refuses other schemes, unparsable text and relative links without a base', () => {
    expect(toHttpUrl('javascript:void(0)')).toBeUndefined();
    expect(toHttpUrl('mailto:someone@example.com')).toBeUndefined();
    expect(toHttpUrl('http://')).toBeUndefined();
    expect(toHttpUrl('/relative')).toBeUndefined();
  });
});

describe('isHostOf', () => {
  it('matches the domain and its subdomains only', () => {
    expect(isHostOf('duckduckgo.com', 'duckduckgo.com')).toBe(true);
    expect(isHostOf('HTML.DuckDuckGo.com', 'duckduckgo.com')).toBe(true);
    expect(isHostOf('notduckduckgo.com', 'duckduckgo.com')).toBe(false);
    expect(isHostOf('duckduckgo.com.example.org', 'duckduckgo.com')).toBe(false);
  });
});
