import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findCodexBinary } from '../../../search-providers/test/codex-binary.js';
import { resolveWebConfig } from '../config/index.js';
import { validateWebConfig } from './validate-web-config.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});

const names = (report: Awaited<ReturnType<typeof validateWebConfig>>) =>
  Object.fromEntries(report.checks.map((check) => [check.name, check.status]));

describe('validateWebConfig', () => {
  it('passes the defaults structurally, without probes when liveness is off', async () => {
    const report = await validateWebConfig(resolveWebConfig({ env: {} }), { liveness: false });
    expect(report.ok).toBe(true);
    expect(names(report)).toMatchObject({ 'network.mode': 'ok', 'network.keyless': 'ok' });
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
    const other = await validateWebConfig(config, { runVersion: async () => 'Python 3.11.2\n' });
    expect(names(other)['fetch.browser']).toBe('fail');
    const bare = await validateWebConfig(config, { runVersion: async () => '1.2.3\n' });
    expect(names(bare)['fetch.browser']).toBe('fail');
  });

  it('checks the renderer version only when rendering is enabled', async () => {
    const config = resolveWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'auto' } });
    const good = await validateWebConfig(config, { runVersion: async () => 'agent-browser 0.41.2\n' });
    expect(names(good)['fetch.browser']).toBe('ok');
    const old = await validateWebConfig(config, { runVersion: async () => 'agent-browser 0.33.0' });
    expect(names(old)['fetch.browser']).toBe('fail');
    const oldest = await validateWebConfig(config, { runVersion: async () => 'agent-browser 0.33.1' });
    expect(names(oldest)['fetch.browser']).toBe('ok');
    // Another program that prints a version is not agent-browser, however new its number.
    for (const other of ['Python 3.11.2', 'codex-cli 9.9.9', 'chromium 156.0.8078.108', '1.2.3']) {
      const impostor = await validateWebConfig(config, { runVersion: async () => other });
      expect(names(impostor)['fetch.browser']).toBe('fail');
      expect(impostor.checks.find((check) => check.name === 'fetch.browser')?.detail).toContain(
        'does not report agent-browser',
      );
    }
    const missing = await validateWebConfig(config, {
      runVersion: async () => {
        throw Object.assign(new Error('spawn agent-browser ENOENT'), { code: 'ENOENT' });
      },
    });
    expect(missing.checks.find((check) => check.name === 'fetch.browser')?.detail).toContain('did not run');
    const never = await validateWebConfig(resolveWebConfig({ env: {} }), { runVersion: async () => 'x' });
    expect(never.checks.some((check) => check.name === 'fetch.browser')).toBe(false);
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
        const offline = await validateWebConfig(config, { liveness: false });
        expect(offline.checks.some((entry) => entry.name === 'liveness.codex')).toBe(false);
      } finally {
        vi.unstubAllEnvs();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
