import type { FailureCode, RunBudget } from '@mono-agent/budget-policy';
import type { ProviderReport, SearchOutcome } from './search-outcome.js';
import type { SearchRequest } from './search-request.js';

/** The outcome of a search whose caller left before an answer arrived. */
export function cancelledOutcome(request: SearchRequest, budget: RunBudget): SearchOutcome {
  return {
    status: 'error',
    query: request.query,
    results: [],
    providers: [],
    rateLimited: false,
    cooldownBackends: [],
    failureCooldownBackends: [],
    retryInRun: false,
    nextAction: 'use_available_evidence',
    requestsUsed: budget.requestsUsed,
    requestsRemaining: budget.requestsRemaining,
    error: { code: 'cancelled', message: 'the search was cancelled before an answer arrived' },
    cacheHit: false,
    sharedInFlight: false,
    filtered: { outsideDomains: 0, excluded: 0, irrelevant: 0 },
    warnings: [],
  };
}

/** The outcome of a search the run's budget refused before anything was sent. */
export function budgetExhausted(request: SearchRequest, budget: RunBudget): SearchOutcome {
  const exhausted = budget.exhaustedOutcome();
  return {
    status: 'error',
    query: request.query,
    results: [],
    providers: [],
    rateLimited: false,
    cooldownBackends: [],
    failureCooldownBackends: [],
    retryInRun: exhausted.retryInRun,
    nextAction: exhausted.nextAction,
    requestsUsed: exhausted.requestsUsed,
    requestsRemaining: exhausted.requestsRemaining,
    error: {
      code: exhausted.code,
      message: `the run's search budget of ${budget.limit} requests is used up; no request was sent`,
    },
    cacheHit: false,
    sharedInFlight: false,
    filtered: { outsideDomains: 0, excluded: 0, irrelevant: 0 },
    warnings: [],
  };
}

/** The soonest time a throttled or cooling-down provider can help, as the reports know it. */
export function soonestRetry(reports: readonly ProviderReport[]): {
  retryAfterMs?: number;
  retryAt?: number;
} {
  const withRetry = reports.filter((report) => report.retryAt !== undefined);
  if (withRetry.length === 0) return {};
  const soonest = withRetry.reduce((best, report) => (report.retryAt! < best.retryAt! ? report : best));
  return {
    retryAt: soonest.retryAt!,
    ...(soonest.retryAfterMs === undefined ? {} : { retryAfterMs: soonest.retryAfterMs }),
  };
}

/** Codes of a backend that is throttling (directly, or through the quota it reports). */
const THROTTLE_CODES: ReadonlySet<FailureCode> = new Set(['rate_limited', 'quota_unavailable']);

/**
 * The failure of a search no backend answered. `search_budget_exhausted` only when the budget withheld
 * a request the chain wanted to send; a request that was sent is reported by what it met (throttle,
 * failure, timeout), even when it spent the last unit.
 */
export function chainError(
  reports: readonly ProviderReport[],
  budget: RunBudget,
): { code: FailureCode; message: string } {
  const summary = reports
    .map((report) => `${report.backend}: ${report.code ?? report.disposition}`)
    .join('; ');
  if (reports.some((report) => report.disposition === 'budget_exhausted')) {
    return {
      code: 'search_budget_exhausted',
      message: `the run's search budget of ${budget.limit} requests is spent before every backend was asked (${summary})`,
    };
  }
  if (reports.some((report) => report.disposition === 'cancelled')) {
    return { code: 'cancelled', message: 'the search was cancelled' };
  }
  const codeOf = (report: ProviderReport): FailureCode => report.code ?? 'backend_unavailable';
  const codes = new Set(reports.map(codeOf));
  // What the backends that were reached said (now, earlier in the run, or through their cooldown)
  // decides between throttled and down; a backend never reached (not installed, refused by the
  // policy) only names the code when nothing else does.
  const heard = reports.filter(
    (report) => report.requests > 0 || report.disposition === 'cooldown' || report.disposition === 'deferred',
  );
  const throttledOnly = (list: readonly ProviderReport[]) =>
    list.length > 0 && list.every((report) => THROTTLE_CODES.has(codeOf(report)));
  const code: FailureCode =
    codes.size === 1
      ? [...codes][0]!
      : throttledOnly(heard) || throttledOnly(reports)
        ? 'rate_limited'
        : 'backend_unavailable';
  return { code, message: `no search backend could answer (${summary})` };
}
