import type { FailureCode, RunBudget } from '@mono-agent/budget-policy';
import type { NextAction, ProviderReport, SearchOutcome } from './search-outcome.js';
import type { ProviderId, SearchProvider } from './search-provider.js';
import type { SearchRequest } from './search-request.js';
import type { RankedResult } from './search-result.js';

/** What a search learned on its way, before its verdict: the providers' reports and tallies. */
export interface SearchFindings {
  /** Every provider in the chain and what happened to it, in chain order. */
  providers: ProviderReport[];
  /** Providers skipped for a throttle cooldown (or one whose cause was not recorded). */
  cooldownBackends: ProviderId[];
  /** Providers skipped for a cooldown that repeated failures opened. */
  failureCooldownBackends: ProviderId[];
  /** What the filters and the relevance gate removed across all answers. */
  filtered: { outsideDomains: number; excluded: number; irrelevant: number };
  /** Non-fatal notes. */
  warnings: string[];
}

/** The findings of a search that asked no provider yet. */
export function noFindings(): SearchFindings {
  return {
    providers: [],
    cooldownBackends: [],
    failureCooldownBackends: [],
    filtered: { outsideDomains: 0, excluded: 0, irrelevant: 0 },
    warnings: [],
  };
}

/** What {@link buildOutcome} puts together; a part left out is empty. */
export interface OutcomeParts {
  /** The query searched. */
  query: string;
  /** How the search ended. */
  status: SearchOutcome['status'];
  /** Whether another search in this run can help. */
  retryInRun: boolean;
  /** What to do next. */
  nextAction: NextAction;
  /** The run's request counters once the search is over. */
  counts: { requestsUsed: number; requestsRemaining: number };
  /** What the providers said; none when no provider was asked. */
  findings?: SearchFindings;
  /** The backend whose answer is reported (its id and filter support), when one answered. */
  answeredBy?: SearchProvider;
  /** The ranked results; none unless the status is `results`. */
  results?: RankedResult[];
  /** The failure, when the status is `error`. */
  error?: { code: FailureCode; message: string };
}

/**
 * The one way the chain builds an outcome, empty or not. Throttling and the retry hint are read from
 * the reports, so an outcome cannot claim a throttle its reports do not show.
 */
export function buildOutcome(parts: OutcomeParts): SearchOutcome {
  const findings = parts.findings ?? noFindings();
  return {
    query: parts.query,
    providers: findings.providers,
    // Throttling is what a backend said (now, earlier in the run, or through the cooldown it opened);
    // a cooldown opened by repeated failures is not throttling.
    rateLimited: findings.providers.some((report) => report.code === 'rate_limited'),
    cooldownBackends: findings.cooldownBackends,
    failureCooldownBackends: findings.failureCooldownBackends,
    ...soonestRetry(findings.providers),
    requestsUsed: parts.counts.requestsUsed,
    requestsRemaining: parts.counts.requestsRemaining,
    cacheHit: false,
    sharedInFlight: false,
    filtered: findings.filtered,
    warnings: findings.warnings,
    status: parts.status,
    ...(parts.answeredBy === undefined ? {} : { backend: parts.answeredBy.id }),
    results: parts.results ?? [],
    ...(parts.answeredBy === undefined ? {} : { filterSupport: parts.answeredBy.filterSupport }),
    retryInRun: parts.retryInRun,
    nextAction: parts.nextAction,
    ...(parts.error === undefined ? {} : { error: parts.error }),
  };
}

/** The outcome of a search whose caller left before an answer arrived. */
export function cancelledOutcome(request: SearchRequest, budget: RunBudget): SearchOutcome {
  return buildOutcome({
    query: request.query,
    status: 'error',
    retryInRun: false,
    nextAction: 'use_available_evidence',
    counts: budget,
    error: { code: 'cancelled', message: 'the search was cancelled before an answer arrived' },
  });
}

/** The outcome of a search the run's budget refused before anything was sent. */
export function budgetExhaustedOutcome(request: SearchRequest, budget: RunBudget): SearchOutcome {
  const exhausted = budget.exhaustedOutcome();
  return buildOutcome({
    query: request.query,
    status: 'error',
    retryInRun: exhausted.retryInRun,
    nextAction: exhausted.nextAction,
    counts: exhausted,
    error: {
      code: exhausted.code,
      message: `the run's search budget of ${budget.limit} requests is used up; no request was sent`,
    },
  });
}

/** The soonest time a throttled or cooling-down provider can help, as the reports know it. */
function soonestRetry(reports: readonly ProviderReport[]): {
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
