import { WebToolError } from '@mono-agent/budget-policy';
import { SEARCH_THROTTLE_COOLDOWN_MS } from '@mono-agent/host-coordination';
import {
  buildDuckDuckGoRequest,
  buildStartpageRequest,
  DUCKDUCKGO_HTML_ENDPOINT,
  duckDuckGoFilterSupport,
  type KeylessHttpRequest,
  type KeylessParseOutcome,
  type KeylessResponse,
  type KeylessSearchRequest,
  parseDuckDuckGoHtml,
  parseStartpageHtml,
  STARTPAGE_SEARCH_ENDPOINT,
  startpageFilterSupport,
} from '@mono-agent/keyless-html';
import { ALLOWED_REQUEST_HEADERS, httpRequest, type NetworkPolicy } from '@mono-agent/net';
import { refuseUnlessPolicyAllows } from './destination-policy.js';
import { normalizeResultUrl } from './normalize-result-url.js';
import type {
  FilterSupport,
  ProviderAdmission,
  ProviderAnswer,
  ProviderCallContext,
  ProviderLimits,
  ProviderSearchRequest,
  SearchProvider,
} from './search-provider.js';
import type { SearchResult } from './search-result.js';

/** DuckDuckGo gets its date parameter and a region/language hint; neither is guaranteed. */
export const DUCKDUCKGO_FILTER_SUPPORT: FilterSupport = { ...duckDuckGoFilterSupport };
/** Startpage gets an advisory date parameter; language is not sent. */
export const STARTPAGE_FILTER_SUPPORT: FilterSupport = { ...startpageFilterSupport };

/**
 * The process-mode bounds of the keyless engines (DuckDuckGo, Startpage): requests in flight across
 * both engines, spacing between starts to one engine, and the throttle cooldown. Each request admits a
 * shared `keyless` scope with `inFlight` concurrency, then the engine's scope with `startSpacingMs`.
 */
export const PROCESS_KEYLESS_LIMITS = {
  /** Keyless requests in flight in one process. */
  inFlight: 3,
  /** Milliseconds between starts to the same engine. */
  startSpacingMs: 1_500,
  /** Milliseconds a throttled engine cools down: the coordinator's cooldown of a search scope. */
  throttleCooldownMs: SEARCH_THROTTLE_COOLDOWN_MS,
} as const;

/**
 * The process-mode admissions of either keyless engine. The shared scope only bounds requests in
 * flight: it records no verdict, so one engine's throttling cannot cool the other down. The engine's
 * own scope spaces its starts and carries its cooldown.
 */
const PROCESS_KEYLESS_ADMISSIONS: readonly ProviderAdmission[] = [
  {
    scope: 'keyless',
    kind: 'search',
    concurrency: PROCESS_KEYLESS_LIMITS.inFlight,
    spacingMs: 0,
    recordsOutcome: false,
  },
  {
    kind: 'search',
    concurrency: PROCESS_KEYLESS_LIMITS.inFlight,
    spacingMs: PROCESS_KEYLESS_LIMITS.startSpacingMs,
  },
];

/** DuckDuckGo HTML: in host mode its own scope, one request at a time, three seconds apart. */
export const DUCKDUCKGO_LIMITS: ProviderLimits = {
  host: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
  process: PROCESS_KEYLESS_ADMISSIONS,
  alternateQueries: true,
};

/** Startpage: in host mode its own scope, one request at a time, three seconds apart. */
export const STARTPAGE_LIMITS: ProviderLimits = {
  host: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
  process: PROCESS_KEYLESS_ADMISSIONS,
  alternateQueries: true,
};

/** Options of the keyless providers. */
export interface KeylessProviderOptions {
  /** The run's network policy: the engines are public hosts, so `localhost` and `none` block them. */
  policy: NetworkPolicy;
  /** The engine's endpoint; the public one unless a test points it at a local replay. */
  endpoint?: string;
  /** The HTTP transport; `httpRequest` from `@mono-agent/net` unless a test swaps it. */
  transport?: typeof httpRequest;
}

interface KeylessEngine {
  id: 'duckduckgo' | 'startpage';
  label: string;
  defaultEndpoint: string;
  filterSupport: FilterSupport;
  limits: ProviderLimits;
  build: (request: KeylessSearchRequest) => KeylessHttpRequest;
  parse: (response: KeylessResponse, options: { limit: number }) => KeylessParseOutcome;
}

/** A provider for the keyless DuckDuckGo HTML endpoint. */
export function createDuckDuckGoProvider(options: KeylessProviderOptions): SearchProvider {
  return createKeylessProvider(
    {
      id: 'duckduckgo',
      label: 'DuckDuckGo',
      defaultEndpoint: DUCKDUCKGO_HTML_ENDPOINT,
      filterSupport: DUCKDUCKGO_FILTER_SUPPORT,
      limits: DUCKDUCKGO_LIMITS,
      build: buildDuckDuckGoRequest,
      parse: parseDuckDuckGoHtml,
    },
    options,
  );
}

