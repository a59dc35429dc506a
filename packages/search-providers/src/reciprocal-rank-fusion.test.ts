import { describe, expect, it } from 'vitest';
import { RECIPROCAL_RANK_CONSTANT, reciprocalRankFusion } from './reciprocal-rank-fusion.js';

const result = (url: string, snippet = '', title = url) => ({ url, snippet, title });

describe('reciprocalRankFusion', () => {
  it('sums 1/(k+rank) across lists so agreement outranks a single first place', () => {
    const fused = reciprocalRankFusion([
      { source: 'a', results: [result('https://one.test/'), result('https://two.test/')] },
      { source: 'b', results: [result('https://three.test/'), result('https://two.test/')] },
    ]);
    expect(fused.map((entry) => entry.url)).toEqual([
      'https://two.test/',
      'https://one.test/',
      'https://three.test/',
    ]);
    const k = RECIPROCAL_RANK_CONSTANT;
    expect(fused[0]!.score).toBeCloseTo(2 / (k + 2), 12);
    expect(fused[1]!.score).toBeCloseTo(1 / (k + 1), 12);
    expect(fused[0]!.sources).toEqual(['a', 'b']);
  });

  it('collapses the same page written differently and keeps the longest snippet', () => {
    const fused = reciprocalRankFusion([
      { source: 'a', results: [result('https://www.example.com/docs/', 'short', 'Docs')] },
      { source: 'b', results: [result('http://example.com/docs', 'a much longer snippet', 'Other title')] },
    ]);
    expect(fused).toHaveLength(1);
    expect(fused[0]).toMatchObject({
      title: 'Docs',
      snippet: 'a much longer snippet',
      url: 'https://www.example.com/docs/',
    });
  });

  it('counts a duplicate inside one list once, at its best rank', () => {
    const fused = reciprocalRankFusion([
      {
        source: 'a',
        results: [result('https://x.test/'), result('https://x.test/'), result('https://y.test/')],
      },
    ]);
    expect(fused.map((entry) => entry.url)).toEqual(['https://x.test/', 'https://y.test/']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RECIPROCAL_RANK_CONSTANT + 1), 12);
    expect(fused[1]!.score).toBeCloseTo(1 / (RECIPROCAL_RANK_CONSTANT + 3), 12);
  });

  it('breaks ties by first appearance, deterministically', () => {
    const lists = [
      { source: 'a', results: [result('https://p.test/')] },
      { source: 'b', results: [result('https://q.test/')] },
    ];
    expect(reciprocalRankFusion(lists).map((entry) => entry.url)).toEqual([
      'https://p.test/',
      'https://q.test/',
    ]);
    expect(reciprocalRankFusion([])).toEqual([]);
  });
});
