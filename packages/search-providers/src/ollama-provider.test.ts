import { WebToolError } from '@mono-agent/budget-policy';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { HttpRequestOptions, HttpResponse, NetworkPolicy } from '@mono-agent/net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureOf } from '../test/failure-of.js';
import { classifyOllamaOrigin, createOllamaProvider } from './ollama-provider.js';
import type { ProviderCallContext } from './search-provider.js';

// Ollama's web_search answer shape ({ results: [{ title, url, content }] }) and its error bodies.
const OLLAMA_RESULTS = JSON.stringify({
  results: [
    {
      title: 'Ollama',
      url: 'https://ollama.com/?utm_source=x',
      content: 'Get up and running with large language models.',
    },
    { title: 'No URL', content: 'dropped' },
    { title: 'Ollama on GitHub', url: 'https://github.com/ollama/ollama', content: 'Run models locally.' },
  ],
});

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

function context(): ProviderCallContext & { charged: number } {
  const state = {
    charged: 0,
    timeoutMs: 5000,
    beforeRequest() {
      state.charged += 1;
    },
  };
  return state;
}

const environment = { OLLAMA_API_KEY: 'sk-ollama-secret-value' };

describe('Ollama origin rules', () => {
  it('classifies origins', () => {
    expect(classifyOllamaOrigin(new URL('http://127.0.0.1:11434'))).toBe('local');
    expect(classifyOllamaOrigin(new URL('http://localhost:11434'))).toBe('local');
    expect(classifyOllamaOrigin(new URL('http://192.168.1.20:11434'))).toBe('local');
    expect(classifyOllamaOrigin(new URL('http://[::1]:11434'))).toBe('local');
    expect(classifyOllamaOrigin(new URL('https://ollama.com'))).toBe('hosted');
    expect(classifyOllamaOrigin(new URL('https://ollama.com:8443'))).toBe('custom');
    expect(classifyOllamaOrigin(new URL('https://api.ollama.com'))).toBe('custom');
    expect(classifyOllamaOrigin(new URL('https://search.example.net'))).toBe('custom');
  });

  it('accepts the allowed combinations', () => {
    const policy = { mode: 'all' } as const;
    expect(createOllamaProvider({ policy }).scope).toBe('ollama:http://127.0.0.1:11434');
    expect(
      createOllamaProvider({ policy, baseUrl: 'https://ollama.com', apiKeyEnv: 'OLLAMA_API_KEY' }).scope,
    ).toBe('ollama:https://ollama.com');
    expect(
      createOllamaProvider({ policy, baseUrl: 'https://search.example.net', trustPublicUrl: true }).id,
    ).toBe('ollama');
  });

  it.each([
    [
      'a key for a loopback origin',
      { baseUrl: 'http://127.0.0.1:11434', apiKeyEnv: 'OLLAMA_API_KEY' },
      'api_key_origin',
    ],
    [
      'a key for a private origin',
      { baseUrl: 'http://10.0.0.5:11434', apiKeyEnv: 'OLLAMA_API_KEY' },
      'api_key_origin',
    ],
    [
      'a key for a trusted custom origin',
      { baseUrl: 'https://search.example.net', trustPublicUrl: true, apiKeyEnv: 'OLLAMA_API_KEY' },
      'api_key_origin',
    ],
    ['a public origin without trust', { baseUrl: 'https://search.example.net' }, 'trust_public_url'],
    [
      'a public http origin even when trusted',
      { baseUrl: 'http://search.example.net', trustPublicUrl: true },
      'https',
    ],
    ['the hosted origin without a key variable', { baseUrl: 'https://ollama.com' }, 'api_key_env'],
    ['credentials in the URL', { baseUrl: 'http://user:pw@127.0.0.1:11434' }, 'credentials'],
    ['a path', { baseUrl: 'http://127.0.0.1:11434/api' }, 'path'],
    ['a query', { baseUrl: 'http://127.0.0.1:11434/?x=1' }, 'query'],
  ])('rejects %s', (_name, options, rule) => {
    let caught: unknown;
    try {
      createOllamaProvider({ policy: { mode: 'all' }, ...options });
    } catch (error) {
      caught = error;
    }
    expect(WebToolError.isInstance(caught, 'validation_error')).toBe(true);
    expect((caught as WebToolError).details.rule).toBe(rule);
  });
});

