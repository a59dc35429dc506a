// WebSearch under the sandbox's network policy, through createWebRuntime against the real searx.
// Contract: "maxRequestsPerRun is a hard integer limit … on actual provider search requests" and
// "an allowlist must include … chatgpt.com for Codex search"; "network.mode: "none" blocks every web
// request"; "localhost admits local SearXNG or Ollama but blocks public keyless search".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import type {} from '@mono-agent/test-services/searx-global-setup';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';
import { POLICIES_REFUSING_CHATGPT, spawnRecorder } from './web-search-support.js';

const searx = inject('searxUrl');
let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});

async function runtimeUnder(
  network: Record<string, string>,
  extra: Record<string, string> = {},
  codex?: string,
) {
  return await createWebRuntime({
    config: resolveWebConfig({
      env: { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: searx, ...network, ...extra },
    }),
    ...(codex === undefined ? { codexCommand: '/nonexistent/codex' } : { codexCommand: codex }),
  });
}

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;

describe('only requests that are sent are charged (maxRequestsPerRun counts actual provider requests)', () => {
  it('under network mode none a search charges nothing and says the policy refused it', async () => {
    const host = await runtimeUnder({ MONO_AGENT_NETWORK_MODE: 'none' });
    const run = host.startRun();
    const result = await run.webSearch({ query: 'fixture result' });
    expect(result.code).toBe('policy_denied');
    expect(result.text).toContain('requests: 0 used, 4 left');
    expect(dataOf(result).providers.every((report) => report.requests === 0)).toBe(true);
    expect(result.text).toMatch(/network policy: searxng was not contacted: network policy "none"/);
    await host.close();
  });

  it('under localhost with a local SearXNG, four searches fit a budget of four', async () => {
    const host = await runtimeUnder({ MONO_AGENT_NETWORK_MODE: 'localhost' });
    const run = host.startRun();
    // Queries the fixture engines answer only with irrelevant results, so auto walks the whole chain.
    for (const [index, query] of [
      'quokka migration',
      'axolotl habitat',
      'narwhal tusk',
      'pangolin scales',
    ].entries()) {
      const result = await run.webSearch({ query });
      const outcome = dataOf(result);
      expect(outcome.error?.code, query).not.toBe('search_budget_exhausted');
      expect(outcome.requestsUsed, query).toBe(index + 1);
      const byBackend = Object.fromEntries(outcome.providers.map((report) => [report.backend, report]));
      expect(byBackend.searxng?.requests).toBe(1);
      for (const backend of ['codex', 'duckduckgo', 'startpage'] as const) {
        expect(byBackend[backend]).toMatchObject({ disposition: 'policy_denied', requests: 0 });
      }
    }
    await host.close();
  });
});

describe('a destination the policy refuses only once DNS has answered is not charged either', () => {
  // `localhost` names no address until it is resolved; under mode all the transport then refuses the
  // loopback answer. Nothing was sent, so nothing may be charged.
  it('keyless engines at a name that resolves to loopback, under mode all', async () => {
    const host = await createWebRuntime({
      config: resolveWebConfig({
        env: { MONO_AGENT_NETWORK_MODE: 'all', MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' },
      }),
      keylessEndpoints: {
        duckduckgo: `http://localhost:${web.port}/html/`,
        startpage: `http://localhost:${web.port}/sp/search`,
      },
      codexCommand: '/nonexistent/codex',
    });
    const run = host.startRun();
    // More searches than the budget: each would have spent one or two requests.
    for (let search = 0; search < 5; search++) {
      const result = await run.webSearch({ query: `fixture result ${search}` });
      expect(result.code).toBe('policy_denied');
      expect(result.text).toContain('requests: 0 used, 4 left');
      for (const report of dataOf(result).providers) {
        expect(report).toMatchObject({ disposition: 'policy_denied', requests: 0 });
      }
      expect(result.text).toMatch(
        /^network policy: duckduckgo was not contacted: localhost:\d+ resolved to 127\.0\.0\.1 \(a loopback address\), which the network policy refuses \(rule "special-address"\); add localhost:\d+ to network\.allow to reach it$/m,
      );
    }
    await host.close();
  });
});

describe('Codex search is a network destination (chatgpt.com) like any other', () => {
  for (const [name, network] of POLICIES_REFUSING_CHATGPT) {
    it(`under ${name}, strict codex is refused as policy_denied before codex app-server is spawned`, async () => {
      const recorder = spawnRecorder();
      const host = await runtimeUnder(network, { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' }, recorder.command);
      const run = host.startRun();
      const result = await run.webSearch({ query: 'rust async trait' });
      expect(result.code).toBe('policy_denied');
      expect(result.text).toContain('requests: 0 used, 4 left');
      expect(result.text).toMatch(/network policy: codex was not contacted: .*chatgpt\.com:443/);
      expect(dataOf(result).providers).toMatchObject([
        { backend: 'codex', disposition: 'policy_denied', requests: 0 },
      ]);
      await run.close();
      expect(recorder.spawned()).toBe(false);
      await host.close();
    });
  }

  it('in auto mode a refused Codex is skipped free and the chain goes on', async () => {
    const recorder = spawnRecorder();
    const host = await runtimeUnder({ MONO_AGENT_NETWORK_MODE: 'localhost' }, {}, recorder.command);
    const run = host.startRun();
    const result = await run.webSearch({ query: 'quokka migration' });
    const codex = dataOf(result).providers.find((report) => report.backend === 'codex');
    expect(codex).toMatchObject({ disposition: 'policy_denied', code: 'policy_denied', requests: 0 });
    await run.close();
    expect(recorder.spawned()).toBe(false);
    await host.close();
  });

  for (const [name, network] of [
    [
      'an allowlist with chatgpt.com',
      { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: 'chatgpt.com' },
    ],
    ['all', { MONO_AGENT_NETWORK_MODE: 'all' }],
  ] as const) {
    it(`under ${name}, Codex is admitted and its process is started`, async () => {
      const recorder = spawnRecorder();
      const host = await runtimeUnder(network, { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' }, recorder.command);
      const run = host.startRun();
      const result = await run.webSearch({ query: 'rust async trait' });
      // The recorder exits at once: the search fails, but not by policy.
      expect(result.isError).toBe(true);
      expect(result.code).not.toBe('policy_denied');
      await run.close();
      expect(recorder.spawned()).toBe(true);
      await host.close();
    });
  }
});
