// Every way a WebSearch can end says what really happened, through createWebRuntime against loopback
// servers replaying recorded SearXNG and keyless shapes. Sentences proved:
// - "When the limit is exhausted, WebSearch deterministically returns search_budget_exhausted,
//   requestsUsed, requestsRemaining: 0, retryInRun: false, and nextAction: "use_available_evidence"
//   without sending another request." — and only then: a request that was sent is reported by what it
//   met (throttle, 5xx, block, timeout), even when it spent the last unit.
// - "Two infrastructure failures open a one-minute cooldown." A backend skipped for that cooldown is
//   unavailable, not throttled; "outcome.rateLimited and outcome.cooldownBackends report throttling".
// - "An empty result set is a successful answer (No results.) only when the backend that produced it
//   was actually working" and "Failures are never cached": a cancelled search is `cancelled`.
// - "Host mode honors Retry-After; … Repeated throttling doubles that delay up to an hour.": the
//   outcome's retry time is the cooldown the host state holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { INFRASTRUCTURE_FAILURE_COOLDOWN_MS, MAX_COOLDOWN_MS } from '@mono-agent/host-coordination';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcp } from './support/mcp-stdio.js';
import {
  contractRuntime,
  DUCKDUCKGO_CHALLENGE_PAGE,
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
  stateDirectory = mkdtempSync(join(tmpdir(), 'mono-agent-truthful-'));
  return () => rmSync(stateDirectory, { recursive: true, force: true });
});

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;
const strictSearx = (budget: number, extra: Record<string, string> = {}) =>
  contractRuntime(web, {
    env: {
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
      MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: String(budget),
      ...extra,
    },
    runtime: { stateDirectory },
  });
/** Startpage's block: a redirect to its captcha page. */
const serveStartpageBlock = () =>
  web.scenario('/sp/search', { status: 302, headers: { location: 'https://www.startpage.com/sp/captcha' } });

describe('budget exhaustion only when the budget withheld a request', () => {
  const sentAndMet: [string, () => void, string][] = [
    [
      'a throttle (HTTP 429)',
      () => serveSearx(web, '{"error":"too many requests"}', { status: 429 }),
      'rate_limited',
    ],
    ['a 5xx', () => serveSearx(web, 'upstream down', { status: 503 }), 'backend_unavailable'],
    [
      'a block (every engine captcha’d)',
      () =>
        serveSearx(
          web,
          JSON.stringify({
            ...JSON.parse(SEARX_FIXTURE_RESULTS),
            results: [],
            unresponsive_engines: [['duckduckgo', 'CAPTCHA']],
          }),
        ),
      'rate_limited',
    ],
  ];
  for (const [what, serve, code] of sentAndMet) {
    it(`a request that spent the last unit and met ${what} is reported as ${code}`, async () => {
      serve();
      const runtime = await strictSearx(1);
      const result = await runtime.startRun().webSearch({ query: 'fixture result' });
      const outcome = dataOf(result);
      expect(web.requestsTo('/search')).toHaveLength(1);
      expect(outcome).toMatchObject({
        status: 'error',
        error: { code },
        requestsUsed: 1,
        requestsRemaining: 0,
        retryInRun: false,
        nextAction: 'use_available_evidence',
      });
      expect(result.code).toBe(code);
      expect(result.text).toContain(`error: ${code}`);
      expect(result.text).toContain('requests: 1 used, 0 left');
      expect(result.text).not.toContain('search_budget_exhausted');
      await runtime.close();
    });
  }

  it('a timed-out request that spent the last unit is reported as timeout', async () => {
    // Strict SearXNG keeps its 15-second per-request timeout; the answer comes later than that.
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 30_000 });
    const runtime = await strictSearx(1);
    const outcome = dataOf(await runtime.startRun().webSearch({ query: 'fixture result' }));
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'timeout' },
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
    });
    await runtime.close();
  }, 40_000);

  it('a chain whose three sent requests were all throttled is rate_limited, not out of budget', async () => {
    serveSearx(web, '{"error":"too many requests"}', { status: 429 });
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    serveStartpageBlock();
    const runtime = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '3' } });
    const result = await runtime.startRun().webSearch({ query: 'fixture result' });
    const outcome = dataOf(result);
    expect(
      outcome.providers.filter((report) => report.requests === 1).map((report) => report.backend),
    ).toEqual(['searxng', 'duckduckgo', 'startpage']);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'rate_limited' },
      rateLimited: true,
      requestsUsed: 3,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
    expect(outcome.providers.some((report) => report.disposition === 'budget_exhausted')).toBe(false);
    await runtime.close();
  });

  it('a request the budget withheld before any answer is search_budget_exhausted, and says who met what', async () => {
    serveSearx(web, '{"error":"too many requests"}', { status: 429 });
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    const runtime = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '1' } });
    const result = await runtime.startRun().webSearch({ query: 'fixture result' });
    const outcome = dataOf(result);
    expect(web.requestsTo('/html/')).toHaveLength(0);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'search_budget_exhausted' },
      rateLimited: true,
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
    expect(outcome.providers.find((report) => report.backend === 'searxng')).toMatchObject({
      disposition: 'rate_limited',
      requests: 1,
    });
    expect(outcome.providers.find((report) => report.backend === 'duckduckgo')).toMatchObject({
      disposition: 'budget_exhausted',
      requests: 0,
    });
    expect(result.text).toContain(
      "budget: the run's search budget is spent; a request was withheld from codex, duckduckgo, startpage.",
    );
    await runtime.close();
  });

  it('a later search of a spent run sends nothing and is search_budget_exhausted', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    const runtime = await strictSearx(1);
    const run = runtime.startRun();
    expect(dataOf(await run.webSearch({ query: 'fixture result' })).status).toBe('results');
    const spent = await run.webSearch({ query: 'fixture result -zzzother' });
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(dataOf(spent)).toMatchObject({
      status: 'error',
      error: { code: 'search_budget_exhausted' },
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
    await runtime.close();
  });

  it('a search that found results with the last unit says fetch_results and that no retry is left', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    const runtime = await strictSearx(1);
    const outcome = dataOf(await runtime.startRun().webSearch({ query: 'fixture result' }));
    expect(outcome).toMatchObject({
      status: 'results',
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'fetch_results',
    });
    await runtime.close();
  });
});

