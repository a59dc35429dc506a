import { describe, expect, it } from 'vitest';
import { findMarkers } from './markup-markers.js';

const MARKERS = {
  noscript: /<noscript\b/i,
  noscriptImage: /<noscript\b[^>]*>\s*<(?:img|picture)\b/i,
  code: /<(?:pre|code)\b/i,
  cookie: /\bcookies?\b/i,
  empty: /(?:)/i,
};

/** What testing each marker on its own gives. */
const eachAlone = (html: string) =>
  new Set(Object.entries(MARKERS).flatMap(([key, marker]) => (marker.test(html) ? [key] : [])));

describe('findMarkers', () => {
  it.each([
    '',
    '<p>Plain text.</p>',
    '<NOSCRIPT><img src="a.png"></NOSCRIPT>',
    '<noscript><p>Turn scripts on.</p></noscript><noscript> <picture></picture></noscript>',
    '<pre><code>x</code></pre> We use COOKIES.',
    '<p>cookiesandcream</p><code>',
  ])('finds what testing each marker alone finds, markers at one place included: %j', (html) => {
    expect(findMarkers(html, MARKERS)).toEqual(eachAlone(html));
  });

  it('refuses markers it cannot search together', () => {
    expect(() => findMarkers('<p>', { tag: /<(p)>/i })).toThrow(/capturing groups/);
    expect(() => findMarkers('<p>', { tag: /<p>/g })).toThrow(/case-insensitive only/);
  });
});
