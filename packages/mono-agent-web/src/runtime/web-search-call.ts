import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { SearchOutcome, SearchRequestInput } from '@mono-agent/search-providers';
import {
  parseToolArguments,
  type RenderSearchOptions,
  renderSearchOutcome,
  type WebSearchArguments,
  WebSearchInput,
} from '@mono-agent/tool-adapters';
import type { CallOptions } from './call-progress.js';
import type { RunContext } from './run-context.js';
import type { ToolCallResult } from './runtime-types.js';

// Runs whose first search has already said that a fresh run began after an idle gap.
const announcedFreshRuns = new WeakSet<RunContext>();

/** One WebSearch call of a run: validate, share identical calls, run the chain, render, report. */
export async function webSearchCall(
  context: RunContext,
  args: unknown,
  callOptions: CallOptions = {},
): Promise<ToolCallResult> {
  const { budget, deferrals, chain } = context;
  context.ensureOpen();
  const startedAt = performance.now();
  const failed = (code: FailureCode, detail: string): ToolCallResult => {
    // Every call leaves one event, a refused one too, so a host sees the model's invalid calls.
    context.emit({
      tool: 'WebSearch',
      status: 'error',
      errorCode: code,
      durationMs: performance.now() - startedAt,
      requests: 0,
      requestBudget: budget.limit,
      requestsRemaining: budget.requestsRemaining,
      cacheHit: false,
      truncated: false,
    });
    return { text: `WebSearch status: error | error: ${code}${detail}`, isError: true, code };
  };
  const parsed = parseToolArguments(WebSearchInput, args);
  if (!parsed.ok) return failed('validation_error', `\n${parsed.message}`);
  const input = searchRequestInput(parsed.value);
  let led = false;
  let outcome: SearchOutcome;
  const signal = context.signalFor(callOptions.signal);
  const ownSearch = () => chain.search(input, { budget, deferrals, signal });
  try {
    const shared = context.share(`search:${JSON.stringify(input)}`, () => {
      led = true;
      callOptions.onProgress?.({ stage: 'searching' });
      return ownSearch();
    });
    if (led) outcome = await shared;
    else {
      const settled = await untilAborted(shared, signal);
      if (answersFollower(settled, signal)) outcome = settled;
      else {
        led = true;
        outcome = await ownSearch();
      }
    }
  } catch (error) {
    return failed(failureCode(error), failureDetail(error));
  }
  // An identical call of this run already in flight answered this one: it sent nothing itself.
  if (!led) outcome = sharedAnswer(outcome, budget);
  const rendered = renderSearchOutcome(outcome, freshRunNotice(context));
  const result = await context.guarded('WebSearch', rendered, outcome.status === 'error');
  emitSearchEvent(context, outcome, result.truncated, startedAt);
  return {
    text: result.text,
    isError: result.isError,
    ...(outcome.error === undefined ? {} : { code: outcome.error.code }),
    data: outcome,
  };
}

/** The chain's request for validated WebSearch arguments: only the options the call gave. */
function searchRequestInput(value: WebSearchArguments): SearchRequestInput {
  return {
    query: value.query,
    ...(value.alternate_queries === undefined ? {} : { alternateQueries: value.alternate_queries }),
    ...(value.limit === undefined ? {} : { limit: value.limit }),
    ...(value.domains === undefined ? {} : { domains: value.domains }),
    ...(value.exclude_domains === undefined ? {} : { excludeDomains: value.exclude_domains }),
    ...(value.language === undefined ? {} : { language: value.language }),
    ...(value.time_range === undefined ? {} : { timeRange: value.time_range }),
  };
}

/**
 * Whether the leader's outcome answers a follower. A follower answers for its own call: its own
 * cancellation ends it at once, and the leader's cancellation (the leader's caller gave up) is no
 * answer for a call that still wants one.
 */
function answersFollower(settled: SearchOutcome | undefined, signal: AbortSignal): settled is SearchOutcome {
  if (settled === undefined) return false;
  return !(settled.error?.code === 'cancelled' && !signal.aborted);
}

/** The failure code a thrown search reports; anything but a tool error is an internal one. */
function failureCode(error: unknown): FailureCode {
  return WebToolError.isInstance(error) ? error.code : 'internal_error';
}

/** The text after a thrown search's code: only a refused request says why, for the model to fix it. */
function failureDetail(error: unknown): string {
  return WebToolError.isInstance(error) && error.code === 'validation_error' ? `\n${error.message}` : '';
}

/** A leader's outcome as a follower's: it sent no requests and reports the budget as it is now. */
function sharedAnswer(outcome: SearchOutcome, budget: RunContext['budget']): SearchOutcome {
  return {
    ...outcome,
    providers: outcome.providers.map((report) => ({ ...report, requests: 0 })),
    requestsUsed: budget.requestsUsed,
    requestsRemaining: budget.requestsRemaining,
    sharedInFlight: !outcome.cacheHit,
  };
}

/** The notice of a fresh run after an idle gap, given by the first search of that run only. */
function freshRunNotice(context: RunContext): RenderSearchOptions {
  const fresh = context.freshAfterIdleSeconds;
  if (fresh === undefined || announcedFreshRuns.has(context)) return {};
  announcedFreshRuns.add(context);
  return { freshRunAfterIdleSeconds: fresh };
}

/** Sums what the call's providers report: the requests sent and the time queued and at the backend. */
function providerTotals(providers: SearchOutcome['providers']) {
  let queueWaitMs = 0;
  let backendMs = 0;
  let requests = 0;
  for (const report of providers) {
    queueWaitMs += report.queueWaitMs ?? 0;
    backendMs += report.backendMs ?? 0;
    requests += report.requests;
  }
  return { queueWaitMs, backendMs, requests };
}

/** Leaves the event of a call that ran (or shared) a search. */
function emitSearchEvent(
  context: RunContext,
  outcome: SearchOutcome,
  truncated: boolean,
  startedAt: number,
): void {
  const { budget } = context;
  const reused = outcome.cacheHit || outcome.sharedInFlight;
  const { queueWaitMs, backendMs, requests } = providerTotals(outcome.providers);
  context.emit({
    tool: 'WebSearch',
    status: outcome.status === 'results' ? 'ok' : outcome.status,
    ...(outcome.error === undefined ? {} : { errorCode: outcome.error.code }),
    durationMs: performance.now() - startedAt,
    ...(outcome.backend === undefined ? {} : { backend: outcome.backend }),
    // This call's own requests, not a budget delta that a concurrent call of the run would inflate.
    requests: reused ? 0 : requests,
    requestBudget: budget.limit,
    requestsRemaining: budget.requestsRemaining,
    cooldownSkips: outcome.providers.filter((report) => report.disposition === 'cooldown').length,
    quotaSkips: outcome.providers.filter((report) => report.disposition === 'quota_skipped').length,
    nextAction: outcome.nextAction,
    ...(outcome.retryAt === undefined ? {} : { retryAt: outcome.retryAt }),
    queueWaitMs: reused ? 0 : Math.round(queueWaitMs),
    backendMs: reused ? 0 : Math.round(backendMs),
    timedOut: outcome.providers.some((report) => report.code === 'timeout'),
    cacheHit: reused,
    truncated,
  });
}

/** Settles with `work`, or with `undefined` as soon as `signal` fires. */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
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