/** A provider for the keyless Startpage result page. */
export function createStartpageProvider(options: KeylessProviderOptions): SearchProvider {
  return createKeylessProvider(
    {
      id: 'startpage',
      label: 'Startpage',
      defaultEndpoint: STARTPAGE_SEARCH_ENDPOINT,
      filterSupport: STARTPAGE_FILTER_SUPPORT,
      limits: STARTPAGE_LIMITS,
      build: buildStartpageRequest,
      parse: parseStartpageHtml,
    },
    options,
  );
}

const allowedHeaders = new Set(ALLOWED_REQUEST_HEADERS.map((name) => name.toLowerCase()));

function createKeylessProvider(engine: KeylessEngine, options: KeylessProviderOptions): SearchProvider {
  const transport = options.transport ?? httpRequest;
  const endpoint = new URL(options.endpoint ?? engine.defaultEndpoint);
  return {
    id: engine.id,
    scope: `${engine.id}:${endpoint.origin}`,
    filterSupport: engine.filterSupport,
    limits: engine.limits,
    checkDestination() {
      refuseUnlessPolicyAllows(options.policy, endpoint, engine.id);
    },
    async search(request: ProviderSearchRequest, context: ProviderCallContext): Promise<ProviderAnswer> {
      const built = engine.build({
        query: request.query,
        limit: request.limit,
        ...(request.language === undefined ? {} : { language: request.language }),
        ...(request.timeRange === undefined ? {} : { timeRange: request.timeRange }),
      });
      // The builders address the public engine; a configured endpoint keeps path and parameters.
      const target = new URL(built.url);
      const url = new URL(`${endpoint.pathname}${target.search}`, endpoint);
      // Only the headers the one HTTP path allows travel; the body's type and the engine's own page as
      // Referer go through their own options.
      const headers = Object.fromEntries(
        Object.entries(built.headers).filter(([name]) => allowedHeaders.has(name.toLowerCase())),
      );
      const contentType = built.headers['content-type'];
      const referer = refererFor(built.headers.referer, target, endpoint);
      // A request the policy refuses is never sent, so it is never charged.
      refuseUnlessPolicyAllows(options.policy, url, engine.id);
      context.beforeRequest();
      const response = await transport(url, {
        policy: options.policy,
        method: built.method,
        headers,
        ...(built.body === undefined ? {} : { body: built.body }),
        ...(contentType === undefined ? {} : { contentType }),
        ...(referer === undefined ? {} : { referer }),
        // A redirect is how these engines say "blocked": it is classified, never followed.
        redirect: 'manual',
        retries: 0,
        deadlineMs: context.timeoutMs,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      const outcome = engine.parse(
        {
          status: response.status,
          headers: response.headers,
          body: new TextDecoder('utf-8').decode(response.body),
          url: response.url,
        },
        { limit: request.limit },
      );
      return toAnswer(engine, outcome, response);
    },
  };
}

/**
 * The Referer for the request actually sent: the engine's page as the builder names it, moved to the
 * configured endpoint's origin when a local replay stands in for the engine (as the URL is).
 */
function refererFor(referer: string | undefined, built: URL, endpoint: URL): string | undefined {
  if (referer === undefined) return undefined;
  try {
    const page = new URL(referer);
    if (page.origin !== built.origin || endpoint.origin === built.origin) return page.href;
    return new URL(`${page.pathname}${page.search}`, endpoint.origin).href;
  } catch {
    return undefined;
  }
}

function toAnswer(
  engine: KeylessEngine,
  outcome: KeylessParseOutcome,
  response: { status: number; retryAfterMs?: number; retryAt?: number },
): ProviderAnswer {
  switch (outcome.kind) {
    case 'results': {
      const results: SearchResult[] = [];
      for (const result of outcome.results) {
        const url = normalizeResultUrl(result.url);
        if (url !== undefined) results.push({ url, title: result.title, snippet: result.snippet });
      }
      return results.length > 0
        ? { kind: 'results', results, warnings: [] }
        : { kind: 'no_results', warnings: [] };
    }
    case 'no_results':
      return { kind: 'no_results', warnings: [] };
    case 'rate_limited':
      throw new WebToolError({
        code: 'rate_limited',
        message: `${engine.label} is blocking or throttling this address (${outcome.reason})`,
        details: { backend: engine.id, status: response.status, signal: outcome.signal },
        ...(response.retryAfterMs === undefined ? {} : { retryAfterMs: response.retryAfterMs }),
        ...(response.retryAt === undefined ? {} : { retryAt: response.retryAt }),
      });
    case 'unavailable':
      throw new WebToolError({
        code: 'backend_unavailable',
        message: `${engine.label} answered HTTP ${outcome.status} (${outcome.reason})`,
        details: { backend: engine.id, status: outcome.status },
      });
  }
}
