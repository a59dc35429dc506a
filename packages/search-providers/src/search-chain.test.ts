import { readFileSync } from 'node:fs';
import { createRunBudget, createRunDeferrals } from '@mono-agent/budget-policy';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { type Coordinator, createCoordinator } from '@mono-agent/host-coordination';
import type { NetworkPolicy } from '@mono-agent/net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDuckDuckGoProvider, createStartpageProvider } from './keyless-provider.js';
import { createOllamaProvider } from './ollama-provider.js';
import { createSearchCache } from './search-cache.js';
import {
  type ConfiguredProviders,
  createSearchChain,
  SEARCH_DEADLINE_MS,
  type SearchBackend,
} from './search-chain.js';
import type { SearchOutcome } from './search-outcome.js';
import { createSearxngProvider } from './searxng-provider.js';

// Every backend is the real provider talking HTTP to the fixture web, which replays recorded answers.
const fixture = (path: string) => readFileSync(new URL(`./__fixtures__/${path}`, import.meta.url), 'utf8');
// The real DuckDuckGo and Startpage pages recorded once, in the package that parses them.
const keylessPage = (name: string) =>
  readFileSync(new URL(`../../keyless-html/src/__fixtures__/${name}`, import.meta.url), 'utf8');
const SEARX_RESULTS = fixture('searx/searx-1.1.0_results-local-engines.json'); // "… fixture result" titles
const SEARX_EMPTY = fixture('searx/searx-1.1.0_empty.json');
const SEARX_BLOCKED = fixture('searx/searx-1.1.0_http-429.json');
const DDG_FOO = keylessPage('lofi_duckduckgo-html-get-foo.html'); // results for "foo"
const DDG_CHALLENGE = keylessPage('clele_challenge-202.html');
const STARTPAGE_JS = keylessPage('websearchmcp_startpage-http.html'); // "javascript tutorial"

let web: FixtureWeb;
let coordinator: Coordinator;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  web.reset();
  // A fresh process coordinator per test: cooldowns and spacing from one test never leak into another.
  coordinator = createCoordinator({ mode: 'process' });
});

function providers(which: readonly string[]): ConfiguredProviders {
  const policy: NetworkPolicy = { mode: 'allowlist', allow: [`127.0.0.1:${web.port}`] };
  const configured: ConfiguredProviders = {};
  if (which.includes('ollama')) configured.ollama = createOllamaProvider({ baseUrl: web.baseUrl, policy });
  if (which.includes('searxng'))
    configured.searxng = createSearxngProvider({ endpoint: web.baseUrl, policy });
  if (which.includes('duckduckgo')) {
    configured.duckduckgo = createDuckDuckGoProvider({ endpoint: web.url('/html/'), policy });
  }
  if (which.includes('startpage')) {
    configured.startpage = createStartpageProvider({ endpoint: web.url('/sp/search'), policy });
  }
  return configured;
}

function chain(backend: SearchBackend, which: readonly string[], cache = false) {
  return createSearchChain({
    backend,
    providers: providers(which),
    coordinator,
    ...(cache ? { cache: createSearchCache<SearchOutcome>() } : {}),
  });
}

function run(limit = 4) {
  return { budget: createRunBudget({ limit }), deferrals: createRunDeferrals() };
}

const json = { 'content-type': 'application/json' };
const html = { 'content-type': 'text/html; charset=utf-8' };
const serveSearx = (body: string) => web.scenario('/search', { headers: json, body });
const serveDuckDuckGo = (body: string, status = 200) =>
  web.scenario('/html/', { status, headers: html, body });
const serveStartpage = (body: string) => web.scenario('/sp/search', { headers: html, body });
const dispositions = (outcome: SearchOutcome) =>
  outcome.providers.map((report) => `${report.backend}:${report.disposition}`);

