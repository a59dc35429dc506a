import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_RESULTS, parseSearchResults } from './search-results.js';

const entry = (index: number) => ({ title: `t${index}`, url: `https://example.org/${index}` });

describe('parseSearchResults', () => {
  it('reads title, url and snippet by their usual names and skips entries without an http(s) URL', () => {
    expect(
      parseSearchResults([
        { title: ' A ', url: 'https://a.example/x', snippet: 'about a' },
        { name: 'B', link: 'http://b.example/', description: 'about b' },
        { title: 'no url' },
        { title: 'script', url: 'javascript:alert(1)' },
        { type: 'text', text: '[image omitted]' },
        'plain string',
        { url: 'https://c.example/' },
      ]),
    ).toEqual([
      { title: 'A', url: 'https://a.example/x', snippet: 'about a' },
      { title: 'B', url: 'http://b.example/', snippet: 'about b' },
      { title: '', url: 'https://c.example/' },
    ]);
  });

  it('keeps MAX_SEARCH_RESULTS entries and drops the one past it', () => {
    const atBound = Array.from({ length: MAX_SEARCH_RESULTS }, (_, index) => entry(index));
    expect(parseSearchResults(atBound)).toHaveLength(MAX_SEARCH_RESULTS);
    const pastBound = parseSearchResults([...atBound, entry(MAX_SEARCH_RESULTS)]);
    expect(pastBound).toHaveLength(MAX_SEARCH_RESULTS);
    expect(pastBound.at(-1)?.url).toBe(`https://example.org/${MAX_SEARCH_RESULTS - 1}`);
  });

  it('returns an empty list for an empty array but rejects unreadable entries', () => {
    expect(parseSearchResults([])).toEqual([]);
    expect(() => parseSearchResults([{ type: 'image' }])).toThrow(
      expect.objectContaining({ code: 'protocol_error' }),
    );
  });
});