describe('cooldowns are reported by their cause', () => {
  it('a backend skipped for a failure cooldown is unavailable, not throttled, and says until when', async () => {
    serveSearx(web, 'upstream down', { status: 503 });
    const runtime = await strictSearx(4);
    // "Two infrastructure failures open a one-minute cooldown."
    for (const query of ['fixture result', 'fixture result -zzzsecond']) {
      expect(dataOf(await runtime.startRun().webSearch({ query })).error?.code).toBe('backend_unavailable');
    }
    const sent = web.requestsTo('/search').length;
    const before = Date.now();
    const result = await runtime.startRun().webSearch({ query: 'fixture result -zzzthird' });
    const outcome = dataOf(result);
    expect(web.requestsTo('/search')).toHaveLength(sent);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'backend_unavailable' },
      rateLimited: false,
      requestsUsed: 0,
    });
    // "outcome.rateLimited and outcome.cooldownBackends report throttling": this is not throttling.
    expect(outcome.cooldownBackends).toEqual([]);
    expect(outcome.failureCooldownBackends).toEqual(['searxng']);
    const report = outcome.providers[0]!;
    expect(report).toMatchObject({
      backend: 'searxng',
      disposition: 'cooldown',
      code: 'backend_unavailable',
    });
    expect(report.retryAt! - before).toBeLessThanOrEqual(INFRASTRUCTURE_FAILURE_COOLDOWN_MS);
    expect(report.retryAt! - before).toBeGreaterThan(INFRASTRUCTURE_FAILURE_COOLDOWN_MS - 30_000);
    expect(outcome.retryAt).toBe(report.retryAt);
    expect(result.text).toContain('error: backend_unavailable');
    expect(result.text).toContain('unavailable: searxng failed repeatedly');
    expect(result.text).not.toMatch(/rate limit|throttling:/);
    await runtime.close();
  });

  it('a backend skipped for a throttle cooldown is rate_limited, and rateLimited says so', async () => {
    serveSearx(web, '{"error":"too many requests"}', { status: 429 });
    const runtime = await strictSearx(4);
    expect(dataOf(await runtime.startRun().webSearch({ query: 'fixture result' })).error?.code).toBe(
      'rate_limited',
    );
    const result = await runtime.startRun().webSearch({ query: 'fixture result -zzzsecond' });
    const outcome = dataOf(result);
    expect(web.requestsTo('/search')).toHaveLength(1);
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'rate_limited' }, rateLimited: true });
    expect(outcome.cooldownBackends).toEqual(['searxng']);
    expect(outcome.failureCooldownBackends).toEqual([]);
    expect(outcome.providers[0]).toMatchObject({
      disposition: 'cooldown',
      code: 'rate_limited',
      requests: 0,
    });
    expect(result.text).toContain('cooling down: searxng');
    expect(result.text).not.toContain('unavailable:');
    await runtime.close();
  });

  it('a rescued search keeps each cooldown under its own cause', async () => {
    serveSearx(web, 'upstream down', { status: 503 });
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    web.scenario('/sp/search', { status: 200, body: '<html><body>no results</body></html>' });
    const runtime = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '6' } });
    // Two searches that Startpage rescues with an empty answer: SearXNG fails twice (failure
    // cooldown); DuckDuckGo throttles (throttle cooldown).
    await runtime.startRun().webSearch({ query: 'fixture result' });
    await runtime.startRun().webSearch({ query: 'fixture result -zzzsecond' });
    web.clearRequests();
    const outcome = dataOf(await runtime.startRun().webSearch({ query: 'fixture result -zzzthird' }));
    const byBackend = Object.fromEntries(outcome.providers.map((report) => [report.backend, report]));
    expect(byBackend.searxng).toMatchObject({ disposition: 'cooldown', code: 'backend_unavailable' });
    expect(byBackend.duckduckgo).toMatchObject({ disposition: 'cooldown', code: 'rate_limited' });
    expect(outcome.status).toBe('no_results');
    expect(outcome.rateLimited).toBe(true);
    expect(outcome.cooldownBackends).toEqual(['duckduckgo']);
    expect(outcome.failureCooldownBackends).toEqual(['searxng']);
    expect(web.requestsTo('/search')).toHaveLength(0);
    expect(web.requestsTo('/html/')).toHaveLength(0);
    await runtime.close();
  });
});

