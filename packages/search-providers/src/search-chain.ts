import { type FailureCode, type RunBudget, type RunDeferrals, WebToolError } from '@mono-agent/budget-policy';
import {
  type AdmissionRequest,
  type Coordinator,
  HOST_SCOPE_LIMITS,
  type Permit,
  PROCESS_KEYLESS_LIMITS,
  type ReleaseOptions,
} from '@mono-agent/host-coordination';
import { explainResolvedDenial } from './destination-policy.js';
import { filterByDomains } from './domain-filter.js';
import { type RankedList, reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import { applyRelevanceGate } from './relevance-gate.js';
import type { SearchCache } from './search-cache.js';
import type { NextAction, ProviderDisposition, ProviderReport, SearchOutcome } from './search-outcome.js';
import type { ProviderAnswer, ProviderId, SearchProvider } from './search-provider.js';
import { parseSearchRequest, type SearchRequest, type SearchRequestInput } from './search-request.js';
import type { EngineFailure } from './searxng-engine-health.js';
import { SEARXNG_STRICT_REQUEST_TIMEOUT_MS } from './searxng-provider.js';

/** The deadline of one whole search: admission, start-up and I/O of every provider. */
export const SEARCH_DEADLINE_MS = 60_000;
/** In auto mode, SearXNG's admission and request together get this long before the chain moves on. */
export const AUTO_SEARXNG_STAGE_MS = 3_000;

/** The search backends a configuration can select. */
export const SEARCH_BACKENDS = ['auto', 'searxng', 'ollama', 'codex', 'keyless'] as const;
/** One backend selection. */
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];

/** The order auto mode walks. */
const AUTO_ORDER: readonly ProviderId[] = ['ollama', 'searxng', 'codex', 'duckduckgo', 'startpage'];

/** The configured providers; absent ones are skipped (auto) or a configuration error (strict). */
export type ConfiguredProviders = Partial<Record<ProviderId, SearchProvider>>;

/** Options of {@link createSearchChain}. */
export interface SearchChainOptions {
  /** `auto` walks every configured provider; the others are strict and never fall back. */
  backend: SearchBackend;
  /** The providers to use. */
  providers: ConfiguredProviders;
  /** Admission and cooldowns (process or host mode). */
  coordinator: Coordinator;
  /** The process cache of successful searches (with in-flight sharing); none disables caching. */
  cache?: SearchCache<SearchOutcome>;
  /** Epoch milliseconds; injected by tests. */
  now?: () => number;
}

/** What one run lends a search. */
export interface SearchRunContext {
  /** The run's request budget. */
  budget: RunBudget;
  /** The run's deferred providers. */
  deferrals: RunDeferrals;
  /** Cancels the search. */
  signal?: AbortSignal;
}

/** A configured search chain. */
export interface SearchChain {
  /** The backend selection. */
  readonly backend: SearchBackend;
  /** The providers in the order this chain asks them. */
  readonly order: readonly ProviderId[];
  /** Runs one search; never throws for backend failures (they are in the outcome), only for bad input. */
  search(input: SearchRequestInput, run: SearchRunContext): Promise<SearchOutcome>;
}

function chainOrder(backend: SearchBackend, providers: ConfiguredProviders): ProviderId[] {
  switch (backend) {
    case 'auto':
      return AUTO_ORDER.filter((id) => providers[id] !== undefined);
    case 'keyless':
      return (['duckduckgo', 'startpage'] as const).filter((id) => providers[id] !== undefined);
    default:
      return [backend];
  }
}