describe('local Ollama against a loopback server', () => {
  it('posts query and max_results to the experimental path, without any credential', async () => {
    web.scenario('/api/experimental/web_search', {
      headers: { 'content-type': 'application/json' },
      body: OLLAMA_RESULTS,
    });
    const provider = createOllamaProvider({
      baseUrl: web.baseUrl,
      policy: { mode: 'localhost' },
      env: environment,
    });
    const call = context();
    const answer = await provider.search({ query: '"exact words" site:ollama.com', limit: 7 }, call);
    expect(answer).toEqual({
      kind: 'results',
      warnings: [],
      results: [
        {
          title: 'Ollama',
          url: 'https://ollama.com/',
          snippet: 'Get up and running with large language models.',
        },
        {
          title: 'Ollama on GitHub',
          url: 'https://github.com/ollama/ollama',
          snippet: 'Run models locally.',
        },
      ],
    });
    const [request] = web.requestsTo('/api/experimental/web_search');
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request!.body.toString())).toEqual({
      query: '"exact words" site:ollama.com',
      max_results: 7,
    });
    expect(request?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(web.requests)).not.toContain('sk-ollama-secret-value');
    expect(call.charged).toBe(1);
  });

  it('retries the hosted path on the same origin for 404 and 405, charging two requests, same limit', async () => {
    for (const status of [404, 405]) {
      web.reset();
      web.scenario('/api/experimental/web_search', { status, body: '404 page not found' });
      web.scenario('/api/web_search', {
        headers: { 'content-type': 'application/json' },
        body: OLLAMA_RESULTS,
      });
      const call = context();
      const provider = createOllamaProvider({ baseUrl: web.baseUrl, policy: { mode: 'localhost' } });
      const answer = await provider.search({ query: 'ollama', limit: 3 }, call);
      expect(answer.kind).toBe('results');
      expect(call.charged).toBe(2);
      expect(JSON.parse(web.requestsTo('/api/web_search')[0]!.body.toString())).toEqual({
        query: 'ollama',
        max_results: 3,
      });
    }
  });

  it('does not retry for other failures and classifies them', async () => {
    const cases = [
      [429, '{"error":"rate limit exceeded"}', 'rate_limited'],
      [401, '{"error":"unauthorized","signin_url":"https://ollama.com/connect"}', 'configuration_error'],
      [403, '{"error":"ollama cloud is disabled: web search is unavailable"}', 'configuration_error'],
      [502, '{"error":"dial tcp: lookup ollama.com: no such host"}', 'backend_unavailable'],
      [400, '{"error":"missing request body"}', 'backend_unavailable'],
    ] as const;
    for (const [status, body, code] of cases) {
      web.reset();
      web.scenario('/api/experimental/web_search', { status, body, headers: { 'retry-after': '30' } });
      const call = context();
      const provider = createOllamaProvider({ baseUrl: web.baseUrl, policy: { mode: 'localhost' } });
      const error = await failureOf(provider.search({ query: 'q', limit: 5 }, call));
      expect(error.code, String(status)).toBe(code);
      expect(call.charged).toBe(1);
      expect(web.requestsTo('/api/web_search')).toHaveLength(0);
      if (status === 429) expect(error.retryAfterMs).toBe(30_000);
    }
  });

  it('answers no results for an empty list and rejects a body that is not an answer', async () => {
    web.scenario('/api/experimental/web_search', { body: '{"results":[]}' });
    const provider = createOllamaProvider({ baseUrl: web.baseUrl, policy: { mode: 'localhost' } });
    expect(await provider.search({ query: 'q', limit: 5 }, context())).toEqual({
      kind: 'no_results',
      warnings: [],
    });
    web.scenario('/api/experimental/web_search', { body: '<html>proxy login</html>' });
    expect((await failureOf(provider.search({ query: 'q', limit: 5 }, context()))).code).toBe(
      'backend_unavailable',
    );
  });

  it('rejects a redirect and never reaches its target', async () => {
    web.scenario('/api/experimental/web_search', {
      status: 307,
      headers: { location: web.url('/api/web_search', { host: '127.0.0.2' }) },
    });
    web.scenario('/api/web_search', { body: OLLAMA_RESULTS });
    const provider = createOllamaProvider({ baseUrl: web.baseUrl, policy: { mode: 'localhost' } });
    const error = await failureOf(provider.search({ query: 'q', limit: 5 }, context()));
    expect(error.code).toBe('redirect_refused');
    expect(web.requestsTo('/api/web_search')).toHaveLength(0);
  });

  it('is reachable under all and a listing allowlist, never under none', async () => {
    web.scenario('/api/experimental/web_search', { body: OLLAMA_RESULTS });
    const search = (policy: NetworkPolicy) =>
      createOllamaProvider({ baseUrl: web.baseUrl, policy }).search({ query: 'ollama', limit: 5 }, context());
    expect((await search({ mode: 'all' })).kind).toBe('results');
    expect((await search({ mode: 'allowlist', allow: [`127.0.0.1:${web.port}`] })).kind).toBe('results');
    expect((await failureOf(search({ mode: 'allowlist', allow: ['ollama.com'] }))).code).toBe(
      'policy_denied',
    );
    expect((await failureOf(search({ mode: 'none' }))).code).toBe('policy_denied');
  });
});

