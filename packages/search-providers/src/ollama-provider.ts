import { WebToolError } from '@mono-agent/budget-policy';
import { classifyAddress, type HttpResponse, httpRequest, type NetworkPolicy } from '@mono-agent/net';
import { refuseUnlessPolicyAllows } from './destination-policy.js';
import { normalizeResultUrl } from './normalize-result-url.js';
import { DEFAULT_OLLAMA_BASE_URL, OLLAMA_HOSTED_ORIGIN } from './ollama-origins.js';
import { operatorEndpointPolicy } from './operator-endpoint.js';
import type {
  FilterSupport,
  ProviderAnswer,
  ProviderCallContext,
  ProviderLimits,
  ProviderSearchRequest,
  SearchProvider,
} from './search-provider.js';
import type { SearchResult } from './search-result.js';

/** The path a local daemon serves web search on. */
export const OLLAMA_LOCAL_SEARCH_PATH = '/api/experimental/web_search';
/** The hosted path, also tried on a local origin that does not know the experimental one. */
export const OLLAMA_SEARCH_PATH = '/api/web_search';

/** Ollama receives both filters only as advice. */
export const OLLAMA_FILTER_SUPPORT: FilterSupport = { language: 'advisory', timeRange: 'advisory' };

/**
 * One Ollama origin: four requests in flight in one process; in host mode one at a time, two seconds
 * apart, for every opted-in process.
 */
export const OLLAMA_LIMITS: ProviderLimits = {
  host: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
  process: [{ kind: 'search', concurrency: 4, spacingMs: 0 }],
  alternateQueries: true,
};

/** Options of {@link createOllamaProvider}. */
export interface OllamaProviderOptions {
  /** The Ollama origin; {@link DEFAULT_OLLAMA_BASE_URL} when omitted. */
  baseUrl?: string;
  /** The name of the environment variable holding the hosted API key (only for https://ollama.com). */
  apiKeyEnv?: string;
  /** Allows a custom public HTTPS origin (which never receives a key). */
  trustPublicUrl?: boolean;
  /** Where `apiKeyEnv` is read from; `process.env` unless a host passes its own. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The run's network policy. */
  policy: NetworkPolicy;
  /** The HTTP transport; `httpRequest` from `@mono-agent/net` unless a test swaps it. */
  transport?: typeof httpRequest;
}

/** How an Ollama origin is treated. */
export type OllamaOriginKind = 'local' | 'hosted' | 'custom';

/**
 * Sorts an origin into local (loopback, private addresses, `localhost`: operator endpoints, plain
 * http allowed), hosted (exactly https://ollama.com) or custom (any other public origin).
 */
export function classifyOllamaOrigin(url: URL): OllamaOriginKind {
  if (url.origin === OLLAMA_HOSTED_ORIGIN) return 'hosted';
  if (url.hostname === 'localhost') return 'local';
  const address = classifyAddress(url.hostname);
  return address !== undefined && !address.public ? 'local' : 'custom';
}

/**
 * A provider for Ollama Web Search. Local origins get the experimental path, then the hosted path
 * on 404/405 (two requests, each charged); the hosted origin gets only its path with the bearer key;
 * a custom public origin must be HTTPS and trusted explicitly, and never gets a key. Redirects are
 * refused everywhere, so a key cannot be carried to another origin.
 */
