import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { parseToolArguments, renderSearchOutcome, WebSearchInput } from '@mono-agent/tool-adapters';
import type { RunContext } from './run-context.js';
import type { ToolCallResult } from './web-runtime.js';

/** One WebSearch call of a run: validate, share identical calls, run the chain, render, report. */
export async function webSearchCall(
  context: RunContext,
  args: unknown,
  callOptions: { signal?: AbortSignal } = {},
): Promise<ToolCallResult> {
  const { budget, deferrals, chain } = context;
  context.ensureOpen();
  const startedAt = performance.now();
  const parsed = parseToolArguments(WebSearchInput, args);
  if (!parsed.ok)
    return {
      text: `WebSearch status: error | error: validation_error\n${parsed.message}`,
      isError: true,
    };
  const value = parsed.value;
  const input = {
    query: value.query,
    ...(value.alternate_queries === undefined ? {} : { alternateQueries: value.alternate_queries }),
    ...(value.limit === undefined ? {} : { limit: value.limit }),
    ...(value.domains === undefined ? {} : { domains: value.domains }),
    ...(value.exclude_domains === undefined ? {} : { excludeDomains: value.exclude_domains }),
    ...(value.language === undefined ? {} : { language: value.language }),
    ...(value.time_range === undefined ? {} : { timeRange: value.time_range }),
  };
  const usedBefore = budget.requestsUsed;
  let outcome: SearchOutcome;
  try {
    outcome = await context.share(`search:${JSON.stringify(input)}`, () =>
      chain.search(input, { budget, deferrals, signal: context.signalFor(callOptions.signal) }),
    );
  } catch (error) {
    const code: FailureCode = WebToolError.isInstance(error) ? error.code : 'internal_error';
    const message = WebToolError.isInstance(error) && code === 'validation_error' ? `\n${error.message}` : '';
    context.emit({
      tool: 'WebSearch',
      status: 'error',
      errorCode: code,
      durationMs: performance.now() - startedAt,
      cacheHit: false,
      truncated: false,
    });
    return { text: `WebSearch status: error | error: ${code}${message}`, isError: true, code };
  }
  const result = await context.guarded('WebSearch', renderSearchOutcome(outcome), outcome.status === 'error');
  context.emit({
    tool: 'WebSearch',
    status: outcome.status === 'results' ? 'ok' : outcome.status,
    ...(outcome.error === undefined ? {} : { errorCode: outcome.error.code }),
    durationMs: performance.now() - startedAt,
    ...(outcome.backend === undefined ? {} : { backend: outcome.backend }),
    requests: budget.requestsUsed - usedBefore,
    requestBudget: budget.limit,
    requestsRemaining: budget.requestsRemaining,
    cooldownSkips: outcome.providers.filter((report) => report.disposition === 'cooldown').length,
    quotaSkips: outcome.providers.filter((report) => report.disposition === 'quota_skipped').length,
    nextAction: outcome.nextAction,
    ...(outcome.retryAt === undefined ? {} : { retryAt: outcome.retryAt }),
    cacheHit: outcome.cacheHit || outcome.sharedInFlight,
    truncated: result.truncated,
  });
  return {
    text: result.text,
    isError: result.isError,
    ...(outcome.error === undefined ? {} : { code: outcome.error.code }),
    data: outcome,
  };
}
