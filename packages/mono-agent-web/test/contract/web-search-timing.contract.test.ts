// Timing events and the stage deadlines of WebSearch, through createWebRuntime against loopback
// servers. Contract: "Timing events retain only bounded operational fields such as … attempt count,
// request budget and remaining count, … timeout, … cache-hit, … queue wait, backend time, cooldown skips
// and quota skips"; "automatic SearXNG admission and execution get a three-second stage budget before
// fallback. Strict SearXNG retains its 15-second per-request timeout"; "1.5 seconds between starts to
// the same engine".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import {
  AUTO_SEARXNG_STAGE_MS,
  PROCESS_KEYLESS_LIMITS,
  SEARXNG_STRICT_REQUEST_TIMEOUT_MS,
} from '@mono-agent/search-providers';
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

describe('timing events', () => {
  it('carry backend time, queue wait and the timeout flag', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 300 });
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' }, events });
    await host.startRun().webSearch({ query: 'fixture result' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      status: 'ok',
      requests: 1,
      timedOut: false,
      queueWaitMs: expect.any(Number),
    });
    expect(events[0]?.backendMs).toBeGreaterThanOrEqual(250);
    await host.close();
  });

  it("count each call's own requests even when calls of the run overlap", async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 200 });
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' }, events });
    const run = host.startRun();
    await Promise.all([
      run.webSearch({ query: 'fixture result one' }),
      run.webSearch({ query: 'fixture result two' }),
    ]);
    expect(events.map((event) => event.requests)).toEqual([1, 1]);
    await host.close();
  });

  it('are emitted for an invalid call too', async () => {
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { events });
    const result = await host.startRun().webSearch({ query: '', limit: 50 });
    expect(result.code).toBe('validation_error');
    expect(events).toEqual([
      expect.objectContaining({
        tool: 'WebSearch',
        status: 'error',
        errorCode: 'validation_error',
        requests: 0,
      }),
    ]);
    expect(web.requests).toHaveLength(0);
    await host.close();
  });

  it('report the wait for start spacing between two searches of one keyless engine', async () => {
    serveDuckDuckGo(web);
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' }, events });
    await host.startRun().webSearch({ query: 'foo' });
    await host.startRun().webSearch({ query: 'foo bar' });
    expect(web.requestsTo('/html/')).toHaveLength(2);
    // Spacing runs from one admission to the next: the first search's time plus the second's wait.
    const [first, second] = events;
    const betweenAdmissions = first!.durationMs - first!.queueWaitMs! + second!.queueWaitMs!;
    expect(betweenAdmissions).toBeGreaterThanOrEqual(PROCESS_KEYLESS_LIMITS.startSpacingMs - 50);
    expect(second!.queueWaitMs).toBeGreaterThan(0);
    await host.close();
  });
});

describe('stage deadlines', () => {
  it('auto mode gives SearXNG three seconds, then moves on and flags the timeout', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 8_000 });
    serveDuckDuckGo(web);
    const events: TimingEvent[] = [];
    const host = await contractRuntime(web, { events });
    const started = performance.now();
    const result = await host.startRun().webSearch({ query: 'foo' });
    const elapsed = performance.now() - started;
    const outcome = result.data as SearchOutcome;
    expect(outcome.providers[0]).toMatchObject({
      backend: 'searxng',
      disposition: 'failed',
      code: 'timeout',
    });
    expect(outcome).toMatchObject({ status: 'results', backend: 'duckduckgo' });
    expect(elapsed).toBeGreaterThanOrEqual(AUTO_SEARXNG_STAGE_MS - 100);
    expect(elapsed).toBeLessThan(8_000);
    expect(events[0]).toMatchObject({ timedOut: true });
    await host.close();
  });

  it('strict SearXNG keeps its 15-second request timeout', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 25_000 });
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
    const started = performance.now();
    const result = await host.startRun().webSearch({ query: 'fixture result' });
    const elapsed = performance.now() - started;
    expect(result.code).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(SEARXNG_STRICT_REQUEST_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(25_000);
    await host.close();
  }, 40_000);
});
