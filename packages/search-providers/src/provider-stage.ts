import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { AdmissionRequest, Coordinator, Permit, ReleaseOptions } from '@mono-agent/host-coordination';
import { explainResolvedDenial } from './destination-policy.js';
import { filterByDomains } from './domain-filter.js';
import type { RankedList } from './reciprocal-rank-fusion.js';
import { applyRelevanceGate } from './relevance-gate.js';
import type { ProviderDisposition, ProviderReport } from './search-outcome.js';
import type { ProviderAnswer, ProviderId, SearchProvider } from './search-provider.js';
import type { SearchRequest } from './search-request.js';
import type { SearchRunContext } from './search-run-context.js';
import type { EngineFailure } from './searxng-engine-health.js';

/**
 * Admission requests for one provider, as it declares them: in host mode one admission of its own
 * scope; in process mode its admissions in order, a shared scope before its own.
 */
function admissionsFor(
  provider: SearchProvider,
  mode: Coordinator['mode'],
): (AdmissionRequest & { recordsOutcome?: false })[] {
  const { host, process } = provider.limits;
  if (mode === 'host') {
    return [
      { scope: provider.scope, kind: host.kind, concurrency: host.concurrency, spacingMs: host.spacingMs },
    ];
  }
  return process.map(({ scope, ...limits }) => ({ scope: scope ?? provider.scope, ...limits }));
}

function releaseFor(error: unknown): ReleaseOptions {
  if (!WebToolError.isInstance(error)) return { outcome: 'abandoned' };
  switch (error.code) {
    case 'rate_limited':
      return error.retryAfterMs === undefined
        ? { outcome: 'throttled' }
        : { outcome: 'throttled', retryAfterMs: error.retryAfterMs };
    case 'backend_unavailable':
    case 'timeout':
    case 'protocol_error':
      return { outcome: 'infrastructure_failure' };
    default:
      return { outcome: 'abandoned' };
  }
}

function dispositionFor(code: FailureCode): ProviderDisposition {
  switch (code) {
    case 'rate_limited':
      return 'rate_limited';
    case 'quota_unavailable':
      return 'quota_skipped';
    case 'policy_denied':
      return 'policy_denied';
    case 'search_budget_exhausted':
      return 'budget_exhausted';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'failed';
  }
}

function asWebToolError(error: unknown, backend: ProviderId): WebToolError {
  if (WebToolError.isInstance(error)) return error;
  return new WebToolError({
    code: 'internal_error',
    message: `${backend} provider failed unexpectedly: ${(error as Error)?.message ?? String(error)}`,
    cause: error,
    details: { backend },
  });
}

/** One provider's turn in the walk. */
export interface StageInput {
  /** The parsed request. */
  request: SearchRequest;
  /** Whether the chain is strict: a named backend that never falls back. */
  strict: boolean;
  /** Admission and cooldowns. */
  coordinator: Coordinator;
  /** Epoch milliseconds. */
  now: () => number;
  /** The run that asks. */
  run: SearchRunContext;
  /** The provider asked. */
  provider: SearchProvider;
  /** Its report, filled in as the stage goes. */
  report: ProviderReport;
  /** How long the stage (admission and every request) may take. */
  stageMs: number;
  /** The cooldown a throttled request of this stage opened in the coordinator, set on release. */
  hostCooldown?: { retryAt: number; retryAfterMs?: number };
}

/** Words for what opened a cooldown, for the operator reading a report's message. */
function cooldownReason(cause: string | undefined): string {
  if (cause === 'throttled') return 'after it throttled requests';
  if (cause === 'infrastructure_failure') return 'after repeated failures (it looks unavailable)';
  return 'for an unrecorded reason';
}

/** What one stage found. */
export interface StageResult {
  /** The relevant, in-domain results of the accepting query. */
  list?: RankedList;
  /** Whether the backend answered at all (results or a genuine empty answer). */
  worked: boolean;
  /** Non-fatal notes of the answers. */
  warnings: string[];
  /** What the filters and the relevance gate removed from the answers. */
  filtered: { outsideDomains: number; excluded: number; irrelevant: number };
}

