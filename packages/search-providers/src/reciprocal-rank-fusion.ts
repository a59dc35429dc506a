import { resultIdentity } from './normalize-result-url.js';
import type { RankedResult, SearchResult } from './search-result.js';

/** The rank constant of reciprocal-rank fusion; 60 is the value of the method's original paper. */
export const RECIPROCAL_RANK_CONSTANT = 60;

/** One ranked list to fuse, named by the provider and query that produced it. */
export interface RankedList {
  /** A label such as `searxng:primary`, kept in each result's `sources`. */
  source: string;
  /** Results in the order the backend ranked them (best first). */
  results: readonly SearchResult[];
}

/**
 * Merges ranked lists into one: a page's score is the sum of `1 / (k + rank)` over the lists that
 * contain it (rank is 1-based), so pages several lists agree on rise. Duplicates within and across
 * lists collapse by {@link resultIdentity}; the first-seen title is kept and the longest snippet
 * wins. Ties keep first-seen order, which makes the output deterministic.
 */
export function reciprocalRankFusion(
  lists: readonly RankedList[],
  rankConstant: number = RECIPROCAL_RANK_CONSTANT,
): RankedResult[] {
  const fused = new Map<string, { result: RankedResult; order: number; sources: string[] }>();
  for (const list of lists) {
    const seenInList = new Set<string>();
    list.results.forEach((result, index) => {
      const identity = resultIdentity(result.url);
      if (seenInList.has(identity)) return;
      seenInList.add(identity);
      const contribution = 1 / (rankConstant + index + 1);
      const existing = fused.get(identity);
      if (existing === undefined) {
        fused.set(identity, {
          result: { ...result, score: contribution, sources: [] },
          order: fused.size,
          sources: [list.source],
        });
        return;
      }
      existing.result.score += contribution;
      existing.sources.push(list.source);
      if (result.snippet.length > existing.result.snippet.length) existing.result.snippet = result.snippet;
      if (existing.result.title.trim() === '') existing.result.title = result.title;
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.result.score - a.result.score || a.order - b.order)
    .map(({ result, sources }) => ({ ...result, sources }));
}
