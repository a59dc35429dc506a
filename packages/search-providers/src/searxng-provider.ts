import { WebToolError } from '@mono-agent/budget-policy';
import { type HttpResponse, httpRequest, type NetworkPolicy } from '@mono-agent/net';
import { refuseUnlessPolicyAllows } from './destination-policy.js';
import { normalizeResultUrl } from './normalize-result-url.js';
import { operatorEndpointPolicy, parseLoopbackEndpoint } from './operator-endpoint.js';
import type {
  FilterSupport,
  ProviderAnswer,
  ProviderCallContext,
  ProviderLimits,
  ProviderSearchRequest,
  SearchProvider,
} from './search-provider.js';
import type { SearchResult } from './search-result.js';
import {
  describeEngineFailures,
  type EngineFailure,
  isThrottleReason,
  parseUnresponsiveEngines,
} from './searxng-engine-health.js';

/** In strict `searxng` mode, the most one SearXNG request may take. */
export const SEARXNG_STRICT_REQUEST_TIMEOUT_MS = 15_000;
/** In auto mode, SearXNG's admission and request together get this long before the chain moves on. */
export const AUTO_SEARXNG_STAGE_MS = 3_000;

/**
 * One SearXNG endpoint: four requests in flight in one process; in host mode one at a time, two seconds
 * apart, for every opted-in process. A local instance answers fast or not at all, so auto mode gives it
 * a short stage; asked alone, it gets longer, but never the whole deadline for one request.
 */
export const SEARXNG_LIMITS: ProviderLimits = {
  host: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
  process: [{ kind: 'search', concurrency: 4, spacingMs: 0 }],
  alternateQueries: true,
  autoStageMs: AUTO_SEARXNG_STAGE_MS,
  strictRequestMs: SEARXNG_STRICT_REQUEST_TIMEOUT_MS,
};

/** Options of {@link createSearxngProvider}. */
export interface SearxngProviderOptions {
  /** The instance's base URL: loopback `http://` without credentials, query or fragment. */
  endpoint: string;
  /** The run's network policy; the endpoint is contacted only where it allows. */
  policy: NetworkPolicy;
  /** The HTTP transport; `httpRequest` from `@mono-agent/net` unless a test swaps it. */
  transport?: typeof httpRequest;
}

/** SearXNG applies both filters itself. */
export const SEARXNG_FILTER_SUPPORT: FilterSupport = { language: 'supported', timeRange: 'supported' };

/** A provider for a SearXNG (or searx) instance's JSON API. */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  const endpoint = parseLoopbackEndpoint(options.endpoint, 'tools.web.search.searxng.endpoint');
  const transport = options.transport ?? httpRequest;
  const policy = operatorEndpointPolicy(options.policy, endpoint);
  const searchUrl = new URL(`${endpoint.pathname.replace(/\/+$/, '')}/search`, endpoint);
  return {
    id: 'searxng',
    scope: `searxng:${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}`,
    filterSupport: SEARXNG_FILTER_SUPPORT,
    limits: SEARXNG_LIMITS,
    checkDestination() {
      refuseUnlessPolicyAllows(policy, searchUrl, 'searxng');
    },
    async search(request: ProviderSearchRequest, context: ProviderCallContext): Promise<ProviderAnswer> {
      const url = new URL(searchUrl);
      url.searchParams.set('q', request.query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', '1');
      if (request.language !== undefined) url.searchParams.set('language', request.language);
      if (request.timeRange !== undefined) url.searchParams.set('time_range', request.timeRange);
      // A request the policy refuses is never sent, so it is never charged.
      refuseUnlessPolicyAllows(policy, url, 'searxng');
      context.beforeRequest();
      const response = await transport(url, {
        policy,
        headers: { Accept: 'application/json' },
        redirect: 'manual',
        retries: 0,
        deadlineMs: context.timeoutMs,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      return classifySearxngResponse(response, request.limit);
    },
  };
}

interface SearxngBody {
  results?: unknown;
  unresponsive_engines?: unknown;
}

/**
 * Classifies one SearXNG answer: results → success (failed engines become warnings); empty with no
 * unresponsive engines → genuine no results; empty with unresponsive engines → `rate_limited` when
 * any engine was blocked or throttled, else `backend_unavailable`, naming every engine and reason.
 */
export function classifySearxngResponse(response: HttpResponse, limit: number): ProviderAnswer {
  if (response.status === 403) {
    throw new WebToolError({
      code: 'configuration_error',
      message:
        'SearXNG refused JSON output (HTTP 403): add "json" to search.formats in its settings.yml and restart it',
      details: { backend: 'searxng', status: 403 },
    });
  }
  if (response.status === 429) {
    throw new WebToolError({
      code: 'rate_limited',
      message: 'SearXNG rate-limited this client (HTTP 429 from its limiter)',
      details: { backend: 'searxng', status: 429 },
      ...retryHints(response),
    });
  }
  if (response.status >= 300 && response.status <= 399) {
    // Never followed: a search endpoint that redirects is misconfigured or fronted by a block page.
    throw new WebToolError({
      code: 'backend_unavailable',
      message: `SearXNG answered a redirect (HTTP ${response.status}), which is not followed: point tools.web.search.searxng.endpoint at the instance's base URL`,
      details: { backend: 'searxng', status: response.status, rule: 'redirect' },
    });
  }
  if (response.status < 200 || response.status > 299) {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: `SearXNG answered HTTP ${response.status}`,
      details: { backend: 'searxng', status: response.status },
    });
  }
  const body = parseBody(response.body);
  const failures = parseUnresponsiveEngines(body.unresponsive_engines);
  const warnings =
    failures.length === 0 ? [] : [`some SearXNG engines failed: ${describeEngineFailures(failures)}`];
  const results = parseResults(body.results).slice(0, limit);
  const engineFailures = failures.length === 0 ? {} : { engineFailures: failures };
  if (results.length > 0) return { kind: 'results', results, warnings, ...engineFailures };
  if (failures.length === 0) return { kind: 'no_results', warnings };
  const throttled = failures.some((failure) => isThrottleReason(failure.reason));
  throw new WebToolError({
    code: throttled ? 'rate_limited' : 'backend_unavailable',
    message: `SearXNG returned no results because its engines failed: ${describeEngineFailures(failures)}`,
    details: { backend: 'searxng', engines: failures satisfies EngineFailure[] },
  });
}

function parseBody(bytes: Uint8Array): SearxngBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'SearXNG answered with a body that is not JSON (is this a SearXNG endpoint?)',
      details: { backend: 'searxng', rule: 'json' },
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'SearXNG answered with JSON that is not a search response object',
      details: { backend: 'searxng', rule: 'shape' },
    });
  }
  return parsed as SearxngBody;
}

function parseResults(value: unknown): SearchResult[] {
  if (!Array.isArray(value)) return [];
  const results: SearchResult[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const url = typeof record.url === 'string' ? normalizeResultUrl(record.url) : undefined;
    if (url === undefined) continue;
    results.push({
      url,
      title: typeof record.title === 'string' ? record.title : '',
      snippet: typeof record.content === 'string' ? record.content : '',
    });
  }
  return results;
}

function retryHints(response: HttpResponse) {
  return {
    ...(response.retryAfterMs === undefined ? {} : { retryAfterMs: response.retryAfterMs }),
    ...(response.retryAt === undefined ? {} : { retryAt: response.retryAt }),
  };
}
