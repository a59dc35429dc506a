import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { findCodexBinary } from '@mono-agent/test-services';
import { SEARCH_RESULTS_BEGIN, WEB_CONTENT_BEGIN, WEB_CONTENT_END } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveWebConfig } from '../config/index.js';
import type { TimingEvent } from './timing-event.js';
import { createWebRuntime } from './web-runtime.js';

// The recorded searx answer whose results all say "… fixture result".
const SEARX_RESULTS = readFileSync(
  new URL(
    '../../../search-providers/src/__fixtures__/searx/searx-1.1.0_results-local-engines.json',
    import.meta.url,
  ),
  'utf8',
);

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

async function runtime(
  options: { maxRequests?: number; events?: TimingEvent[]; codexCommand?: string } = {},
) {
  const config = resolveWebConfig({
    env: {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: String(options.maxRequests ?? 4),
    },
  });
  return await createWebRuntime({
    config,
    keylessEndpoints: { duckduckgo: web.url('/html/'), startpage: web.url('/sp/search') },
    ...(options.codexCommand === undefined ? {} : { codexCommand: options.codexCommand }),
    ...(options.events ? { onTiming: (event: TimingEvent) => options.events!.push(event) } : {}),
  });
}

describe('a run', () => {
  it('fetches a page once and re-slices it from the run cache without refetching', async () => {
    const run = (await runtime()).startRun();
    const first = await run.webFetch({ url: web.url('/content/text'), max_lines: 2 });
    expect(first.isError).toBe(false);
    expect(first.text).toMatch(/^WebFetch status: ok \| kind: text/);
    expect(first.text).toContain(WEB_CONTENT_BEGIN);
    expect(first.text).toContain(WEB_CONTENT_END);
    expect(first.text).toMatch(/next line: 3/);
    const second = await run.webFetch({ url: web.url('/content/text'), start_line: 3, max_lines: 2 });
    expect(second.text).toMatch(/lines: 3-/);
    expect(second.text).toContain('cached: yes');
    expect(web.requestsTo('/content/text')).toHaveLength(1);
    await run.close();
  });

  it('runs a whole configuration as given', async () => {
    const config = resolveWebConfig({ env: { MONO_AGENT_NETWORK_MODE: 'none' } });
    const host = await createWebRuntime({ config });
    expect(host.config).toBe(config);
    const run = host.startRun();
    const denied = await run.webFetch({ url: 'https://example.com/' });
    expect(denied.text).toContain('error: policy_denied');
    await host.close();
  });

  it('a new run does not reuse the previous run documents', async () => {
    const host = await runtime();
    const first = host.startRun();
    await first.webFetch({ url: web.url('/content/json') });
    await first.close();
    const second = host.startRun();
    await second.webFetch({ url: web.url('/content/json') });
    expect(web.requestsTo('/content/json')).toHaveLength(2);
    await second.close();
  });

  it('reports failures as categories, and denies destinations outside the policy without a request', async () => {
    const run = (await runtime()).startRun();
    const missing = await run.webFetch({ url: web.url('/status/404') });
    expect(missing).toMatchObject({
      code: 'http_status',
      isError: true,
      text:
        'WebFetch status: error | error: http_status | http status: 404 | attempts: 1\n' +
        'reason: the server has no page at this URL (HTTP 404); check the URL or search for where the page moved',
    });
    const other = await run.webFetch({ url: web.url('/content/text', { host: '127.0.0.2' }) });
    expect(other.isError).toBe(true);
    expect(other.text).toContain('error: policy_denied');
    // The refusal says what was refused and which setting would admit it.
    expect(other.text).toMatch(/reason: 127\.0\.0\.2:\d+ is not in network\.allow/);
    expect(other.text).toMatch(/allowed by: add "127\.0\.0\.2:\d+" \(or "127\.0\.0\.2"\) to network\.allow/);
    expect(web.requests.filter((request) => request.hostname === '127.0.0.2')).toHaveLength(0);
    const invalid = await run.webFetch({ url: 'ftp://example.com/file', headers: { Cookie: 'a=b' } });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('validation_error');
    await run.close();
  });

  it('searches through the configured SearXNG with framed, bounded output', async () => {
    web.scenario('/search', { headers: { 'content-type': 'application/json' }, body: SEARX_RESULTS });
    const events: TimingEvent[] = [];
    const run = (await runtime({ events })).startRun();
    const result = await run.webSearch({ query: 'fixture result', limit: 3 });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^WebSearch status: results \| backend: searxng \| results: 3/);
    expect(result.text).toContain(SEARCH_RESULTS_BEGIN);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      tool: 'WebSearch',
      status: 'ok',
      backend: 'searxng',
      requests: 1,
      requestBudget: 4,
    });
    // Timing events carry no query, URL or content.
    expect(JSON.stringify(events)).not.toMatch(/fixture result|127\.0\.0\.1|example\.com/);
    await run.close();
  });

  it('in auto mode walks SearXNG, an unavailable Codex and then the keyless engines', async () => {
    web.scenario('/search', { status: 500, body: '{"error": "search error"}' });
    web.scenario('/html/', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: readFileSync(
        new URL('../../../keyless-html/src/__fixtures__/lofi_duckduckgo-html-get-foo.html', import.meta.url),
        'utf8',
      ),
    });
    const host = await runtime({ codexCommand: '/nonexistent/codex' });
    const run = host.startRun();
    const result = await run.webSearch({ query: 'foo' });
    const outcome = result.data as {
      backend: string;
      providers: { backend: string; disposition: string; code?: string }[];
    };
    expect(outcome.backend).toBe('duckduckgo');
    expect(
      outcome.providers.map((report) => `${report.backend}:${report.disposition}:${report.code ?? ''}`),
    ).toEqual([
      'searxng:failed:backend_unavailable',
      'codex:failed:configuration_error',
      'duckduckgo:accepted:',
    ]);
    await run.close();
    await host.close();
  });

  it('enforces the run budget across calls with the exact exhausted outcome', async () => {
    web.scenario('/search', { headers: { 'content-type': 'application/json' }, body: SEARX_RESULTS });
    const run = (await runtime({ maxRequests: 1 })).startRun();
    await run.webSearch({ query: 'fixture result' });
    const exhausted = await run.webSearch({ query: 'another fixture result' });
    expect(exhausted.isError).toBe(true);
    expect(exhausted.text).toContain('error: search_budget_exhausted');
    expect(exhausted.text).toContain('requests: 1 used, 0 left');
    expect(exhausted.text).toContain('next: use_available_evidence');
    expect(web.requestsTo('/search')).toHaveLength(1);
    await run.close();
  });

  it('close cancels work in flight, leaves no socket or timer behind and refuses later calls', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const host = await runtime();
    const timersBefore = timers();
    const run = host.startRun();
    const pending = run.webFetch({ url: web.url('/trickle?rate=10&bytes=1000') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await run.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.text).toContain('error: cancelled');
    const deadline = Date.now() + 3000;
    while (web.openConnections() > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(web.openConnections()).toBe(0);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    await expect(run.webFetch({ url: web.url('/content/text') })).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it.skipIf(findCodexBinary() === undefined && !process.env.CI)(
    'close ends the codex app-server child a search started',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'mono-agent-codex-home-'));
      vi.stubEnv('CODEX_HOME', home);
      const children = () =>
        execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.includes('app-server')).length;
      try {
        const config = resolveWebConfig({ env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' } });
        const host = await createWebRuntime({ config, codexCommand: findCodexBinary()! });
        const run = host.startRun();
        const result = await run.webSearch({ query: 'signed out search' });
        // Signed out: the readiness check fails before any turn, and nothing is charged.
        expect(result.isError).toBe(true);
        expect(result.text).toContain('error: configuration_error');
        expect(result.text).toContain('requests: 0 used');
        expect(children()).toBeGreaterThan(0);
        await run.close();
        const deadline = Date.now() + 5000;
        while (children() > 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(children()).toBe(0);
        await host.close();
      } finally {
        vi.unstubAllEnvs();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