/** Asks one provider the main query, then the alternates, until an answer passes the filters and the gate. */
export async function runStage(input: StageInput): Promise<StageResult> {
  const { provider, report, request, run } = input;
  const result: StageResult = {
    worked: false,
    warnings: [],
    filtered: { outsideDomains: 0, excluded: 0, irrelevant: 0 },
  };
  try {
    provider.checkDestination?.();
  } catch (error) {
    // Refused by the policy: no admission, no budget, no process.
    fail(report, asWebToolError(error, provider.id));
    return result;
  }
  const stageEnds = input.now() + input.stageMs;
  // A provider that spends a subscription turn per query is asked the exact main query once.
  const queries = provider.limits.alternateQueries
    ? [request.query, ...request.alternateQueries]
    : [request.query];
  let sawResults = false;
  for (const query of queries) {
    const remaining = stageEnds - input.now();
    if (remaining <= 0) {
      if (report.queries === 0)
        fail(
          report,
          new WebToolError({
            code: 'timeout',
            message: `${provider.id} had no time left in the search deadline`,
          }),
        );
      break;
    }
    let answer: ProviderAnswer;
    try {
      answer = await askProvider(input, query, remaining);
    } catch (error) {
      const failure = asWebToolError(error, provider.id);
      const engines = failure.details.engines;
      if (Array.isArray(engines) && engines.length > 0) report.engines = engines as EngineFailure[];
      if (failure.code === 'cooldown') {
        // A skip is reported by what opened the cooldown: throttling, or failures (the backend is down).
        const cause = failure.details.cause;
        Object.assign(report, {
          disposition: 'cooldown',
          code:
            cause === 'throttled'
              ? 'rate_limited'
              : cause === 'infrastructure_failure'
                ? 'backend_unavailable'
                : 'cooldown',
          message: failure.message,
          ...(failure.retryAt === undefined ? {} : { retryAt: failure.retryAt }),
          ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
        });
        return result;
      }
      fail(report, failure);
      if (input.hostCooldown !== undefined) {
        report.retryAt = input.hostCooldown.retryAt;
        if (input.hostCooldown.retryAfterMs === undefined) delete report.retryAfterMs;
        else report.retryAfterMs = input.hostCooldown.retryAfterMs;
      }
      if (failure.code === 'rate_limited') {
        // The host cooldown's end (set on release) is the best known retry time when the backend gave none.
        const deferral = run.deferrals.defer(provider.id, {
          ...(report.retryAfterMs === undefined ? {} : { retryAfterMs: report.retryAfterMs }),
          ...(report.retryAt === undefined ? {} : { retryAt: report.retryAt }),
        });
        report.retryAt = deferral.retryAt;
        if (deferral.retryAfterMs !== undefined) report.retryAfterMs = deferral.retryAfterMs;
      }
      // A transport failure, quota skip or block ends the stage: other wording cannot repair it.
      return result;
    }
    report.queries += 1;
    result.worked = true;
    result.warnings.push(...answer.warnings);
    if (answer.kind === 'results' && answer.engineFailures !== undefined)
      report.engines = answer.engineFailures;
    if (answer.kind === 'no_results') continue;
    sawResults = true;
    const inDomain = filterByDomains(answer.results, request);
    result.filtered.outsideDomains += inDomain.outsideDomains;
    result.filtered.excluded += inDomain.excluded;
    const gated = applyRelevanceGate(
      inDomain.kept,
      query,
      request.language === undefined ? {} : { language: request.language },
    );
    result.filtered.irrelevant += gated.irrelevant;
    if (gated.relevant.length > 0) {
      report.disposition = 'accepted';
      result.list = { source: `${provider.id}:${report.queries}`, results: gated.relevant };
      return result;
    }
    report.disposition = inDomain.kept.length === 0 ? 'out_of_domain' : 'irrelevant';
  }
  if (result.worked && !sawResults) report.disposition = 'no_results';
  return result;
}

function fail(report: ProviderReport, error: WebToolError): void {
  report.disposition = dispositionFor(error.code);
  report.code = error.code;
  report.message = error.message;
  if (error.retryAfterMs !== undefined) report.retryAfterMs = error.retryAfterMs;
  if (error.retryAt !== undefined) report.retryAt = error.retryAt;
}

