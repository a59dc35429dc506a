// Behaviour the contract promises and the search outcome reports, proved through user surfaces:
// createWebRuntime, and the built `mono-agent-web` bin (one process per call, host state shared under
// one HOME). Ollama is hosted, so a loopback server replays its recorded web_search answer shape.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIVENESS_PROBE_TIMEOUT_MS } from '../../src/validate/validate-web-config.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { contractRuntime, SEARX_FIXTURE_RESULTS, searxAnswer, serveSearx } from './web-search-support.js';

/** Ollama's web_search answer shape: `{ results: [{ title, url, content }] }`. */
const OLLAMA_RESULTS = JSON.stringify({
  results: [
    {
      title: 'Ollama models library',
      url: 'https://ollama.com/library',
      content: 'Browse Ollama models to run locally.',
    },
    {
      title: 'Ollama models on GitHub',
      url: 'https://github.com/ollama/ollama',
      content: 'Get up and running with Ollama models.',
    },
  ],
});
const OLLAMA_LOCAL_PATH = '/api/experimental/web_search';
const OLLAMA_HOSTED_PATH = '/api/web_search';

let web: FixtureWeb;
let home: string;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  web.reset();
  home = mkdtempSync(join(tmpdir(), 'mono-agent-outcome-proofs-'));
  return () => rmSync(home, { recursive: true, force: true });
});

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;
const serveOllama = (body = OLLAMA_RESULTS, delayMs?: number) =>
  web.scenario(OLLAMA_LOCAL_PATH, {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
    ...(delayMs === undefined ? {} : { delayMs }),
  });
const ollamaEnv = () => ({
  MONO_AGENT_WEB_SEARCH_BACKEND: 'ollama',
  MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: web.baseUrl,
});

describe('Ollama filters', () => {
  // "outcome.filterSupport reports these limitations; verify dates in fetched sources." Ollama's
  // web_search takes only a query and a result count, so language and time range are advisory.
  it('reports language and time range as advisory, and sends only the unchanged query', async () => {
    serveOllama();
    const runtime = await contractRuntime(web, { env: ollamaEnv() });
    const result = await runtime
      .startRun()
      .webSearch({ query: 'ollama models', language: 'de', time_range: 'month', limit: 3 });
    const outcome = dataOf(result);
    expect(outcome).toMatchObject({
      status: 'results',
      backend: 'ollama',
      filterSupport: { language: 'advisory', timeRange: 'advisory' },
    });
    expect(result.text).toContain('filter support: language advisory, time range advisory');
    const [request] = web.requestsTo(OLLAMA_LOCAL_PATH);
    expect(request?.method).toBe('POST');
    expect(JSON.parse(Buffer.from(request!.body).toString('utf8'))).toEqual({
      query: 'ollama models',
      max_results: 3,
    });
    await runtime.close();
  });
});

describe('the run budget', () => {
  // "maxRequestsPerRun … defaults to 4 and is shared by runtime route retries. Each child agent and
  // later run receives a fresh budget."
  it('a retried call of the same run spends the same budget; a later run gets a fresh one', async () => {
    let served = 0;
    web.scenario('/search', (_request, response) => {
      served += 1;
      // The first answer fails; the retry of the same call then succeeds.
      response.writeHead(served === 1 ? 503 : 200, { 'content-type': 'application/json' });
      response.end(served === 1 ? 'upstream down' : SEARX_FIXTURE_RESULTS);
    });
    const runtime = await contractRuntime(web, {
      env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng', MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '2' },
    });
    const run = runtime.startRun();
    const failed = dataOf(await run.webSearch({ query: 'fixture result' }));
    expect(failed).toMatchObject({ status: 'error', requestsUsed: 1, requestsRemaining: 1 });
    const retried = dataOf(await run.webSearch({ query: 'fixture result' }));
    expect(retried).toMatchObject({ status: 'results', requestsUsed: 2, requestsRemaining: 0 });
    const spent = dataOf(await run.webSearch({ query: 'fixture result -zzzthird' }));
    expect(spent).toMatchObject({ error: { code: 'search_budget_exhausted' }, requestsUsed: 2 });
    expect(web.requestsTo('/search')).toHaveLength(2);
    const later = dataOf(await runtime.startRun().webSearch({ query: 'fixture result -zzzlater' }));
    expect(later).toMatchObject({ status: 'results', requestsUsed: 1, requestsRemaining: 1 });
    await runtime.close();
  });
});

