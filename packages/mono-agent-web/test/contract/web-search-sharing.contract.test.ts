// The process cache and in-flight sharing of WebSearch, through createWebRuntime against loopback
// servers replaying recorded SearXNG and DuckDuckGo answers.
// Contract: "Identical calls share in-flight work"; "Successful searches are cached process-wide for
// 15 minutes"; "Failures are never cached"; "Cache hits, in-flight followers … consume zero requests".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TimingEvent } from '../../src/runtime/timing-event.js';
import { contractRuntime, SEARX_FIXTURE_RESULTS, serveDuckDuckGo, serveSearx } from './web-search-support.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;

describe('only answers complete for the request are cached ("Failures are never cached")', () => {
  it('a "No results." left by a run whose budget ran out is not served to the next run', async () => {
    // SearXNG answers every query with "fixture result" pages, irrelevant to `foo`; DuckDuckGo has `foo`.
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    serveDuckDuckGo(web);
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '2' } });
    const first = host.startRun();
    await first.webSearch({ query: 'fixture result' });
    const starved = dataOf(await first.webSearch({ query: 'foo' }));
    expect(starved.providers.find((report) => report.backend === 'duckduckgo')?.disposition).toBe(
      'budget_exhausted',
    );
    const second = host.startRun();
    const fresh = await second.webSearch({ query: 'foo' });
    expect(dataOf(fresh).cacheHit).toBe(false);
    expect(dataOf(fresh)).toMatchObject({ status: 'results', backend: 'duckduckgo' });
    await host.close();
  });

  it('a "No results." while a later provider was cooling down is not cached', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    // DuckDuckGo throttles (202 challenge): the first run defers it and the process cools it down.
    serveDuckDuckGo(
      web,
      '<html><body><form id="challenge-form" action="/anomaly.js"></form></body></html>',
      202,
    );
    const host = await contractRuntime(web);
    const first = dataOf(await host.startRun().webSearch({ query: 'foo' }));
    expect(first.providers.find((report) => report.backend === 'duckduckgo')?.disposition).toBe(
      'rate_limited',
    );
    const cooled = dataOf(await host.startRun().webSearch({ query: 'foo' }));
    expect(cooled.cacheHit).toBe(false);
    expect(cooled.cooldownBackends).toContain('duckduckgo');
    expect(cooled.providers.find((report) => report.backend === 'duckduckgo')).toMatchObject({
      disposition: 'cooldown',
      requests: 0,
    });
    await host.close();
  });
});

describe('"cancellation is never returned as" an answer', () => {
  it('a search cancelled while a later backend runs is `cancelled`, not "No results.", and is not cached', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    web.scenario('/html/', {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '',
      delayMs: 10_000,
    });
    const host = await contractRuntime(web);
    const controller = new AbortController();
    const pending = host.startRun().webSearch({ query: 'foo' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 600);
    const result = await pending;
    expect(result.code).toBe('cancelled');
    expect(result.text).not.toContain('No results.');
    web.scenario('/html/', { status: 200, headers: { 'content-type': 'text/html' }, body: '' });
    const later = dataOf(await host.startRun().webSearch({ query: 'foo' }));
    expect(later.cacheHit).toBe(false);
    await host.close();
  });
});

describe('reused answers describe the run that receives them', () => {
  it('a cache hit in a run with no budget left says a retry will not help', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
    const producer = await host.startRun().webSearch({ query: 'fixture result' });
    expect(dataOf(producer).retryInRun).toBe(true);
    const spent = host.startRun();
    for (const word of ['alpha', 'beta', 'gamma', 'delta'])
      await spent.webSearch({ query: `fixture result ${word}` });
    const hit = await spent.webSearch({ query: 'fixture result' });
    expect(dataOf(hit)).toMatchObject({
      cacheHit: true,
      retryInRun: false,
      requestsUsed: 4,
      requestsRemaining: 0,
    });
    expect(hit.text).toContain('requests: 4 used, 0 left | retry in this run: will not help');
    expect(dataOf(hit).providers.every((report) => report.requests === 0)).toBe(true);
    await host.close();
  });
});

describe('in-flight sharing', () => {
  it('followers of a leader failing at the backend share the failure instead of re-sending', async () => {
    serveSearx(web, 'upstream broke', { status: 500, delayMs: 400 });
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
    const runs = [host.startRun(), host.startRun(), host.startRun()];
    const results = await Promise.all(runs.map((run) => run.webSearch({ query: 'fixture result' })));
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(results.map((result) => result.code)).toEqual([
      'backend_unavailable',
      'backend_unavailable',
      'backend_unavailable',
    ]);
    expect(results.map((result) => dataOf(result).requestsUsed).sort()).toEqual([0, 0, 1]);
    await host.close();
  });

  it("a leader's cancellation is not shared: the follower asks for itself", async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 500 });
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
    const controller = new AbortController();
    const leader = host.startRun().webSearch({ query: 'fixture result' }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const follower = host.startRun().webSearch({ query: 'fixture result' });
    controller.abort();
    expect((await leader).code).toBe('cancelled');
    expect(dataOf(await follower).status).toBe('results');
    await host.close();
  });

  it('identical concurrent calls of one run send one request; the second is a free follower', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 200 });
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' }, events });
    const run = host.startRun();
    const [one, two] = await Promise.all([
      run.webSearch({ query: 'fixture result' }),
      run.webSearch({ query: 'fixture result' }),
    ]);
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(dataOf(one).status).toBe('results');
    expect(dataOf(two)).toMatchObject({ status: 'results', sharedInFlight: true });
    expect(events.map((event) => event.requests).sort()).toEqual([0, 1]);
    await host.close();
  });
});
