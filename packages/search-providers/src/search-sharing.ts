import { budgetExhaustedOutcome, cancelledOutcome } from './build-search-outcome.js';
import type { SearchCache } from './search-cache.js';
import type { ProviderDisposition, SearchOutcome } from './search-outcome.js';
import type { SearchRequest } from './search-request.js';
import type { SearchRunContext } from './search-run-context.js';

/** What {@link searchThroughCache} needs for one search. */
export interface CachedSearchInput {
  /** The parsed request. */
  request: SearchRequest;
  /** The cache key: the chain's configuration and the request. */
  key: string;
  /** The run that asks. */
  run: SearchRunContext;
  /** The process cache with in-flight sharing; none disables both. */
  cache: SearchCache<SearchOutcome> | undefined;
  /** Runs the search for this run, sending requests. */
  execute: () => Promise<SearchOutcome>;
}

/**
 * Answers one search from the cache, from an identical search already in flight, or by running it,
 * restating a reused outcome for the run that receives it.
 */
export async function searchThroughCache(input: CachedSearchInput): Promise<SearchOutcome> {
  const { request, key, run, execute } = input;
  // A cancelled call answers `cancelled` even when the cache holds an answer: its caller has gone.
  if (run.signal?.aborted) return cancelledOutcome(request, run.budget);
  const cached = input.cache?.get(key);
  if (cached !== undefined) return reusedFor(cached, run, 'cache');
  if (run.budget.exhausted) return budgetExhaustedOutcome(request, run.budget);
  if (input.cache === undefined) return await execute();
  const cache = input.cache;
  const shared = cache.share(key, async () => {
    const outcome = await execute();
    if (isCompleteForRequest(outcome)) cache.set(key, outcome);
    return outcome;
  });
  if (shared.leader) return await shared.promise;
  const outcome = await untilAborted(shared.promise, run.signal);
  if (outcome === undefined) return cancelledOutcome(request, run.budget);
  // A follower sent nothing. What the leader's own run state decided (its budget, its
  // cancellation, its deferrals) is not an answer for this run, which asks for itself.
  if (shapedByRun(outcome)) return await execute();
  // A backend failure is shared like an answer: asking the failing backend again cannot help.
  for (const report of outcome.providers) {
    if (report.disposition === 'rate_limited' && run.deferrals.get(report.backend) === undefined) {
      run.deferrals.defer(report.backend, {
        ...(report.retryAfterMs === undefined ? {} : { retryAfterMs: report.retryAfterMs }),
        ...(report.retryAt === undefined ? {} : { retryAt: report.retryAt }),
      });
    }
  }
  return reusedFor(outcome, run, 'in-flight');
}

/** Dispositions that describe one run's state rather than the backend's answer to the request. */
const RUN_STATE_DISPOSITIONS: ReadonlySet<ProviderDisposition> = new Set([
  'budget_exhausted',
  'cancelled',
  'deferred',
]);
/** Dispositions of a backend that answered this very request. */
const ANSWERED_DISPOSITIONS: ReadonlySet<ProviderDisposition> = new Set([
  'accepted',
  'no_results',
  'irrelevant',
  'out_of_domain',
  'policy_denied',
]);

/** Whether an outcome was decided by the producing run's budget, cancellation or deferrals. */
function shapedByRun(outcome: SearchOutcome): boolean {
  if (outcome.error?.code === 'cancelled' || outcome.error?.code === 'search_budget_exhausted') return true;
  return outcome.providers.some((report) => RUN_STATE_DISPOSITIONS.has(report.disposition));
}

/**
 * Whether an outcome may be cached for other runs: results, or an empty answer that every provider in
 * the chain gave (none skipped, cooling down or failing, whose answer a later run might still get).
 */
function isCompleteForRequest(outcome: SearchOutcome): boolean {
  if (outcome.status === 'error' || shapedByRun(outcome)) return false;
  if (outcome.status === 'results') return true;
  return outcome.providers.every((report) => ANSWERED_DISPOSITIONS.has(report.disposition));
}

/** A cached or shared outcome, restated for the run that receives it: its budget, its next step. */
function reusedFor(outcome: SearchOutcome, run: SearchRunContext, how: 'cache' | 'in-flight'): SearchOutcome {
  const canSearch = !run.budget.exhausted;
  const next: Pick<SearchOutcome, 'retryInRun' | 'nextAction'> =
    outcome.status === 'results'
      ? { retryInRun: canSearch, nextAction: 'fetch_results' }
      : outcome.status === 'no_results'
        ? { retryInRun: canSearch, nextAction: canSearch ? 'refine_query' : 'use_available_evidence' }
        : { retryInRun: false, nextAction: 'use_available_evidence' };
  return {
    ...outcome,
    ...next,
    // This run sent none of the producing run's requests.
    providers: outcome.providers.map((report) => ({ ...report, requests: 0 })),
    requestsUsed: run.budget.requestsUsed,
    requestsRemaining: run.budget.requestsRemaining,
    cacheHit: how === 'cache',
    sharedInFlight: how === 'in-flight',
  };
}

/** Settles with `work`, or with `undefined` as soon as `signal` fires. */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return await work;
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