describe('the search cache', () => {
  // "Successful searches are cached process-wide for 15 minutes, keyed by the query parameters and the
  // backend configuration".
  it('never answers a search from the cache of another backend configuration in the process', async () => {
    const answers = {
      '/a/search': searxAnswer([{ url: 'https://a.example/fixture', title: 'fixture result from a' }]),
      '/b/search': searxAnswer([{ url: 'https://b.example/fixture', title: 'fixture result from b' }]),
    };
    for (const [path, body] of Object.entries(answers))
      web.scenario(path, { headers: { 'content-type': 'application/json' }, body });
    const runtimeFor = (path: string) =>
      contractRuntime(web, {
        env: {
          MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
          MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.url(path),
        },
      });
    const a = await runtimeFor('/a');
    const b = await runtimeFor('/b');
    const fromA = dataOf(await a.startRun().webSearch({ query: 'fixture result' }));
    const fromB = dataOf(await b.startRun().webSearch({ query: 'fixture result' }));
    expect(fromA.results.map((result) => result.url)).toEqual(['https://a.example/fixture']);
    expect(fromB).toMatchObject({ cacheHit: false, sharedInFlight: false });
    expect(fromB.results.map((result) => result.url)).toEqual(['https://b.example/fixture']);
    expect(web.requestsTo('/b/search')).toHaveLength(1);
    // The same configuration asked again is answered by the cache, without a request.
    const again = dataOf(await a.startRun().webSearch({ query: 'fixture result' }));
    expect(again).toMatchObject({ cacheHit: true, requestsUsed: 0 });
    expect(web.requestsTo('/a/search')).toHaveLength(1);
    await a.close();
    await b.close();
  });
});

describe('host cooldowns survive a restart', () => {
  // "Ordinary session reset and restart do not clear host cooldowns." and "Cooldown skips make no
  // provider request."
  it('a new process skips the throttled backend without sending, and says it is throttled', async () => {
    serveSearx(web, '{"error":"too many requests"}', { status: 429 });
    const env = {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
      MONO_AGENT_WEB_COORDINATION: 'host',
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
    };
    const first = jsonOf<SearchOutcome>(
      await runBuiltCli(['search', 'fixture result', '--json'], { home, env }),
    );
    expect(first).toMatchObject({ status: 'error', error: { code: 'rate_limited' } });
    expect(web.requestsTo('/search')).toHaveLength(1);
    const second = jsonOf<SearchOutcome>(
      await runBuiltCli(['search', 'fixture result again', '--json'], { home, env }),
    );
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(second).toMatchObject({
      status: 'error',
      error: { code: 'rate_limited' },
      rateLimited: true,
      cooldownBackends: ['searxng'],
      retryAt: first.retryAt,
      requestsUsed: 0,
    });
    expect(second.providers[0]).toMatchObject({ disposition: 'cooldown', code: 'rate_limited', requests: 0 });
    const status = jsonOf<{ scopes: { coolingDown: boolean; cooldownUntil?: number }[] }>(
      await runBuiltCli(['web-control', 'status', '--json'], { home, env }),
    );
    expect(status.scopes.find((scope) => scope.coolingDown)?.cooldownUntil).toBe(first.retryAt);
  });
});

describe("validate's Ollama liveness probe", () => {
  // "validate … probes the selected SearXNG or Ollama endpoint": one POST, bounded in time.
  const validate = () =>
    runBuiltCli(['validate', '--json'], {
      home,
      env: { MONO_AGENT_NETWORK_MODE: 'localhost', ...ollamaEnv() },
    });
  const livenessOf = (run: Awaited<ReturnType<typeof validate>>) =>
    jsonOf<{ checks: { name: string; status: string; detail: string }[] }>(run).checks.find(
      (check) => check.name === 'liveness.ollama',
    );

  it('sends exactly one POST to a live Ollama and reports it live', async () => {
    serveOllama();
    const liveness = livenessOf(await validate());
    expect(liveness).toMatchObject({ status: 'ok' });
    const requests = [...web.requestsTo(OLLAMA_LOCAL_PATH), ...web.requestsTo(OLLAMA_HOSTED_PATH)];
    expect(requests.map((request) => request.method)).toEqual(['POST']);
  });

  it('gives up on an Ollama that never answers within its bound, after one POST', async () => {
    serveOllama(OLLAMA_RESULTS, 120_000);
    const started = Date.now();
    const liveness = livenessOf(await validate());
    expect(Date.now() - started).toBeLessThan(LIVENESS_PROBE_TIMEOUT_MS + 15_000);
    expect(liveness).toMatchObject({ status: 'fail' });
    // The probe's own bound ran out: a timeout, not a cancellation by the operator.
    expect(liveness?.detail).toMatch(new RegExp(`within ${LIVENESS_PROBE_TIMEOUT_MS / 1000} s: timeout$`));
    expect(web.requestsTo(OLLAMA_LOCAL_PATH).map((request) => request.method)).toEqual(['POST']);
    expect(web.requestsTo(OLLAMA_HOSTED_PATH)).toHaveLength(0);
  }, 60_000);
});
