// The keyless and host admission bounds and the throttle cooldown, through createWebRuntime against
// loopback servers. Contract: "three requests in flight, 1.5 seconds between starts to the same engine,
// and a five-minute throttle cooldown"; the host table (SearXNG 1 / 2 s, Ollama 1 / 2 s, DuckDuckGo and
// Startpage 1 each / 3 s, Codex 1 serialized, fetch origin 2 / 500 ms); "Cooldown skips make no
// provider request"; "outcome.rateLimited and outcome.cooldownBackends report throttling".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { HOST_SCOPE_LIMITS } from '@mono-agent/host-coordination';
import {
  CODEX_LIMITS,
  DUCKDUCKGO_LIMITS,
  OLLAMA_LIMITS,
  PROCESS_KEYLESS_LIMITS,
  SEARXNG_LIMITS,
  type SearchOutcome,
  STARTPAGE_LIMITS,
} from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TimingEvent } from '../../src/runtime/timing-event.js';
import {
  contractRuntime,
  DUCKDUCKGO_CHALLENGE_PAGE,
  DUCKDUCKGO_FOO_PAGE,
  SEARX_FIXTURE_RESULTS,
  serveDuckDuckGo,
  serveSearx,
} from './web-search-support.js';

let web: FixtureWeb;
let stateDirectory: string;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  web.reset();
  stateDirectory = mkdtempSync(join(tmpdir(), 'mono-agent-limits-'));
  return () => rmSync(stateDirectory, { recursive: true, force: true });
});

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;
/** Milliseconds between two admissions of sequential searches: the first's time, less its wait, plus the second's. */
const betweenAdmissions = (first: TimingEvent, second: TimingEvent) =>
  first.durationMs - first.queueWaitMs! + second.queueWaitMs!;

describe('the host table', () => {
  it('holds the specified rows', () => {
    // Each search provider declares its own row; the fetch origin's stays with the coordinator.
    expect({
      searxng: SEARXNG_LIMITS.host,
      ollama: OLLAMA_LIMITS.host,
      duckduckgo: DUCKDUCKGO_LIMITS.host,
      startpage: STARTPAGE_LIMITS.host,
      codex: CODEX_LIMITS.host,
      fetchOrigin: HOST_SCOPE_LIMITS.fetchOrigin,
    }).toEqual({
      searxng: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
      ollama: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
      duckduckgo: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
      startpage: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
      codex: { kind: 'search', concurrency: 1, spacingMs: 0 },
      fetchOrigin: { kind: 'fetch', concurrency: 2, spacingMs: 500 },
    });
    expect(PROCESS_KEYLESS_LIMITS).toEqual({
      inFlight: 3,
      startSpacingMs: 1_500,
      throttleCooldownMs: 300_000,
    });
  });

  for (const [backend, spacingMs] of [
    ['searxng', SEARXNG_LIMITS.host.spacingMs],
    ['keyless', DUCKDUCKGO_LIMITS.host.spacingMs],
  ] as const) {
    it(`host mode spaces two ${backend} searches of different runs by ${spacingMs} ms`, async () => {
      serveSearx(web, SEARX_FIXTURE_RESULTS);
      serveDuckDuckGo(web);
      const events: TimingEvent[] = [];
      const host = await contractRuntime(web, {
        env: { MONO_AGENT_WEB_COORDINATION: 'host', MONO_AGENT_WEB_SEARCH_BACKEND: backend },
        events,
        runtime: { stateDirectory },
      });
      const query = backend === 'searxng' ? 'fixture result' : 'foo';
      await host.startRun().webSearch({ query });
      // A different request (an excluded word the pages lack), so the process cache does not answer it.
      await host.startRun().webSearch({ query: `${query} -zzzagain` });
      expect(events.map((event) => event.status)).toEqual(['ok', 'ok']);
      expect(betweenAdmissions(events[0]!, events[1]!)).toBeGreaterThanOrEqual(spacingMs - 50);
      await host.close();
    }, 30_000);
  }
});

describe('process keyless bounds', () => {
  it('at most three keyless requests are in flight at once', async () => {
    let inFlight = 0;
    let most = 0;
    web.scenario('/html/', async (_request, response, context) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      inFlight -= 1;
      if (context.signal.aborted) return;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(DUCKDUCKGO_FOO_PAGE);
    });
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const queries = ['foo', 'foo -zzzone', 'foo -zzztwo', 'foo -zzzthree'];
    const results = await Promise.all(queries.map((query) => host.startRun().webSearch({ query })));
    expect(results.every((result) => dataOf(result).status === 'results')).toBe(true);
    expect(most).toBe(PROCESS_KEYLESS_LIMITS.inFlight);
    const arrivals = web.requestsTo('/html/').map((request) => request.receivedAt);
    // The fourth waits for the first to finish, not only for its start spacing.
    expect(arrivals[3]! - arrivals[0]!).toBeGreaterThanOrEqual(4_800);
    await host.close();
  }, 40_000);

  it('a throttled engine cools down for five minutes; the skip is free and reported', async () => {
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const before = Date.now();
    const throttled = dataOf(await host.startRun().webSearch({ query: 'foo' }));
    expect(throttled.rateLimited).toBe(true);
    const retryIn = throttled.retryAt! - before;
    expect(retryIn).toBeGreaterThan(PROCESS_KEYLESS_LIMITS.throttleCooldownMs - 5_000);
    expect(retryIn).toBeLessThanOrEqual(PROCESS_KEYLESS_LIMITS.throttleCooldownMs + 5_000);
    const requestsBefore = web.requestsTo('/html/').length;
    const skipped = await host.startRun().webSearch({ query: 'foo' });
    expect(web.requestsTo('/html/')).toHaveLength(requestsBefore);
    expect(dataOf(skipped).cooldownBackends).toContain('duckduckgo');
    expect(dataOf(skipped).providers.find((report) => report.backend === 'duckduckgo')).toMatchObject({
      disposition: 'cooldown',
      requests: 0,
    });
    expect(skipped.text).toContain('cooling down: duckduckgo');
    await host.close();
  });
});
