import type { Coordinator } from '@mono-agent/host-coordination';
import { buildOutcome, chainError, noFindings, type SearchFindings } from './build-search-outcome.js';
import { runStage, type StageResult } from './provider-stage.js';
import { type RankedList, reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import type { ProviderReport, SearchOutcome } from './search-outcome.js';
import type { ProviderId, SearchProvider } from './search-provider.js';
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

/** Why the walk asks no further provider. */
type WalkStop = 'budget_exhausted' | 'cancelled';

/** How a provider the walk no longer asks is reported, by why the walk stopped. */
const NOT_ASKED: Record<
  WalkStop,
  (id: ProviderId, budgetLimit: number) => Pick<ProviderReport, 'disposition' | 'code' | 'message'>
> = {
  cancelled: (id) => ({
    disposition: 'cancelled',
    code: 'cancelled',
    message: `${id} was not asked: the search was cancelled`,
  }),
  budget_exhausted: (id, budgetLimit) => ({
    disposition: 'budget_exhausted',
    code: 'search_budget_exhausted',
    message: `${id} was not asked: the run's search budget of ${budgetLimit} requests is spent`,
  }),
};

/** What the walk has learned so far. */
interface WalkState {
  findings: SearchFindings;
  /** The answer lists accepted (the walk ends at the first). */
  accepted: RankedList[];
  /** The provider whose answer was accepted. */
  answeredBy?: SearchProvider;
  /** The first provider that answered at all, relevant or not. */
  workingBackend?: SearchProvider;
  /** Set once no later provider is to be asked. */
  stopped?: WalkStop;
}

/**
 * Asks the providers in order until one gives relevant results, reporting every provider, and turns
 * what they said into the search's outcome.
 */
export async function walkProviders(input: WalkInput): Promise<SearchOutcome> {
  const { request, run, now } = input;
  const startedAt = now();
  const walk: WalkState = { findings: noFindings(), accepted: [] };
  for (const provider of input.providers) {
    const report: ProviderReport = {
      backend: provider.id,
      disposition: 'no_results',
      requests: 0,
      queries: 0,
    };
    walk.findings.providers.push(report);
    if (reportUnasked(walk, provider.id, report, run)) continue;
    const stage = await runStage({
      request,
      strict: input.strict,
      coordinator: input.coordinator,
      now,
      run,
      provider,
      report,
      stageMs: stageTime(input, provider, startedAt),
    });
    if (recordStage(walk, provider, report, stage)) break;
  }
  return walkOutcome(input, walk);
}

/**
 * Reports a provider the walk does not ask, and says whether it was one: a provider deferred earlier
 * in the run, or any provider once the search is cancelled or the budget spent.
 */
function reportUnasked(
  walk: WalkState,
  id: ProviderId,
  report: ProviderReport,
  run: SearchRunContext,
): boolean {
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
    return true;
  }
  if (walk.stopped === undefined && run.signal?.aborted) walk.stopped = 'cancelled';
  if (walk.stopped === undefined) return false;
  Object.assign(report, NOT_ASKED[walk.stopped](id, run.budget.limit));
  return true;
}

/**
 * How long one provider's stage may take: what is left of the walk's deadline, capped in an
 * automatic chain by the provider's own stage limit.
 */
function stageTime(input: WalkInput, provider: SearchProvider, startedAt: number): number {
  const remaining = input.deadlineMs - (input.now() - startedAt);
  const { autoStageMs } = provider.limits;
  return !input.strict && autoStageMs !== undefined
    ? Math.min(autoStageMs, remaining)
    : Math.max(remaining, 0);
}

/** Adds one stage's findings to the walk, and says whether its answer was accepted (the walk ends). */
function recordStage(
  walk: WalkState,
  provider: SearchProvider,
  report: ProviderReport,
  stage: StageResult,
): boolean {
  const { findings } = walk;
  findings.warnings.push(...stage.warnings);
  findings.filtered.outsideDomains += stage.filtered.outsideDomains;
  findings.filtered.excluded += stage.filtered.excluded;
  findings.filtered.irrelevant += stage.filtered.irrelevant;
  // Throttle cooldowns are throttling; a cooldown opened by repeated failures is a backend that is down.
  if (report.disposition === 'cooldown') {
    const backends =
      report.code === 'backend_unavailable' ? findings.failureCooldownBackends : findings.cooldownBackends;
    backends.push(provider.id);
  }
  if (stage.worked && walk.workingBackend === undefined) walk.workingBackend = provider;
  if (stage.list !== undefined) {
    walk.accepted.push(stage.list);
    walk.answeredBy = provider;
    return true;
  }
  if (report.disposition === 'budget_exhausted' || report.disposition === 'cancelled')
    walk.stopped = report.disposition;
  return false;
}

/** The outcome of a finished walk: the accepted answer, an empty answer, or why none came. */
function walkOutcome(input: WalkInput, walk: WalkState): SearchOutcome {
  const { request, run } = input;
  const { answeredBy, workingBackend } = walk;
  const ending = { query: request.query, findings: walk.findings, counts: run.budget };
  // A cancelled search answers `cancelled`, never an empty list the later backends did not get to check.
  if (answeredBy === undefined && (run.signal?.aborted || walk.stopped === 'cancelled')) {
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
      results: reciprocalRankFusion(walk.accepted).slice(0, request.limit),
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
    error: chainError(walk.findings.providers, run.budget),
  });
}
