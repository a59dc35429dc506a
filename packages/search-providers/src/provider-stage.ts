import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type {
  Admission,
  AdmissionRequest,
  AdmissionSkip,
  Coordinator,
  Permit,
  ReleaseOptions,
} from '@mono-agent/host-coordination';
import { explainResolvedDenial } from './destination-policy.js';
import { filterByDomains } from './domain-filter.js';
import type { RankedList } from './reciprocal-rank-fusion.js';
import { applyRelevanceGate } from './relevance-gate.js';
import type { ProviderDisposition, ProviderReport } from './search-outcome.js';
import type { ProviderAnswer, ProviderId, ProviderSearchRequest, SearchProvider } from './search-provider.js';
import type { SearchRequest } from './search-request.js';
import type { SearchResult } from './search-result.js';
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
  const { provider, report, request } = input;
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
      reportOutOfTime(input);
      break;
    }
    const answer = await askOrReport(input, query, remaining);
    // A transport failure, quota skip or block ends the stage: other wording cannot repair it.
    if (answer === undefined) return result;
    takeAnswer(input, result, answer);
    if (answer.kind === 'no_results') continue;
    sawResults = true;
    if (acceptResults(input, result, query, answer.results)) return result;
  }
  if (result.worked && !sawResults) report.disposition = 'no_results';
  return result;
}

/**
 * A stage out of time before any answer is a timeout; one that was answered keeps what its answers
 * made of it.
 */
function reportOutOfTime({ provider, report }: StageInput): void {
  if (report.queries > 0) return;
  fail(
    report,
    new WebToolError({
      code: 'timeout',
      message: `${provider.id} had no time left in the search deadline`,
    }),
  );
}

/** Asks one query; a failure is written into the report and gives `undefined`. */
async function askOrReport(
  input: StageInput,
  query: string,
  remaining: number,
): Promise<ProviderAnswer | undefined> {
  try {
    return await askProvider(input, query, remaining);
  } catch (error) {
    reportFailure(input, asWebToolError(error, input.provider.id));
    return undefined;
  }
}

/** Counts an answer the provider gave, with its warnings and the engines that failed in it. */
function takeAnswer({ report }: StageInput, result: StageResult, answer: ProviderAnswer): void {
  report.queries += 1;
  result.worked = true;
  result.warnings.push(...answer.warnings);
  if (answer.kind === 'results' && answer.engineFailures !== undefined)
    report.engines = answer.engineFailures;
}

/**
 * Passes one query's results through the domain filters and the relevance gate, and says whether any
 * are left: then they are the stage's list, else the report says what removed them.
 */
function acceptResults(
  { provider, report, request }: StageInput,
  result: StageResult,
  query: string,
  results: readonly SearchResult[],
): boolean {
  const inDomain = filterByDomains(results, request);
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
    return true;
  }
  report.disposition = inDomain.kept.length === 0 ? 'out_of_domain' : 'irrelevant';
  return false;
}

/** Reports why a query failed: a skip for a cooldown, or a failed request. */
function reportFailure(input: StageInput, failure: WebToolError): void {
  const engines = failure.details.engines;
  if (Array.isArray(engines) && engines.length > 0) input.report.engines = engines as EngineFailure[];
  if (failure.code === 'cooldown') reportCooldownSkip(input.report, failure);
  else reportFailedRequest(input, failure);
}

/** The code a cooldown skip reports, by what opened the cooldown; `cooldown` when that is unrecorded. */
const COOLDOWN_CODES = new Map<unknown, FailureCode>([
  ['throttled', 'rate_limited'],
  ['infrastructure_failure', 'backend_unavailable'],
]);

/**
 * Reports a provider whose scope is cooling down, so no request was sent. A skip is reported by what
 * opened the cooldown: throttling, or failures (the backend is down).
 */
function reportCooldownSkip(report: ProviderReport, failure: WebToolError): void {
  Object.assign(report, {
    disposition: 'cooldown',
    code: COOLDOWN_CODES.get(failure.details.cause) ?? 'cooldown',
    message: failure.message,
    ...(failure.retryAt === undefined ? {} : { retryAt: failure.retryAt }),
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
  });
}