describe('hosted Ollama', () => {
  // ollama.com cannot be reached from tests; a recording transport shows what would be sent.
  function recordingTransport(status = 200) {
    const calls: { url: string; options: HttpRequestOptions }[] = [];
    const transport = async (url: string | URL, options: HttpRequestOptions): Promise<HttpResponse> => {
      calls.push({ url: String(url), options });
      const body = new TextEncoder().encode(OLLAMA_RESULTS);
      return {
        url: String(url),
        status,
        statusText: '',
        headers: {},
        body,
        redirects: 0,
        attempts: 1,
        wireBytes: 0,
      };
    };
    return { calls, transport };
  }

  it('uses only https://ollama.com/api/web_search with the bearer key, refusing redirects', async () => {
    const { calls, transport } = recordingTransport();
    const provider = createOllamaProvider({
      baseUrl: 'https://ollama.com',
      apiKeyEnv: 'OLLAMA_API_KEY',
      env: environment,
      policy: { mode: 'all' },
      transport,
    });
    await provider.search({ query: 'q', limit: 10 }, context());
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://ollama.com/api/web_search');
    expect(calls[0]!.options.authorization).toBe('Bearer sk-ollama-secret-value');
    expect(calls[0]!.options.redirect).toBe('error');
    expect(calls[0]!.options.policy).toEqual({ mode: 'all' });
    expect(JSON.parse(String(calls[0]!.options.body))).toEqual({ query: 'q', max_results: 10 });
  });

  it('does not fall back to another path on 404, and fails clearly when the key variable is empty', async () => {
    const { calls, transport } = recordingTransport(404);
    const provider = createOllamaProvider({
      baseUrl: 'https://ollama.com',
      apiKeyEnv: 'OLLAMA_API_KEY',
      env: environment,
      policy: { mode: 'all' },
      transport,
    });
    expect((await failureOf(provider.search({ query: 'q', limit: 1 }, context()))).code).toBe(
      'backend_unavailable',
    );
    expect(calls).toHaveLength(1);
    const keyless = createOllamaProvider({
      baseUrl: 'https://ollama.com',
      apiKeyEnv: 'OLLAMA_API_KEY',
      env: {},
      policy: { mode: 'all' },
      transport,
    });
    const error = await failureOf(keyless.search({ query: 'q', limit: 1 }, context()));
    expect(error.code).toBe('configuration_error');
    expect(error.message).toContain('OLLAMA_API_KEY');
    expect(calls).toHaveLength(1);
  });

  it('a custom public origin never receives a key', async () => {
    const { calls, transport } = recordingTransport();
    const provider = createOllamaProvider({
      baseUrl: 'https://search.example.net',
      trustPublicUrl: true,
      env: environment,
      policy: { mode: 'all' },
      transport,
    });
    await provider.search({ query: 'q', limit: 2 }, context());
    expect(calls[0]!.url).toBe('https://search.example.net/api/experimental/web_search');
    expect(calls[0]!.options.authorization).toBeUndefined();
  });
});