describe('cancellation is never "No results."', () => {
  it('an aborted signal answers cancelled, is not cached, and never says No results.', async () => {
    serveSearx(web, searxEmpty(), { delayMs: 2_000 });
    const runtime = await strictSearx(4);
    const controller = new AbortController();
    const pending = runtime.startRun().webSearch({ query: 'fixture result' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(dataOf(result)).toMatchObject({ status: 'error', error: { code: 'cancelled' }, results: [] });
    expect(result.text).toContain('error: cancelled');
    expect(result.text).not.toContain('No results.');
    // Not cached: the same search in another run asks the backend again.
    const again = await runtime.startRun().webSearch({ query: 'fixture result' });
    expect(dataOf(again).cacheHit).toBe(false);
    expect(web.requestsTo('/search')).toHaveLength(2);
    await runtime.close();
  });

  it('closing the run cancels its search (or throws the abort), never No results.', async () => {
    serveSearx(web, searxEmpty(), { delayMs: 2_000 });
    serveDuckDuckGo(web, '<html><body></body></html>');
    const runtime = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'auto' } });
    const run = runtime.startRun();
    const pending = run.webSearch({ query: 'fixture result' }).then(
      (result) => result,
      (error: { code?: string }) => ({ text: '', thrown: error.code }),
    );
    setTimeout(() => void run.close(), 300);
    const result = (await pending) as { text: string; thrown?: string; data?: unknown };
    if (result.thrown !== undefined) expect(result.thrown).toBe('cancelled');
    else {
      expect(dataOf(result)).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
      expect(result.text).not.toContain('No results.');
    }
    // No later backend was asked on behalf of a closed run.
    expect(web.requestsTo('/html/')).toHaveLength(0);
    await expect(run.webSearch({ query: 'fixture result' })).rejects.toMatchObject({ code: 'cancelled' });
    const fresh = await runtime.startRun().webSearch({ query: 'fixture result' });
    expect(dataOf(fresh).cacheHit).toBe(false);
    await runtime.close();
  });

  it('an already-aborted call is cancelled even when the cache holds the answer', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    const runtime = await strictSearx(4);
    expect(dataOf(await runtime.startRun().webSearch({ query: 'fixture result' })).status).toBe('results');
    const result = await runtime
      .startRun()
      .webSearch({ query: 'fixture result' }, { signal: AbortSignal.abort() });
    expect(dataOf(result)).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
    await runtime.close();
  });

  it('an already-aborted call is cancelled, not the cached "No results."', async () => {
    serveSearx(web, searxEmpty());
    const runtime = await strictSearx(4);
    expect(dataOf(await runtime.startRun().webSearch({ query: 'fixture result' })).status).toBe('no_results');
    const result = await runtime
      .startRun()
      .webSearch({ query: 'fixture result' }, { signal: AbortSignal.abort() });
    expect(dataOf(result)).toMatchObject({ status: 'error', error: { code: 'cancelled' }, cacheHit: false });
    expect(result.text).not.toContain('No results.');
    await runtime.close();
  });

  it('an identical call of the same run is not cancelled by the other caller giving up', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 1_000 });
    const runtime = await strictSearx(4);
    const run = runtime.startRun();
    const controller = new AbortController();
    const first = run.webSearch({ query: 'fixture result' }, { signal: controller.signal });
    const second = run.webSearch({ query: 'fixture result' });
    setTimeout(() => controller.abort(), 200);
    expect(dataOf(await first).error?.code).toBe('cancelled');
    const outcome = dataOf(await second);
    expect(outcome.status).toBe('results');
    expect(outcome.results.length).toBeGreaterThan(0);
    await runtime.close();
  });

  it('a caller that gives up while an identical call of its run is in flight is answered cancelled at once', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS, { delayMs: 3_000 });
    const runtime = await strictSearx(4);
    const run = runtime.startRun();
    const first = run.webSearch({ query: 'fixture result' });
    const controller = new AbortController();
    const second = run.webSearch({ query: 'fixture result' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const cancelled = await Promise.race([
      second.then((result) => dataOf(result)),
      first.then(() => 'first'),
    ]);
    expect(cancelled).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
    expect(dataOf(await first).status).toBe('results');
    await runtime.close();
  });
});

