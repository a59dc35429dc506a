/** One search hit as every provider reports it. */
export interface SearchResult {
  /** The page title, as the backend gave it. */
  title: string;
  /** Absolute http(s) URL, normalized (see `normalizeResultUrl`). */
  url: string;
  /** The backend's excerpt of the page; may be empty. */
  snippet: string;
}

/** A result after fusion: where it came from and how strongly the lists agreed on it. */
export interface RankedResult extends SearchResult {
  /** Reciprocal-rank-fusion score; higher ranks first. */
  score: number;
  /** Every (provider, query) list that contained the page, in the order they were fused. */
  sources: readonly string[];
}