/** Builds a search chain; a strict backend whose provider is missing is a configuration error. */
export function createSearchChain(options: SearchChainOptions): SearchChain {
  const order = chainOrder(options.backend, options.providers);
  const strict = options.backend !== 'auto';
  for (const id of order) {
    if (options.providers[id] === undefined) {
      throw new WebToolError({
        code: 'configuration_error',
        message: `search backend '${options.backend}' needs its ${id} provider configured`,
        details: { backend: id },
      });
    }
  }
  if (order.length === 0) {
    throw new WebToolError({
      code: 'configuration_error',
      message: `search backend '${options.backend}' has no provider to ask`,
      details: { backend: options.backend },
    });
  }
  const now = options.now ?? Date.now;
  const configurationKey = JSON.stringify([options.backend, order.map((id) => options.providers[id]!.scope)]);

  return {
    backend: options.backend,
    order,
    async search(input, run) {
      const request = parseSearchRequest(input);
      const key = JSON.stringify([configurationKey, request]);
      // A cancelled call answers `cancelled` even when the cache holds an answer: its caller has gone.
      if (run.signal?.aborted) return cancelledOutcome(request, run.budget);
      const cached = options.cache?.get(key);
      if (cached !== undefined) return reusedFor(cached, run, 'cache');
      if (run.budget.exhausted) return budgetExhausted(request, run.budget);
      const execute = () =>
        runChain({
          request,
          order,
          strict,
          providers: options.providers,
          coordinator: options.coordinator,
          now,
          run,
        });
      if (options.cache === undefined) return await execute();
      const cache = options.cache;
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
    },
  };
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

function cancelledOutcome(request: SearchRequest, budget: RunBudget): SearchOutcome {
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

function budgetExhausted(request: SearchRequest, budget: RunBudget): SearchOutcome {
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

interface ChainInput {
  request: SearchRequest;
  order: readonly ProviderId[];
  strict: boolean;
  providers: ConfiguredProviders;
  coordinator: Coordinator;
  now: () => number;
  run: SearchRunContext;
}

/**
 * Admission requests for one provider. Keyless engines in process mode pass two scopes: a shared one
 * that only bounds requests in flight (it never records outcomes, so one engine's throttling cannot
 * cool the other down), then the engine's own, which spaces starts and carries its cooldown.
 */
function admissionsFor(
  provider: SearchProvider,
  mode: Coordinator['mode'],
): (AdmissionRequest & { recordsOutcome?: false })[] {
  if (mode === 'host') {
    const limits = HOST_SCOPE_LIMITS[provider.id];
    return [
      {
        scope: provider.scope,
        kind: limits.kind,
        concurrency: limits.concurrency,
        spacingMs: limits.spacingMs,
      },
    ];
  }
  if (provider.id === 'duckduckgo' || provider.id === 'startpage') {
    return [
      {
        scope: 'keyless',
        kind: 'search',
        concurrency: PROCESS_KEYLESS_LIMITS.inFlight,
        spacingMs: 0,
        recordsOutcome: false,
      },
      {
        scope: provider.scope,
        kind: 'search',
        concurrency: PROCESS_KEYLESS_LIMITS.inFlight,
        spacingMs: PROCESS_KEYLESS_LIMITS.startSpacingMs,
      },
    ];
  }
  if (provider.id === 'codex')
    return [{ scope: provider.scope, kind: 'search', concurrency: 1, spacingMs: 0 }];
  return [{ scope: provider.scope, kind: 'search', concurrency: 4, spacingMs: 0 }];
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

async function runChain(input: ChainInput): Promise<SearchOutcome> {
  const { request, run, now } = input;
  const startedAt = now();
  const reports: ProviderReport[] = [];
  const accepted: RankedList[] = [];
  const filtered = { outsideDomains: 0, excluded: 0, irrelevant: 0 };
  const warnings: string[] = [];
  const cooldownBackends: ProviderId[] = [];
  const failureCooldownBackends: ProviderId[] = [];
  let answeredBy: SearchProvider | undefined;
  let workingBackend: SearchProvider | undefined;
  let stopped: 'budget_exhausted' | 'cancelled' | undefined;

  for (const id of input.order) {
    const provider = input.providers[id]!;
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
    const remaining = SEARCH_DEADLINE_MS - (now() - startedAt);
    const stageMs =
      id === 'searxng' && !input.strict ? Math.min(AUTO_SEARXNG_STAGE_MS, remaining) : Math.max(remaining, 0);
    const stage = await runStage({ ...input, provider, report, stageMs });
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

  // Throttling is what a backend said (now, earlier in the run, or through the cooldown it opened);
  // a cooldown opened by repeated failures is not throttling.
  const rateLimited = reports.some((report) => report.code === 'rate_limited');
  const retryHint = soonestRetry(reports);
  const base = {
    query: request.query,
    providers: reports,
    rateLimited,
    cooldownBackends,
    failureCooldownBackends,
    ...retryHint,
    requestsUsed: run.budget.requestsUsed,
    requestsRemaining: run.budget.requestsRemaining,
    cacheHit: false,
    sharedInFlight: false,
    filtered,
    warnings,
  };
  // A cancelled search answers `cancelled`, never an empty list the later backends did not get to check.
  if (answeredBy === undefined && (run.signal?.aborted || stopped === 'cancelled')) {
    return {
      ...base,
      status: 'error',
      results: [],
      retryInRun: false,
      nextAction: 'use_available_evidence',
      error: { code: 'cancelled', message: 'the search was cancelled' },
    };
  }
  if (answeredBy !== undefined) {
    const results = reciprocalRankFusion(accepted).slice(0, request.limit);
    return {
      ...base,
      status: 'results',
      backend: answeredBy.id,
      results,
      filterSupport: answeredBy.filterSupport,
      retryInRun: !run.budget.exhausted,
      nextAction: 'fetch_results',
    };
  }
  if (workingBackend !== undefined) {
    const canRetry = !run.budget.exhausted;
    return {
      ...base,
      status: 'no_results',
      backend: workingBackend.id,
      results: [],
      filterSupport: workingBackend.filterSupport,
      retryInRun: canRetry,
      nextAction: canRetry ? 'refine_query' : 'use_available_evidence',
    };
  }
  const error = chainError(reports, run.budget);
  return {
    ...base,
    status: 'error',
    results: [],
    retryInRun: false,
    nextAction: 'use_available_evidence' satisfies NextAction,
    error,
  };
}

function soonestRetry(reports: readonly ProviderReport[]): { retryAfterMs?: number; retryAt?: number } {
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
function chainError(
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

interface StageInput extends ChainInput {
  provider: SearchProvider;
  report: ProviderReport;
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

interface StageResult {
  /** The relevant, in-domain results of the accepting query. */
  list?: RankedList;
  /** Whether the backend answered at all (results or a genuine empty answer). */
  worked: boolean;
  warnings: string[];
  filtered: { outsideDomains: number; excluded: number; irrelevant: number };
}

async function runStage(input: StageInput): Promise<StageResult> {
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
  // Codex spends a subscription turn per query: it is asked the exact main query once, no alternates.
  const queries = provider.id === 'codex' ? [request.query] : [request.query, ...request.alternateQueries];
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
  const requestTimeout =
    provider.id === 'searxng' && input.strict
      ? Math.min(timeoutMs, SEARXNG_STRICT_REQUEST_TIMEOUT_MS)
      : timeoutMs;
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