/**
 * Reports a request that failed (or that admission, the budget or the policy held back), with the
 * retry time of the host cooldown it opened, and defers a throttling provider for the rest of the run.
 */
function reportFailedRequest(input: StageInput, failure: WebToolError): void {
  const { report, hostCooldown } = input;
  fail(report, failure);
  if (hostCooldown !== undefined) {
    report.retryAt = hostCooldown.retryAt;
    if (hostCooldown.retryAfterMs === undefined) delete report.retryAfterMs;
    else report.retryAfterMs = hostCooldown.retryAfterMs;
  }
  if (failure.code === 'rate_limited') deferThrottled(input);
}

/** Defers a provider that throttled for the rest of the run, and reports when it can help again. */
function deferThrottled({ provider, report, run }: StageInput): void {
  // The host cooldown's end (set on release) is the best known retry time when the backend gave none.
  const deferral = run.deferrals.defer(provider.id, {
    ...(report.retryAfterMs === undefined ? {} : { retryAfterMs: report.retryAfterMs }),
    ...(report.retryAt === undefined ? {} : { retryAt: report.retryAt }),
  });
  report.retryAt = deferral.retryAt;
  if (deferral.retryAfterMs !== undefined) report.retryAfterMs = deferral.retryAfterMs;
}

function fail(report: ProviderReport, error: WebToolError): void {
  report.disposition = dispositionFor(error.code);
  report.code = error.code;
  report.message = error.message;
  if (error.retryAfterMs !== undefined) report.retryAfterMs = error.retryAfterMs;
  if (error.retryAt !== undefined) report.retryAt = error.retryAt;
}

/** The signals of one query: the stage's deadline, and that joined with the search's cancellation. */
interface QuerySignals {
  deadline: AbortSignal;
  signal: AbortSignal;
}

/** An admission held for one request, and whether its release records the request's outcome. */
interface HeldPermit {
  permit: Permit;
  recordsOutcome: boolean;
}

/** Admits, charges and asks one provider one query, releasing admission with the outcome. */
async function askProvider(input: StageInput, query: string, timeoutMs: number): Promise<ProviderAnswer> {
  const { provider, report, request, run } = input;
  const deadline = AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs)));
  const signals: QuerySignals = {
    deadline,
    signal: run.signal === undefined ? deadline : AbortSignal.any([run.signal, deadline]),
  };
  if (run.budget.exhausted)
    throw new WebToolError({ code: 'search_budget_exhausted', message: 'no budget left' });
  const { permits, admittedAt } = await admitAll(input, signals);
  const { strictRequestMs } = provider.limits;
  const requestTimeout =
    input.strict && strictRequestMs !== undefined ? Math.min(timeoutMs, strictRequestMs) : timeoutMs;
  let release: ReleaseOptions = { outcome: 'abandoned' };
  let charged = false;
  try {
    const answer = await provider.search(providerRequest(request, query), {
      signal: signals.signal,
      timeoutMs: requestTimeout,
      beforeRequest() {
        chargeRequest(input);
        charged = true;
      },
    });
    release = { outcome: 'success' };
    return answer;
  } catch (caught) {
    const error = charged ? refundRefusedRequest(input, caught) : caught;
    release = releaseFor(error);
    throw deadlineAsTimeout(input, error, deadline);
  } finally {
    report.backendMs = (report.backendMs ?? 0) + (input.now() - admittedAt);
    await releasePermits(input, permits, release);
  }
}

/**
 * Takes the provider's admissions in order, adding the wait to the report. When one fails, those
 * already held are given back unused.
 */