describe('a Retry-After past the longest cooldown', () => {
  for (const mode of ['host', 'process'] as const) {
    it(`${mode} mode: the outcome's retry time is the cooldown the coordinator holds`, async () => {
      const twoHours = 2 * 60 * 60;
      web.scenario('/search', {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': String(twoHours) },
        body: '{"error":"too many requests"}',
      });
      const runtime = await strictSearx(4, { MONO_AGENT_WEB_COORDINATION: mode });
      const before = Date.now();
      const outcome = dataOf(await runtime.startRun().webSearch({ query: 'fixture result' }));
      const after = Date.now();
      expect(outcome.error?.code).toBe('rate_limited');
      const status = await runtime.coordinator.status();
      const scope = status.scopes.find((entry) => entry.coolingDown);
      expect(scope?.cooldownCause).toBe('throttled');
      // The host holds the longest cooldown the contract names (an hour), and the outcome says the same.
      expect(outcome.retryAt).toBe(scope?.cooldownUntil);
      expect(outcome.providers[0]!.retryAt).toBe(scope?.cooldownUntil);
      expect(outcome.retryAt!).toBeGreaterThanOrEqual(before + MAX_COOLDOWN_MS);
      expect(outcome.retryAt!).toBeLessThanOrEqual(after + MAX_COOLDOWN_MS);
      expect(outcome.retryAfterMs).toBeLessThanOrEqual(MAX_COOLDOWN_MS);
      // The next run is skipped until exactly that time.
      const skipped = dataOf(await runtime.startRun().webSearch({ query: 'fixture result -zzzsecond' }));
      expect(skipped.providers[0]).toMatchObject({ disposition: 'cooldown', retryAt: scope?.cooldownUntil });
      await runtime.close();
    });
  }
});

/** A SearXNG answer with no results and no failed engines: a genuine empty answer. */
function searxEmpty(): string {
  return JSON.stringify({ ...JSON.parse(SEARX_FIXTURE_RESULTS), results: [], unresponsive_engines: [] });
}

describe('the same answers over MCP (the built server over stdio)', () => {
  it('a SearXNG 429 on a budget of 1 is rate_limited, and the next search is withheld', async () => {
    serveSearx(web, '{"error":"too many requests"}', { status: 429 });
    const mcp = await startMcp(
      {
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
        MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
        MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '1',
      },
      stateDirectory,
    );
    try {
      const throttled = await mcp.call('WebSearch', { query: 'fixture result' });
      expect(throttled.isError).toBe(true);
      expect(throttled.text).toMatch(
        /^WebSearch status: error \| error: rate_limited \| results: 0 \| requests: 1 used, 0 left \| retry in this run: will not help \| next: use_available_evidence/,
      );
      expect(throttled.text).not.toContain('search_budget_exhausted');
      // The budget is spent now: a new search is withheld, whatever the backend would say.
      const spent = await mcp.call('WebSearch', { query: 'fixture result -zzzother' });
      expect(spent.text).toContain('error: search_budget_exhausted');
      expect(web.requestsTo('/search')).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  }, 30_000);
});