describe('auto mode', () => {
  it('walks ollama → searxng → codex → duckduckgo → startpage, skipping what is not configured', () => {
    expect(chain('auto', ['startpage', 'duckduckgo', 'searxng', 'ollama']).order).toEqual([
      'ollama',
      'searxng',
      'duckduckgo',
      'startpage',
    ]);
    expect(chain('auto', ['duckduckgo', 'startpage']).order).toEqual(['duckduckgo', 'startpage']);
  });

  it('stops at the first provider with relevant results and asks no later one', async () => {
    serveSearx(SEARX_RESULTS);
    serveDuckDuckGo(DDG_FOO);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search({ query: 'fixture result' }, run());
    expect(outcome.status).toBe('results');
    expect(outcome.backend).toBe('searxng');
    expect(outcome.results.map((result) => result.url)).toEqual([
      'https://example.com/alpha',
      'https://example.com/html-one',
      'https://example.org/beta',
      'https://example.org/html-two',
      'https://example.net/gamma?x=1&y=2',
    ]);
    expect(outcome.filterSupport).toEqual({ language: 'supported', timeRange: 'supported' });
    expect(web.requestsTo('/html/')).toHaveLength(0);
    expect(outcome.requestsUsed).toBe(1);
    expect(outcome.nextAction).toBe('fetch_results');
  });

  it('goes on after an irrelevant answer', async () => {
    serveSearx(SEARX_RESULTS);
    serveDuckDuckGo(DDG_FOO);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search({ query: 'foo' }, run());
    expect(dispositions(outcome)).toEqual(['searxng:irrelevant', 'duckduckgo:accepted']);
    expect(outcome.backend).toBe('duckduckgo');
    expect(outcome.results.map((result) => result.url)).toContain(
      'https://en.wikipedia.org/wiki/Foo_Fighters',
    );
    expect(outcome.filtered.irrelevant).toBeGreaterThanOrEqual(5);
  });

  it('goes on after an out-of-domain answer and applies the filters to the accepted one', async () => {
    serveSearx(SEARX_RESULTS);
    serveDuckDuckGo(DDG_FOO);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search(
      { query: 'foo', domains: ['wikipedia.org'] },
      run(),
    );
    expect(dispositions(outcome)).toEqual(['searxng:out_of_domain', 'duckduckgo:accepted']);
    for (const result of outcome.results)
      expect(new URL(result.url).hostname).toMatch(/(^|\.)wikipedia\.org$/);
    expect(outcome.filtered.outsideDomains).toBeGreaterThan(0);
  });

  it('moves on at once from a rate-limited provider, reports it and defers it for the run', async () => {
    serveSearx(SEARX_BLOCKED);
    serveDuckDuckGo(DDG_FOO);
    const searchChain = chain('auto', ['searxng', 'duckduckgo']);
    const context = run(6);
    const first = await searchChain.search({ query: 'foo' }, context);
    expect(dispositions(first)).toEqual(['searxng:rate_limited', 'duckduckgo:accepted']);
    expect(first.rateLimited).toBe(true);
    expect(first.retryAt).toBeGreaterThan(Date.now());
    expect(context.deferrals.isDeferred('searxng')).toBe(true);
    const second = await chain('auto', ['searxng', 'startpage']).search(
      { query: 'javascript tutorial' },
      {
        ...context,
      },
    );
    serveStartpage(STARTPAGE_JS);
    expect(second.providers[0]).toMatchObject({ backend: 'searxng', disposition: 'deferred', requests: 0 });
    expect(web.requestsTo('/search')).toHaveLength(1);
  });

  it('a block ends the provider stage: no alternate is tried on a blocked engine', async () => {
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    serveStartpage(STARTPAGE_JS);
    const outcome = await chain('auto', ['duckduckgo', 'startpage']).search(
      { query: 'javascript tutorial', alternateQueries: ['learn javascript', 'js guide'] },
      run(),
    );
    expect(web.requestsTo('/html/')).toHaveLength(1);
    expect(dispositions(outcome)).toEqual(['duckduckgo:rate_limited', 'startpage:accepted']);
    expect(outcome.rateLimited).toBe(true);
  });

  it('tries alternates in order only until one is accepted', async () => {
    web.scenario('/search', (_request, response, { url }) => {
      const query = url.searchParams.get('q');
      response.setHeader('content-type', 'application/json');
      response.end(query === 'fixture result' ? SEARX_RESULTS : SEARX_EMPTY);
    });
    const outcome = await chain('auto', ['searxng']).search(
      { query: 'nothing here', alternateQueries: ['fixture result', 'third wording'] },
      run(),
    );
    expect(outcome.status).toBe('results');
    expect(web.requestsTo('/search').map((request) => request.query.get('q'))).toEqual([
      'nothing here',
      'fixture result',
    ]);
    expect(outcome.providers[0]).toMatchObject({ queries: 2, requests: 2 });
  });

  it('reports no results only when a working backend found nothing', async () => {
    serveSearx(SEARX_EMPTY);
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search(
      { query: 'nothing matches' },
      run(),
    );
    expect(outcome.status).toBe('no_results');
    expect(outcome.backend).toBe('searxng');
    expect(outcome.rateLimited).toBe(true);
  });

  it('is an error when every backend failed, keeping the categories', async () => {
    serveSearx(fixture('searx/searx-1.1.0_offline-real-engines.json'));
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search({ query: 'anything' }, run());
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('backend_unavailable');
    expect(dispositions(outcome)).toEqual(['searxng:failed', 'duckduckgo:rate_limited']);
    expect(outcome.retryInRun).toBe(false);
    expect(outcome.nextAction).toBe('use_available_evidence');
  });
});

