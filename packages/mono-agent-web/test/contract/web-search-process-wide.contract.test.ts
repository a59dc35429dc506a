// Several runtimes in one process, as a host that builds one runtime per agent has them: they share the
// process-wide keyless bounds, throttle cooldowns and the 15-minute success cache, through
// createWebRuntime against loopback servers replaying recorded DuckDuckGo and Startpage pages.
// Contract: "The default process mode retains the process-wide keyless bounds: three requests in
// flight, 1.5 seconds between starts to the same engine, and a five-minute throttle cooldown";
// "Successful searches are cached process-wide for 15 minutes, keyed by the query parameters and the
// backend configuration, so sibling subagents and later turns reuse a result instead of re-querying";
// "Concurrent subscription searches are serialized process-wide".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { CODEX_SCOPE, PROCESS_KEYLESS_LIMITS, type SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processCoordinator } from '../../src/runtime/process-shared.js';
import {
  contractRuntime,
  DUCKDUCKGO_CHALLENGE_PAGE,
  DUCKDUCKGO_FOO_PAGE,
  serveDuckDuckGo,
} from './web-search-support.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;
const KEYLESS = { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' };

describe('"Successful searches are cached process-wide … keyed by the query parameters and the backend configuration"', () => {
  it("a second runtime reuses the first runtime's result instead of re-querying", async () => {
    serveDuckDuckGo(web);
    const first = await contractRuntime(web, { env: KEYLESS });
    const second = await contractRuntime(web, { env: KEYLESS });
    const asked = dataOf(await first.startRun().webSearch({ query: 'foo' }));
    expect(asked).toMatchObject({ status: 'results', cacheHit: false });
    const reused = dataOf(await second.startRun().webSearch({ query: 'foo' }));
    expect(reused).toMatchObject({ status: 'results', cacheHit: true, requestsUsed: 0 });
    expect(reused.results.map((result) => result.url)).toEqual(asked.results.map((result) => result.url));
    expect(web.requestsTo('/html/')).toHaveLength(1);
    await Promise.all([first.close(), second.close()]);
  });

  it('runtimes configured differently never share an entry', async () => {
    serveDuckDuckGo(web);
    const keyless = await contractRuntime(web, { env: KEYLESS });
    // Another network policy: what one runtime may reach is no answer for a runtime that may not.
    const otherPolicy = await contractRuntime(web, {
      env: { ...KEYLESS, MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port},example.com` },
    });
    // Another endpoint for the same engine.
    const otherEndpoint = await contractRuntime(web, {
      env: KEYLESS,
      runtime: {
        keylessEndpoints: { duckduckgo: web.url('/html/?mirror=1'), startpage: web.url('/sp/search') },
      },
    });
    for (const host of [keyless, otherPolicy, otherEndpoint]) {
      expect(dataOf(await host.startRun().webSearch({ query: 'foo' }))).toMatchObject({
        status: 'results',
        cacheHit: false,
      });
    }
    expect(web.requestsTo('/html/')).toHaveLength(3);
    await Promise.all([keyless.close(), otherPolicy.close(), otherEndpoint.close()]);
  }, 30_000);

  it('closing one runtime breaks neither the others nor the entries they share', async () => {
    serveDuckDuckGo(web);
    const closing = await contractRuntime(web, { env: KEYLESS });
    const staying = await contractRuntime(web, { env: KEYLESS });
    await closing.startRun().webSearch({ query: 'foo' });
    await closing.close();
    const reused = dataOf(await staying.startRun().webSearch({ query: 'foo' }));
    expect(reused).toMatchObject({ status: 'results', cacheHit: true });
    const fresh = dataOf(await staying.startRun().webSearch({ query: 'foo -zzzfresh' }));
    expect(fresh).toMatchObject({ status: 'results', cacheHit: false });
    expect(web.requestsTo('/html/')).toHaveLength(2);
    await staying.close();
  }, 30_000);
});

describe('"the process-wide keyless bounds" hold across runtimes', () => {
  it('starts to one engine from two runtimes are 1.5 seconds apart', async () => {
    serveDuckDuckGo(web);
    const [first, second] = await Promise.all([
      contractRuntime(web, { env: KEYLESS }),
      contractRuntime(web, { env: KEYLESS }),
    ]);
    await Promise.all([
      first.startRun().webSearch({ query: 'foo -zzzone' }),
      second.startRun().webSearch({ query: 'foo -zzztwo' }),
    ]);
    const arrivals = web.requestsTo('/html/').map((request) => request.receivedAt);
    expect(arrivals).toHaveLength(2);
    // Spacing only ever delays a start, so a loaded machine cannot make this gap shorter.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(PROCESS_KEYLESS_LIMITS.startSpacingMs - 50);
    await Promise.all([first.close(), second.close()]);
  }, 30_000);

  it('at most three keyless requests are in flight across four runtimes', async () => {
    // Each answer takes 4 s: with 1.5 s between starts three overlap, and the fourth must wait for a slot.
    let inFlight = 0;
    let most = 0;
    const slowPage =
      (body: string) =>
      async (
        _request: unknown,
        response: import('node:http').ServerResponse,
        context: { signal: AbortSignal },
      ) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        inFlight -= 1;
        if (context.signal.aborted) return;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(body);
      };
    web.scenario('/html/', slowPage(DUCKDUCKGO_FOO_PAGE));
    const hosts = await Promise.all([1, 2, 3, 4].map(() => contractRuntime(web, { env: KEYLESS })));
    // Each runtime's first start is spaced 1.5 s from the last, so three overlap before the first ends.
    const queries = ['foo -zzzone', 'foo -zzztwo', 'foo -zzzthree', 'foo -zzzfour'];
    const outcomes = await Promise.all(
      hosts.map((host, index) => host.startRun().webSearch({ query: queries[index]! })),
    );
    expect(outcomes.every((result) => dataOf(result).status === 'results')).toBe(true);
    expect(most).toBe(PROCESS_KEYLESS_LIMITS.inFlight);
    await Promise.all(hosts.map((host) => host.close()));
  }, 60_000);

  it('a throttle seen by one runtime cools the engine down for every runtime of the process', async () => {
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    const first = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const second = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const throttled = dataOf(await first.startRun().webSearch({ query: 'foo' }));
    expect(throttled.providers.find((report) => report.backend === 'duckduckgo')?.disposition).toBe(
      'rate_limited',
    );
    const skipped = dataOf(await second.startRun().webSearch({ query: 'another foo' }));
    expect(skipped.cooldownBackends).toContain('duckduckgo');
    expect(skipped.providers.find((report) => report.backend === 'duckduckgo')).toMatchObject({
      disposition: 'cooldown',
      requests: 0,
    });
    expect(web.requestsTo('/html/')).toHaveLength(1);
    await Promise.all([first.close(), second.close()]);
  });
});

describe('"Concurrent subscription searches are serialized process-wide"', () => {
  it('every process-mode runtime admits through the one process coordinator', async () => {
    const hosts = await Promise.all([contractRuntime(web), contractRuntime(web, { env: KEYLESS })]);
    for (const host of hosts) expect(host.coordinator).toBe(processCoordinator());
    // Codex admission is one slot on that coordinator: a second admission waits for the first.
    const codex = { scope: CODEX_SCOPE, kind: 'search' as const, concurrency: 1, spacingMs: 0 };
    const held = await hosts[0]!.coordinator.admit(codex);
    let secondAdmitted = false;
    const waiting = hosts[1]!.coordinator.admit(codex).then((permit) => {
      secondAdmitted = true;
      return permit;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(secondAdmitted).toBe(false);
    if (held.status === 'admitted') await held.release({ outcome: 'success' });
    const second = await waiting;
    expect(second.status).toBe('admitted');
    if (second.status === 'admitted') await second.release({ outcome: 'success' });
    await Promise.all(hosts.map((host) => host.close()));
  });
});
