import type { FailureCode } from '@mono-agent/budget-policy';

/**
 * One operational event of a tool call. Only bounded fields: never a URL, query, header, argument or
 * any page content, so events can go to logs and traces as they are.
 */
export interface TimingEvent {
  /** Which tool. */
  tool: 'WebSearch' | 'WebFetch';
  /** How the call ended. */
  status: 'ok' | 'no_results' | 'error';
  /** The failure category, for errors. */
  errorCode?: FailureCode;
  /** Wall time of the call in milliseconds. */
  durationMs: number;
  /** WebSearch: the backend that answered. */
  backend?: string;
  /** WebSearch: provider requests this call sent. */
  requests?: number;
  /** WebSearch: the run's budget and what is left of it. */
  requestBudget?: number;
  /** WebSearch: requests left in the run. */
  requestsRemaining?: number;
  /** WebSearch: providers skipped because they were cooling down. */
  cooldownSkips?: number;
  /** WebSearch: providers skipped for quota. */
  quotaSkips?: number;
  /** WebSearch: the next action the outcome recommends. */
  nextAction?: string;
  /** Absolute retry time, when known. */
  retryAt?: number;
  /** WebFetch: HTTP requests sent, counting retries and redirect hops (0 for a cache hit). */
  attempts?: number;
  /** WebSearch: milliseconds spent waiting for admission (concurrency, start spacing). */
  queueWaitMs?: number;
  /** WebSearch: milliseconds the backends took to answer or fail. */
  backendMs?: number;
  /** WebSearch: whether a deadline ran out (the search's, a stage's or a request's). */
  timedOut?: boolean;
  /** WebFetch: HTTP status. */
  httpStatus?: number;
  /** WebFetch: content kind. */
  contentKind?: string;
  /** WebFetch: charset used. */
  charset?: string;
  /** WebFetch: extraction stage. */
  extractionStage?: string;
  /** WebFetch: number of parser failures on the way. */
  parserFailures?: number;
  /** WebFetch: bytes of extracted text. */
  byteCount?: number;
  /** Whether the result came from a cache. */
  cacheHit: boolean;
  /** Whether the output was cut by a bound or the bloat guard. */
  truncated: boolean;
  /** Whether a browser rendered the page. */
  rendered?: boolean;
  /** WebFetch: why it was rendered (`requested`, `sparse_shell`). */
  renderReason?: string;
  /** WebFetch: wall time of the render in milliseconds. */
  renderMs?: number;
  /** WebFetch: a browser would likely help but none ran (`enable_rendering`, `request_rendering`). */
  browserRecommendation?: string;
}
