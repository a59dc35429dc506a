import { describe, expect, it } from 'vitest';
import { safeAbsoluteUrl } from './safe-link.js';

const base = 'https://example.org/a/b.html';

describe('safeAbsoluteUrl', () => {
  it('resolves relative and protocol-relative targets to http(s)', () => {
    expect(safeAbsoluteUrl('../c?d=1#e', base)).toBe('https://example.org/c?d=1#e');
    expect(safeAbsoluteUrl('//cdn.example.net/x', base)).toBe('https://cdn.example.net/x');
    expect(safeAbsoluteUrl('http://other.example/', base)).toBe('http://other.example/');
  });

  it('drops unsafe, credentialed, empty and unparsable targets', () => {
    for (const target of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'mailto:a@example.org',
      'https://user:pass@example.org/',
      '',
      '   ',
      'http://[bad',
      null,
      undefined,
    ]) {
      expect(safeAbsoluteUrl(target, base)).toBeUndefined();
    }
  });
});