export function createOllamaProvider(options: OllamaProviderOptions): SearchProvider {
  const field = 'tools.web.search.ollama';
  const base = parseBaseUrl(options.baseUrl ?? DEFAULT_OLLAMA_BASE_URL, `${field}.baseUrl`);
  const kind = classifyOllamaOrigin(base);
  if (kind === 'custom') {
    if (base.protocol !== 'https:') {
      throw invalid(`${field}.baseUrl must use https:// for a public origin (${base.origin})`, 'https');
    }
    if (options.trustPublicUrl !== true) {
      throw invalid(
        `${field}.baseUrl ${base.origin} is a public origin: set ${field}.trustPublicUrl to true to use it`,
        'trust_public_url',
      );
    }
  }
  if (kind === 'hosted' && (options.apiKeyEnv === undefined || options.apiKeyEnv.trim() === '')) {
    throw invalid(
      `${field}.apiKeyEnv must name the environment variable holding the key for ${OLLAMA_HOSTED_ORIGIN}`,
      'api_key_env',
    );
  }
  if (options.apiKeyEnv !== undefined && kind !== 'hosted') {
    throw invalid(
      `${field}.apiKeyEnv is only allowed with ${OLLAMA_HOSTED_ORIGIN}; a key is never sent to ${base.origin}`,
      'api_key_origin',
    );
  }
  const transport = options.transport ?? httpRequest;
  const policy = kind === 'hosted' ? options.policy : operatorEndpointPolicy(options.policy, base);
  const environment = options.env ?? process.env;
  const paths = kind === 'hosted' ? [OLLAMA_SEARCH_PATH] : [OLLAMA_LOCAL_SEARCH_PATH, OLLAMA_SEARCH_PATH];

  return {
    id: 'ollama',
    scope: `ollama:${base.origin}`,
    filterSupport: OLLAMA_FILTER_SUPPORT,
    limits: OLLAMA_LIMITS,
    checkDestination() {
      refuseUnlessPolicyAllows(policy, base, 'ollama');
    },
    async search(request: ProviderSearchRequest, context: ProviderCallContext): Promise<ProviderAnswer> {
      const authorization =
        kind === 'hosted' ? hostedAuthorization(options.apiKeyEnv, environment) : undefined;
      const body = JSON.stringify({ query: request.query, max_results: request.limit });
      // A request the policy refuses is never sent, so it is never charged.
      refuseUnlessPolicyAllows(policy, base, 'ollama');
      for (const [index, path] of paths.entries()) {
        context.beforeRequest();
        const response = await transport(new URL(path, base), {
          policy,
          method: 'POST',
          body,
          contentType: 'application/json',
          headers: { Accept: 'application/json' },
          redirect: 'error',
          retries: 0,
          deadlineMs: context.timeoutMs,
          ...(authorization === undefined ? {} : { authorization }),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
        const isLast = index === paths.length - 1;
        if (!isLast && (response.status === 404 || response.status === 405)) continue;
        return classifyOllamaResponse(response, request.limit);
      }
      throw new Error('unreachable: the last Ollama path always returns or throws');
    },
  };
}

/** Classifies an Ollama web-search answer into results or a failure code. */
export function classifyOllamaResponse(response: HttpResponse, limit: number): ProviderAnswer {
  refuseFailedStatus(response);
  const results: SearchResult[] = [];
  for (const entry of resultEntries(response.body)) {
    const result = readResult(entry);
    if (result !== undefined) results.push(result);
  }
  const bounded = results.slice(0, limit);
  return bounded.length > 0
    ? { kind: 'results', results: bounded, warnings: [] }
    : { kind: 'no_results', warnings: [] };
}

/** Throws the failure a status outside 2xx stands for: throttling, a refused account or an outage. */
function refuseFailedStatus(response: HttpResponse): void {
  const status = response.status;
  if (status === 429) {
    throw new WebToolError({
      code: 'rate_limited',
      message: 'Ollama Web Search is rate-limiting this account (HTTP 429)',
      details: { backend: 'ollama', status },
      ...(response.retryAfterMs === undefined ? {} : { retryAfterMs: response.retryAfterMs }),
      ...(response.retryAt === undefined ? {} : { retryAt: response.retryAt }),
    });
  }
  if (status === 401 || status === 403) {
    throw new WebToolError({
      code: 'configuration_error',
      message:
        status === 401
          ? 'Ollama Web Search refused the request as unauthorized: sign the daemon in (`ollama signin`) or check the API key'
          : 'Ollama Web Search is not enabled for this daemon or account (HTTP 403)',
      details: { backend: 'ollama', status },
    });
  }
  if (status < 200 || status > 299) {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: `Ollama Web Search answered HTTP ${status}`,
      details: { backend: 'ollama', status },
    });
  }
}

/** The `results` list of a JSON body; a body that is not JSON, or holds no list, is a backend failure. */
function resultEntries(body: HttpResponse['body']): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'Ollama Web Search answered with a body that is not JSON',
      details: { backend: 'ollama', rule: 'json' },
    });
  }
  const entries = (parsed as { results?: unknown } | null)?.results;
  if (!Array.isArray(entries)) {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'Ollama Web Search answered without a results list',
      details: { backend: 'ollama', rule: 'shape' },
    });
  }
  return entries;
}

/** One entry as a result; an entry without a usable URL is dropped, missing text reads as empty. */
function readResult(entry: unknown): SearchResult | undefined {
  const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const url = typeof record.url === 'string' ? normalizeResultUrl(record.url) : undefined;
  if (url === undefined) return undefined;
  return {
    url,
    title: typeof record.title === 'string' ? record.title : '',
    snippet: typeof record.content === 'string' ? record.content : '',
  };
}

function hostedAuthorization(
  apiKeyEnv: string | undefined,
  environment: Readonly<Record<string, string | undefined>>,
): string {
  const key = apiKeyEnv === undefined ? undefined : environment[apiKeyEnv];
  if (key === undefined || key.trim() === '') {
    throw new WebToolError({
      code: 'configuration_error',
      message: `hosted Ollama Web Search needs an API key in the environment variable ${apiKeyEnv}, which is not set`,
      details: { backend: 'ollama', rule: 'api_key' },
    });
  }
  return `Bearer ${key.trim()}`;
}

function parseBaseUrl(input: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid(`${field} '${input}' is not a URL`, 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`${field} must be http(s)`, 'scheme');
  if (url.username !== '' || url.password !== '')
    throw invalid(`${field} must not contain credentials`, 'credentials');
  if (url.search !== '' || url.hash !== '' || input.includes('?') || input.includes('#')) {
    throw invalid(`${field} must not contain a query or fragment`, 'query');
  }
  if (url.pathname !== '/')
    throw invalid(`${field} must be an origin without a path (${url.pathname})`, 'path');
  return url;
}

function invalid(message: string, rule: string) {
  return new WebToolError({ code: 'validation_error', message, details: { backend: 'ollama', rule } });
}