describe('strict modes', () => {
  it('searxng never falls back', async () => {
    serveSearx(SEARX_BLOCKED);
    serveDuckDuckGo(DDG_FOO);
    const outcome = await chain('searxng', ['searxng', 'duckduckgo']).search({ query: 'foo' }, run());
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('rate_limited');
    expect(web.requestsTo('/html/')).toHaveLength(0);
  });

  it('ollama never falls back', async () => {
    web.scenario('/api/experimental/web_search', { status: 502, body: '{"error":"bad gateway"}' });
    serveSearx(SEARX_RESULTS);
    const outcome = await chain('ollama', ['ollama', 'searxng']).search({ query: 'fixture result' }, run());
    expect(outcome.status).toBe('error');
    expect(dispositions(outcome)).toEqual(['ollama:failed']);
    expect(web.requestsTo('/search')).toHaveLength(0);
  });

  it('keyless skips SearXNG and tries DuckDuckGo, then Startpage', async () => {
    serveSearx(SEARX_RESULTS);
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    serveStartpage(STARTPAGE_JS);
    const outcome = await chain('keyless', ['searxng', 'duckduckgo', 'startpage']).search(
      { query: 'javascript tutorial' },
      run(),
    );
    expect(dispositions(outcome)).toEqual(['duckduckgo:rate_limited', 'startpage:accepted']);
    expect(web.requestsTo('/search')).toHaveLength(0);
  });

  it('a strict backend that is not configured is a configuration error', () => {
    expect(() => chain('searxng', ['duckduckgo'])).toThrow(/needs its searxng provider/);
  });
});

describe('budget', () => {
  it('returns the exact exhausted outcome and sends nothing', async () => {
    serveSearx(SEARX_RESULTS);
    const context = run(1);
    const searchChain = chain('auto', ['searxng']);
    await searchChain.search({ query: 'fixture result' }, context);
    const outcome = await searchChain.search({ query: 'fixture result again' }, context);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'search_budget_exhausted' },
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
    expect(web.requestsTo('/search')).toHaveLength(1);
  });

  it('stops mid-chain when the budget runs out, and charges two for an Ollama compatibility retry', async () => {
    web.scenario('/api/experimental/web_search', { status: 404, body: '404 page not found' });
    web.scenario('/api/web_search', { body: '{"results":[]}' });
    serveSearx(SEARX_RESULTS);
    const outcome = await chain('auto', ['ollama', 'searxng']).search({ query: 'fixture result' }, run(2));
    expect(outcome.providers[0]).toMatchObject({ backend: 'ollama', disposition: 'no_results', requests: 2 });
    expect(outcome.providers[1]).toMatchObject({ backend: 'searxng', disposition: 'budget_exhausted' });
    expect(web.requestsTo('/search')).toHaveLength(0);
    expect(outcome.requestsRemaining).toBe(0);
  });
});

describe('caching and sharing', () => {
  it('serves a repeated search from the cache without charging', async () => {
    serveSearx(SEARX_RESULTS);
    const searchChain = chain('auto', ['searxng'], true);
    const first = await searchChain.search({ query: 'fixture result' }, run());
    const otherRun = run();
    const second = await searchChain.search({ query: 'fixture result' }, otherRun);
    expect(second.cacheHit).toBe(true);
    expect(second.results).toEqual(first.results);
    expect(otherRun.budget.requestsUsed).toBe(0);
    expect(web.requestsTo('/search')).toHaveLength(1);
  });

  it('lets identical concurrent searches share one request; followers are not charged', async () => {
    web.scenario('/search', { headers: json, body: SEARX_RESULTS, delayMs: 200 });
    const searchChain = chain('auto', ['searxng'], true);
    const runs = Array.from({ length: 5 }, () => run());
    const outcomes = await Promise.all(
      runs.map((context) => searchChain.search({ query: 'fixture result' }, context)),
    );
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.sharedInFlight)).toHaveLength(4);
    expect(runs.map((context) => context.budget.requestsUsed).sort()).toEqual([0, 0, 0, 0, 1]);
  });

  it('never caches a failure', async () => {
    serveSearx(fixture('searx/searx-1.1.0_offline-real-engines.json'));
    const searchChain = chain('auto', ['searxng'], true);
    expect((await searchChain.search({ query: 'q' }, run())).status).toBe('error');
    serveSearx(SEARX_RESULTS);
    const retried = await searchChain.search({ query: 'fixture result' }, run());
    expect(retried.cacheHit).toBe(false);
    const again = await searchChain.search({ query: 'q' }, run());
    expect(again.cacheHit).toBe(false);
    expect(web.requestsTo('/search')).toHaveLength(3);
  });
});

