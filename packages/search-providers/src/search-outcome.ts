import type { FailureCode } from '@mono-agent/budget-policy';
import type { FilterSupport, ProviderId } from './search-provider.js';
import type { RankedResult } from './search-result.js';
import type { EngineFailure } from './searxng-engine-health.js';

/** What happened to one provider during a search. */
export type ProviderDisposition =
  /** It returned relevant results that were accepted. */
  | 'accepted'
  /** It worked and found nothing. */
  | 'no_results'
  /** It returned results, but none passed the relevance gate. */
  | 'irrelevant'
  /** It returned results, but none passed the domain filters. */
  | 'out_of_domain'
  /** It answered with a rate limit or block; it is deferred for the rest of the run. */
  | 'rate_limited'
  /**
   * Its scope is cooling down (shared across runs); no request was sent. The code says why: `rate_limited`
   * after throttling, `backend_unavailable` after repeated failures, `cooldown` when unrecorded.
   */
  | 'cooldown'
  /** It was rate-limited earlier in this run; no request was sent. */
  | 'deferred'
  /** Its subscription quota is near its limit or unknown; no request was sent. */
  | 'quota_skipped'
  /** The network policy blocks it; no connection was made. */
  | 'policy_denied'
  /** It failed (unreachable, broken, misconfigured, timed out). */
  | 'failed'
  /** The chain wanted to ask it, but the run's request budget withheld the request. */
  | 'budget_exhausted'
  /** The search was cancelled while it ran. */
  | 'cancelled';

/** One provider's part in a search. */
export interface ProviderReport {
  /** The backend. */
  backend: ProviderId;
  /** What happened. */
  disposition: ProviderDisposition;
  /** The failure category, for failures and skips. */
  code?: FailureCode;
  /** A human-readable explanation (never shown to the model by itself: renderers show the code). */
  message?: string;
  /** Requests this provider sent (each charged to the run's budget). */
  requests: number;
  /** Queries it was asked (the main query and alternates). */
  queries: number;
  /** How long to wait before it can help again, when known. */
  retryAfterMs?: number;
  /** Epoch milliseconds after which it can help again, when known. */
  retryAt?: number;
  /** SearXNG engines that failed, each with a stable reason (when the instance reported any). */
  engines?: EngineFailure[];
  /** Milliseconds spent waiting for admission (concurrency, start spacing). */
  queueWaitMs?: number;
  /** Milliseconds the backend itself took to answer or fail. */
  backendMs?: number;
}

/** What the caller (and, rendered, the model) may do next. */
export type NextAction =
  /** Read the strongest results with WebFetch. */
  | 'fetch_results'
  /** Search again with different wording or filters. */
  | 'refine_query'
  /** Stop searching: answer from what is known and say what is missing. */
  | 'use_available_evidence';

/** The whole result of one WebSearch call, as data. */
export interface SearchOutcome {
  /** `results`, `no_results` (a working backend found nothing relevant) or `error` (none could answer). */
  status: 'results' | 'no_results' | 'error';
  /** The query searched. */
  query: string;
  /** The backend whose answer is reported, when one answered. */
  backend?: ProviderId;
  /** Ranked, fused, filtered, relevant results (at most the requested limit). */
  results: RankedResult[];
  /** Every provider in the chain and what happened to it, in chain order. */
  providers: ProviderReport[];
  /** Filter support of the answering backend. */
  filterSupport?: FilterSupport;
  /**
   * Whether any provider throttled (answered with a rate limit or block, was deferred for one earlier in
   * the run, or was skipped for a throttle cooldown), even when another rescued the search. A cooldown
   * opened by repeated failures is not throttling.
   */
  rateLimited: boolean;
  /**
   * Providers skipped because their scope was cooling down after throttling (or for a cause the state
   * did not record): like `rateLimited`, a report of throttling.
   */
  cooldownBackends: ProviderId[];
  /**
   * Providers skipped because repeated failures opened a cooldown: down, not throttling (each report's
   * code is `backend_unavailable`, with its `retryAt`). Absent in outcomes made before it existed.
   */
  failureCooldownBackends?: ProviderId[];
  /** The soonest known wait before a throttled or cooling-down provider can help, in milliseconds. */
  retryAfterMs?: number;
  /**
   * The soonest known time a throttled or cooling-down provider can help, epoch milliseconds: the
   * cooldown admission enforces, so it agrees with the host state.
   */
  retryAt?: number;
  /** Whether another search in this run can help. */
  retryInRun: boolean;
  /** What to do next. */
  nextAction: NextAction;
  /** Requests this run has sent so far, this search included. */
  requestsUsed: number;
  /** Requests left in this run. */
  requestsRemaining: number;
  /**
   * The failure, when `status` is `error`: `search_budget_exhausted` only when the budget withheld a
   * request before any backend answered; a sent request is reported by what it met.
   */
  error?: { code: FailureCode; message: string };
  /** Whether the outcome came from the process cache. */
  cacheHit: boolean;
  /** Whether the outcome was shared from an identical search already in flight. */
  sharedInFlight: boolean;
  /** What the filters and the relevance gate removed across all answers. */
  filtered: { outsideDomains: number; excluded: number; irrelevant: number };
  /** Non-fatal notes, e.g. partially failed SearXNG engines. */
  warnings: string[];
}