async function admitAll(
  input: StageInput,
  signals: QuerySignals,
): Promise<{ permits: HeldPermit[]; admittedAt: number }> {
  const { report } = input;
  const permits: HeldPermit[] = [];
  const queuedAt = input.now();
  try {
    for (const { recordsOutcome, ...admission } of admissionsFor(input.provider, input.coordinator.mode)) {
      permits.push({
        permit: await admitOne(input, admission, signals),
        recordsOutcome: recordsOutcome !== false,
      });
    }
  } catch (error) {
    report.queueWaitMs = (report.queueWaitMs ?? 0) + (input.now() - queuedAt);
    await Promise.all(permits.map(({ permit }) => permit.release({ outcome: 'abandoned' })));
    throw error;
  }
  const admittedAt = input.now();
  report.queueWaitMs = (report.queueWaitMs ?? 0) + (admittedAt - queuedAt);
  return { permits, admittedAt };
}

/** One admission; a scope that is cooling down refuses it without a request being sent. */
async function admitOne(
  input: StageInput,
  admission: AdmissionRequest,
  signals: QuerySignals,
): Promise<Permit> {
  let granted: Admission;
  try {
    granted = await input.coordinator.admit(admission, { signal: signals.signal });
  } catch (error) {
    throw admissionFailure(input, error, signals.deadline);
  }
  if (granted.status === 'skipped') throw cooldownSkip(input.provider, granted);
  return granted;
}

/** Why an admission was abandoned: the search's cancellation, the stage's deadline, or its own error. */
function admissionFailure({ provider, run }: StageInput, error: unknown, deadline: AbortSignal): unknown {
  if (run.signal?.aborted)
    return new WebToolError({ code: 'cancelled', message: 'the search was cancelled', cause: error });
  if (deadline.aborted) {
    return new WebToolError({
      code: 'timeout',
      message: `${provider.id} was not admitted within its time`,
      cause: error,
    });
  }
  return error;
}

function cooldownSkip(provider: SearchProvider, skip: AdmissionSkip): WebToolError {
  return new WebToolError({
    code: 'cooldown',
    message: `${provider.id} is cooling down ${cooldownReason(skip.cause)} until ${new Date(skip.retryAt).toISOString()}; no request was sent`,
    retryAt: skip.retryAt,
    retryAfterMs: skip.retryAfterMs,
    details: {
      backend: provider.id,
      reason: skip.reason,
      ...(skip.cause === undefined ? {} : { cause: skip.cause }),
    },
  });
}

/** The request a provider is given: the query, and the filters the search set. */
function providerRequest(request: SearchRequest, query: string): ProviderSearchRequest {
  return {
    query,
    limit: request.limit,
    ...(request.language === undefined ? {} : { language: request.language }),
    ...(request.timeRange === undefined ? {} : { timeRange: request.timeRange }),
  };
}

/** Charges one request to the run's budget just before it is sent; an empty budget refuses it. */
function chargeRequest({ report, run }: StageInput): void {
  if (!run.budget.tryCharge(1)) {
    throw new WebToolError({
      code: 'search_budget_exhausted',
      message: `the run's search budget of ${run.budget.limit} requests is used up`,
    });
  }
  report.requests += 1;
}

/**
 * A charged request the policy refused. The transport refused the destination once DNS had answered:
 * the request was never sent, so its charge is given back, and the refusal names the backend and what
 * would admit it. Any other failure is returned as it is.
 */
function refundRefusedRequest({ provider, report, run }: StageInput, error: unknown): unknown {
  if (!WebToolError.isInstance(error, 'policy_denied')) return error;
  run.budget.refund();
  report.requests -= 1;
  return explainResolvedDenial(provider.id, error);
}

/** A cancellation that the stage's deadline caused, not the search's, is the provider's timeout. */
function deadlineAsTimeout({ provider, run }: StageInput, error: unknown, deadline: AbortSignal): unknown {
  if (
    WebToolError.isInstance(error) &&
    error.code === 'cancelled' &&
    !run.signal?.aborted &&
    deadline.aborted
  ) {
    return new WebToolError({
      code: 'timeout',
      message: `${provider.id} did not answer in time`,
      cause: error,
    });
  }
  return error;
}

/** Releases the permits, last taken first; only those that record outcomes learn the request's. */
async function releasePermits(
  input: StageInput,
  permits: HeldPermit[],
  release: ReleaseOptions,
): Promise<void> {
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