describe('the 60-second search deadline', () => {
  it('covers the whole chain: a provider that starts after 60 s is not asked', async () => {
    serveSearx(SEARX_EMPTY);
    serveDuckDuckGo(DDG_FOO);
    let clock = 1_000_000;
    // Each read of the clock during the SearXNG stage moves it on, as a slow stage would.
    const search = createSearchChain({
      backend: 'auto',
      providers: providers(['searxng', 'duckduckgo']),
      coordinator,
      now: () => clock,
    });
    const slowSearx = search.search({ query: 'foo' }, run());
    // The SearXNG request is in flight; jump past the deadline before DuckDuckGo's turn.
    clock += SEARCH_DEADLINE_MS;
    const outcome = await slowSearx;
    expect(outcome.providers.find((report) => report.backend === 'duckduckgo')).toMatchObject({
      disposition: 'failed',
      code: 'timeout',
      requests: 0,
    });
    expect(web.requestsTo('/html/')).toHaveLength(0);
  });

  it('a provider asked with 1 ms left still gets its turn', async () => {
    serveSearx(SEARX_EMPTY);
    serveDuckDuckGo(DDG_FOO);
    let clock = 1_000_000;
    const search = createSearchChain({
      backend: 'auto',
      providers: providers(['searxng', 'duckduckgo']),
      coordinator,
      now: () => clock,
    });
    const pending = search.search({ query: 'foo' }, run());
    clock += SEARCH_DEADLINE_MS - 1_000;
    const outcome = await pending;
    expect(outcome.providers.find((report) => report.backend === 'duckduckgo')?.requests).toBe(1);
  });
});

describe('how a search ended', () => {
  it('reports a sent request by what it met even when it spent the last unit', async () => {
    web.scenario('/search', { status: 429, headers: json, body: '{"error":"too many requests"}' });
    const context = run(1);
    const outcome = await chain('searxng', ['searxng']).search({ query: 'fixture result' }, context);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'rate_limited' },
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
  });

  it('is out of budget when the budget withheld a request, with the throttle still visible', async () => {
    web.scenario('/search', { status: 429, headers: json, body: '{"error":"too many requests"}' });
    serveDuckDuckGo(DDG_FOO);
    const outcome = await chain('auto', ['searxng', 'duckduckgo']).search({ query: 'foo' }, run(1));
    expect(outcome.error?.code).toBe('search_budget_exhausted');
    expect(outcome.rateLimited).toBe(true);
    expect(dispositions(outcome)).toEqual(['searxng:rate_limited', 'duckduckgo:budget_exhausted']);
    expect(web.requestsTo('/html/')).toHaveLength(0);
  });

  it('reports a provider deferred earlier in the run as deferred, not as withheld by the budget', async () => {
    web.scenario('/search', { status: 429, headers: json, body: '{"error":"too many requests"}' });
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    const context = run(3);
    const searchChain = chain('auto', ['searxng', 'duckduckgo']);
    await searchChain.search({ query: 'foo' }, context);
    await searchChain.search({ query: 'foo -zzzother' }, { ...context, deferrals: context.deferrals });
    const last = await searchChain.search({ query: 'foo -zzzthird' }, context);
    expect(dispositions(last)).toEqual(['searxng:deferred', 'duckduckgo:deferred']);
    expect(last.error?.code).toBe('rate_limited');
  });

  it('names a failure cooldown backend_unavailable and a throttle cooldown rate_limited', async () => {
    web.scenario('/search', { status: 503, body: 'down' });
    serveDuckDuckGo(DDG_CHALLENGE, 202);
    serveStartpage(STARTPAGE_JS);
    const searchChain = chain('auto', ['searxng', 'duckduckgo', 'startpage']);
    await searchChain.search({ query: 'javascript tutorial' }, run());
    await searchChain.search({ query: 'javascript tutorial -zzzsecond' }, run());
    const outcome = await searchChain.search({ query: 'javascript tutorial -zzzthird' }, run());
    const codes = outcome.providers.map((report) => `${report.backend}:${report.disposition}:${report.code}`);
    expect(codes.slice(0, 2)).toEqual([
      'searxng:cooldown:backend_unavailable',
      'duckduckgo:cooldown:rate_limited',
    ]);
    expect(outcome.rateLimited).toBe(true);
    expect(outcome.cooldownBackends).toEqual(['duckduckgo']);
    expect(outcome.failureCooldownBackends).toEqual(['searxng']);
  });

  it('answers cancelled for an aborted call even when the cache holds the answer', async () => {
    serveSearx(SEARX_RESULTS);
    const searchChain = chain('searxng', ['searxng'], true);
    expect((await searchChain.search({ query: 'fixture result' }, run())).status).toBe('results');
    const outcome = await searchChain.search(
      { query: 'fixture result' },
      { ...run(), signal: AbortSignal.abort() },
    );
    expect(outcome.error?.code).toBe('cancelled');
  });
});
