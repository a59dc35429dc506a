import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { findCodexBinary } from '@mono-agent/test-services';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveWebConfig } from '../config/index.js';
import { validateWebConfig } from './validate-web-config.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});

// The renderer and the codex CLI as if installed, so the version judgement itself is what is tested.
const installed = (command: string) => `/opt/bin/${command}`;
const browser = (output: string) => ({ runVersion: async () => output, findCommand: installed });

const names = (report: Awaited<ReturnType<typeof validateWebConfig>>) =>
  Object.fromEntries(report.checks.map((check) => [check.name, check.status]));

describe('validateWebConfig', () => {
  it('passes the defaults structurally, without probes when liveness is off', async () => {
    const report = await validateWebConfig(resolveWebConfig({ env: {} }), {
      liveness: false,
      findCommand: installed,
    });
    expect(report.ok).toBe(true);
    // Allowed by the policy, but the keyless engines and Codex are found out only by a search.
    expect(names(report)).toMatchObject({
      'network.mode': 'ok',
      'network.keyless': 'note',
      'search.codex': 'note',
      'search.backends': 'ok',
    });
    expect(report.checks.some((check) => check.name.startsWith('liveness.'))).toBe(false);
  });

  it('fails a SearXNG endpoint the network policy blocks and warns that none blocks everything', async () => {
    const blocked = resolveWebConfig({
      env: {
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: 'example.com',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:8088',
      },
    });
    const report = await validateWebConfig(blocked, { liveness: false });
    expect(report.ok).toBe(false);
    expect(names(report)['network.searxng']).toBe('fail');
    const none = await validateWebConfig(resolveWebConfig({ env: { MONO_AGENT_NETWORK_MODE: 'none' } }), {
      liveness: false,
    });
    expect(names(none)['network.mode']).toBe('warn');
  });

  it('probes the selected SearXNG with a bounded JSON query when liveness is on', async () => {
    web.scenario('/search', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ results: [], unresponsive_engines: [] }),
    });
    const config = resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl },
    });
    const live = await validateWebConfig(config);
    expect(names(live)['liveness.searxng']).toBe('ok');
    expect(web.requestsTo('/search')[0]?.query.get('format')).toBe('json');
    web.scenario('/search', { status: 403, body: 'Forbidden' });
    const refused = await validateWebConfig(config);
    expect(refused.ok).toBe(false);
    expect(refused.checks.find((check) => check.name === 'liveness.searxng')?.detail).toContain(
      'configuration_error',
    );
  });

  it('judges an Ollama origin by the policy: hosted ollama.com is not reachable under localhost', async () => {
    const hosted = (mode: string) =>
      resolveWebConfig({
        env: {
          MONO_AGENT_NETWORK_MODE: mode,
          MONO_AGENT_WEB_SEARCH_BACKEND: 'ollama',
          MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://ollama.com',
          MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: 'OLLAMA_API_KEY',
        },
      });
    expect(names(await validateWebConfig(hosted('localhost'), { liveness: false }))['network.ollama']).toBe(
      'fail',
    );
    expect(names(await validateWebConfig(hosted('all'), { liveness: false }))['network.ollama']).toBe('ok');
    const local = resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_WEB_SEARCH_BACKEND: 'ollama' },
    });
    expect(names(await validateWebConfig(local, { liveness: false }))['network.ollama']).toBe('ok');
  });

  it('checks that the policy admits chatgpt.com for Codex search', async () => {
    const codex = (allow: string) =>
      resolveWebConfig({
        env: {
          MONO_AGENT_NETWORK_MODE: 'allowlist',
          MONO_AGENT_NETWORK_ALLOW: allow,
          MONO_AGENT_WEB_SEARCH_BACKEND: 'codex',
        },
      });
    const missing = await validateWebConfig(codex('example.com'), { liveness: false });
    expect(names(missing)['network.codex']).toBe('fail');
    expect(missing.checks.find((check) => check.name === 'network.codex')?.detail).toContain('chatgpt.com');
    const listed = await validateWebConfig(codex('example.com,chatgpt.com'), { liveness: false });
    expect(names(listed)['network.codex']).toBeUndefined();
    const auto = resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: 'example.com' },
    });
    expect(names(await validateWebConfig(auto, { liveness: false }))['network.codex']).toBe('warn');
  });

  it('accepts only agent-browser itself as the renderer, not any program that prints a version', async () => {
    const config = resolveWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'auto' } });
    const other = await validateWebConfig(config, browser('Python 3.11.2\n'));
    expect(names(other)['fetch.browser']).toBe('fail');
    const bare = await validateWebConfig(config, browser('1.2.3\n'));
    expect(names(bare)['fetch.browser']).toBe('fail');
  });

  it('checks the renderer version only when rendering is enabled', async () => {
    const config = resolveWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'auto' } });
    const good = await validateWebConfig(config, browser('agent-browser 0.41.2\n'));
    expect(names(good)['fetch.browser']).toBe('ok');
    const old = await validateWebConfig(config, browser('agent-browser 0.33.0'));
    expect(names(old)['fetch.browser']).toBe('fail');
    const oldest = await validateWebConfig(config, browser('agent-browser 0.33.1'));
    expect(names(oldest)['fetch.browser']).toBe('ok');
    // Another program that prints a version is not agent-browser, however new its number.
    for (const other of ['Python 3.11.2', 'codex-cli 9.9.9', 'chromium 156.0.8078.108', '1.2.3']) {
      const impostor = await validateWebConfig(config, browser(other));
      expect(names(impostor)['fetch.browser']).toBe('fail');
      expect(impostor.checks.find((check) => check.name === 'fetch.browser')?.detail).toContain(
        'does not report agent-browser',
      );
    }
    const missing = await validateWebConfig(config, {
      findCommand: installed,
      runVersion: async () => {
        throw Object.assign(new Error('spawn agent-browser ENOENT'), { code: 'ENOENT' });
      },
    });
    expect(missing.checks.find((check) => check.name === 'fetch.browser')?.detail).toContain('did not run');
    const never = await validateWebConfig(resolveWebConfig({ env: {} }), browser('x'));
    expect(never.checks.some((check) => check.name === 'fetch.browser')).toBe(false);
  });

  it('fails a configuration whose every search backend the policy blocks, naming each', async () => {
    const check = (report: Awaited<ReturnType<typeof validateWebConfig>>, name: string) =>
      report.checks.find((entry) => entry.name === name);
    for (const mode of ['none', 'localhost']) {
      const report = await validateWebConfig(resolveWebConfig({ env: { MONO_AGENT_NETWORK_MODE: mode } }), {
        liveness: false,
        findCommand: installed,
      });
      expect(report.ok).toBe(false);
      expect(check(report, 'search.backends')).toMatchObject({ status: 'fail' });
      for (const name of ['codex', 'duckduckgo', 'startpage'])
        expect(check(report, 'search.backends')?.detail).toContain(name);
    }
    // A local SearXNG keeps one backend usable: the others are named as blocked, and nothing fails.
    const local = await validateWebConfig(
      resolveWebConfig({
        env: {
          MONO_AGENT_NETWORK_MODE: 'localhost',
          MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:8888',
        },
      }),
      { liveness: false, findCommand: installed },
    );
    expect(local.ok).toBe(true);
    expect(check(local, 'search.backends')).toMatchObject({ status: 'note' });
    expect(check(local, 'search.backends')?.detail).toMatch(/reach searxng only; unusable: codex/);
    expect(check(local, 'liveness.searxng')).toMatchObject({ status: 'note' });
  });

  it('reports a missing codex CLI without starting anything: a failure in strict mode, a warning in auto', async () => {
    const absent = () => undefined;
    const strict = await validateWebConfig(
      resolveWebConfig({ env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' } }),
      { findCommand: absent },
    );
    expect(names(strict)).toMatchObject({
      'search.codex': 'fail',
      'search.backends': 'fail',
      'liveness.codex': 'fail',
    });
    const auto = await validateWebConfig(resolveWebConfig({ env: {} }), {
      liveness: false,
      findCommand: absent,
    });
    expect(names(auto)).toMatchObject({ 'search.codex': 'warn', 'search.backends': 'note' });
    expect(auto.ok).toBe(true);
  });

  it('checks the renderer is installed even with liveness off, without running a missing one', async () => {
    const config = resolveWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'auto' } });
    let ran = false;
    const report = await validateWebConfig(config, {
      liveness: false,
      findCommand: () => undefined,
      runVersion: async () => {
        ran = true;
        return 'agent-browser 0.41.2';
      },
    });
    expect(ran).toBe(false);
    expect(report.checks.find((entry) => entry.name === 'fetch.browser')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('is not on the PATH'),
    });
    const impostor = await validateWebConfig(config, { liveness: false, ...browser('Python 3.11.2') });
    expect(names(impostor)['fetch.browser']).toBe('fail');
  });

  it.skipIf(findCodexBinary() === undefined && !process.env.CI)(
    'checks Codex readiness in strict codex mode: signed out is a failure naming the reason',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'mono-agent-codex-home-'));
      vi.stubEnv('CODEX_HOME', home);
      try {
        const config = resolveWebConfig({ env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' } });
        const report = await validateWebConfig(config, { codexCommand: findCodexBinary()! });
        const check = report.checks.find((entry) => entry.name === 'liveness.codex');
        expect(check?.status).toBe('fail');
        expect(check?.detail).toMatch(/account false, web search true, model true/);
        const offline = await validateWebConfig(config, {
          liveness: false,
          codexCommand: findCodexBinary()!,
        });
        expect(offline.checks.find((entry) => entry.name === 'liveness.codex')).toMatchObject({
          status: 'note',
          detail: expect.stringContaining('not checked (liveness off)'),
        });
      } finally {
        vi.unstubAllEnvs();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