/** Admits, charges and asks one provider one query, releasing admission with the outcome. */
async function askProvider(input: StageInput, query: string, timeoutMs: number): Promise<ProviderAnswer> {
  const { provider, report, request, run } = input;
  const deadline = AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs)));
  const signal = run.signal === undefined ? deadline : AbortSignal.any([run.signal, deadline]);
  if (run.budget.exhausted)
    throw new WebToolError({ code: 'search_budget_exhausted', message: 'no budget left' });
  const permits: { permit: Permit; recordsOutcome: boolean }[] = [];
  const queuedAt = input.now();
  try {
    for (const { recordsOutcome, ...admission } of admissionsFor(provider, input.coordinator.mode)) {
      let granted: Awaited<ReturnType<Coordinator['admit']>>;
      try {
        granted = await input.coordinator.admit(admission, { signal });
      } catch (error) {
        if (run.signal?.aborted)
          throw new WebToolError({ code: 'cancelled', message: 'the search was cancelled', cause: error });
        if (deadline.aborted) {
          throw new WebToolError({
            code: 'timeout',
            message: `${provider.id} was not admitted within its time`,
            cause: error,
          });
        }
        throw error;
      }
      if (granted.status === 'skipped') {
        throw new WebToolError({
          code: 'cooldown',
          message: `${provider.id} is cooling down ${cooldownReason(granted.cause)} until ${new Date(granted.retryAt).toISOString()}; no request was sent`,
          retryAt: granted.retryAt,
          retryAfterMs: granted.retryAfterMs,
          details: {
            backend: provider.id,
            reason: granted.reason,
            ...(granted.cause === undefined ? {} : { cause: granted.cause }),
          },
        });
      }
      permits.push({ permit: granted, recordsOutcome: recordsOutcome !== false });
    }
  } catch (error) {
    report.queueWaitMs = (report.queueWaitMs ?? 0) + (input.now() - queuedAt);
    await Promise.all(permits.map(({ permit }) => permit.release({ outcome: 'abandoned' })));
    throw error;
  }
  const askedAt = input.now();
  report.queueWaitMs = (report.queueWaitMs ?? 0) + (askedAt - queuedAt);
  const { strictRequestMs } = provider.limits;
  const requestTimeout =
    input.strict && strictRequestMs !== undefined ? Math.min(timeoutMs, strictRequestMs) : timeoutMs;
  let release: ReleaseOptions = { outcome: 'abandoned' };
  let charged = false;
  try {
    const answer = await provider.search(
      {
        query,
        limit: request.limit,
        ...(request.language === undefined ? {} : { language: request.language }),
        ...(request.timeRange === undefined ? {} : { timeRange: request.timeRange }),
      },
      {
        signal,
        timeoutMs: requestTimeout,
        beforeRequest() {
          if (!run.budget.tryCharge(1)) {
            throw new WebToolError({
              code: 'search_budget_exhausted',
              message: `the run's search budget of ${run.budget.limit} requests is used up`,
            });
          }
          report.requests += 1;
          charged = true;
        },
      },
    );
    release = { outcome: 'success' };
    return answer;
  } catch (caught) {
    let error = caught;
    if (charged && WebToolError.isInstance(error, 'policy_denied')) {
      // The transport refused the destination once DNS had answered: the request was never sent, so
      // its charge is given back, and the refusal names the backend and what would admit it.
      run.budget.refund();
      report.requests -= 1;
      error = explainResolvedDenial(provider.id, error);
    }
    release = releaseFor(error);
    if (
      WebToolError.isInstance(error) &&
      error.code === 'cancelled' &&
      !run.signal?.aborted &&
      deadline.aborted
    ) {
      throw new WebToolError({
        code: 'timeout',
        message: `${provider.id} did not answer in time`,
        cause: error,
      });
    }
    throw error;
  } finally {
    report.backendMs = (report.backendMs ?? 0) + (input.now() - askedAt);
    const results = await Promise.all(
      permits
        .reverse()
        .map(({ permit, recordsOutcome }) =>
          permit.release(recordsOutcome ? release : { outcome: 'abandoned' }),
        ),
    );
    // The cooldown the throttle opened is what admission will enforce, so it is the retry time the
    // outcome reports (it honours the backend's Retry-After, and may be later when one was running).
    const cooling = results.find((entry) => entry.coolingDown && entry.retryAt !== undefined);
    if (cooling !== undefined && release.outcome === 'throttled') {
      input.hostCooldown = {
        retryAt: cooling.retryAt!,
        ...(cooling.retryAfterMs === undefined ? {} : { retryAfterMs: cooling.retryAfterMs }),
      };
    }
  }
}
