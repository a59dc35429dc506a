import type { Coordinator } from '@mono-agent/host-coordination';
import { buildOutcome, chainError, noFindings } from './build-search-outcome.js';
import { runStage } from './provider-stage.js';
import { type RankedList, reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import type { ProviderReport, SearchOutcome } from './search-outcome.js';
import type { SearchProvider } from './search-provider.js';
import type { SearchRequest } from './search-request.js';
import type { SearchRunContext } from './search-run-context.js';

/** What {@link walkProviders} needs for one search. */
export interface WalkInput {
  /** The parsed request. */
  request: SearchRequest;
  /** The providers to ask, in chain order. */
  providers: readonly SearchProvider[];
  /** Whether the chain is strict: a named backend that never falls back. */
  strict: boolean;
  /** Admission and cooldowns. */
  coordinator: Coordinator;
  /** Epoch milliseconds. */
  now: () => number;
  /** The run that asks. */
  run: SearchRunContext;
  /** How long the whole walk may take: admission, start-up and I/O of every provider. */
  deadlineMs: number;
}

/**
 * Asks the providers in order until one gives relevant results, reporting every provider, and turns
 * what they said into the search's outcome.
 */
export async function walkProviders(input: WalkInput): Promise<SearchOutcome> {
  const { request, run, now } = input;
  const startedAt = now();
  const findings = noFindings();
  const { providers: reports, filtered, warnings, cooldownBackends, failureCooldownBackends } = findings;
  const accepted: RankedList[] = [];
  let answeredBy: SearchProvider | undefined;
  let workingBackend: SearchProvider | undefined;
  let stopped: 'budget_exhausted' | 'cancelled' | undefined;

  for (const provider of input.providers) {
    const id = provider.id;
    const report: ProviderReport = { backend: id, disposition: 'no_results', requests: 0, queries: 0 };
    reports.push(report);
    // A provider deferred earlier in the run would not be asked with budget left either: it is
    // reported as throttled, not as a request the budget withheld.
    const deferral = run.deferrals.get(id);
    if (deferral !== undefined) {
      Object.assign(report, {
        disposition: 'deferred',
        code: 'rate_limited',
        message: `${id} was rate-limited earlier in this run`,
        retryAt: deferral.retryAt,
        ...(deferral.retryAfterMs === undefined ? {} : { retryAfterMs: deferral.retryAfterMs }),
      });
      continue;
    }
    if (stopped === undefined && run.signal?.aborted) stopped = 'cancelled';
    if (stopped !== undefined) {
      Object.assign(
        report,
        stopped === 'cancelled'
          ? {
              disposition: 'cancelled',
              code: 'cancelled',
              message: `${id} was not asked: the search was cancelled`,
            }
          : {
              disposition: 'budget_exhausted',
              code: 'search_budget_exhausted',
              message: `${id} was not asked: the run's search budget of ${run.budget.limit} requests is spent`,
            },
      );
      continue;
    }
    const remaining = input.deadlineMs - (now() - startedAt);
    const { autoStageMs } = provider.limits;
    const stageMs =
      !input.strict && autoStageMs !== undefined ? Math.min(autoStageMs, remaining) : Math.max(remaining, 0);
    const stage = await runStage({
      request,
      strict: input.strict,
      coordinator: input.coordinator,
      now,
      run,
      provider,
      report,
      stageMs,
    });
    warnings.push(...stage.warnings);
    filtered.outsideDomains += stage.filtered.outsideDomains;
    filtered.excluded += stage.filtered.excluded;
    filtered.irrelevant += stage.filtered.irrelevant;
    // Throttle cooldowns are throttling; a cooldown opened by repeated failures is a backend that is down.
    if (report.disposition === 'cooldown')
      (report.code === 'backend_unavailable' ? failureCooldownBackends : cooldownBackends).push(id);
    if (stage.worked && workingBackend === undefined) workingBackend = provider;
    if (stage.list !== undefined) {
      accepted.push(stage.list);
      answeredBy = provider;
      break;
    }
    if (report.disposition === 'budget_exhausted' || report.disposition === 'cancelled')
      stopped = report.disposition;
  }

  const ending = { query: request.query, findings, counts: run.budget };
  // A cancelled search answers `cancelled`, never an empty list the later backends did not get to check.
  if (answeredBy === undefined && (run.signal?.aborted || stopped === 'cancelled')) {
    return buildOutcome({
      ...ending,
      status: 'error',
      retryInRun: false,
      nextAction: 'use_available_evidence',
      error: { code: 'cancelled', message: 'the search was cancelled' },
    });
  }
  if (answeredBy !== undefined) {
    return buildOutcome({
      ...ending,
      status: 'results',
      answeredBy,
      results: reciprocalRankFusion(accepted).slice(0, request.limit),
      retryInRun: !run.budget.exhausted,
      nextAction: 'fetch_results',
    });
  }
  if (workingBackend !== undefined) {
    const canRetry = !run.budget.exhausted;
    return buildOutcome({
      ...ending,
      status: 'no_results',
      answeredBy: workingBackend,
      retryInRun: canRetry,
      nextAction: canRetry ? 'refine_query' : 'use_available_evidence',
    });
  }
  return buildOutcome({
    ...ending,
    status: 'error',
    retryInRun: false,
    nextAction: 'use_available_evidence',
    error: chainError(reports, run.budget),
  });
}
