// "The operator sees why a search failed. The model-facing text keeps the contract's sanitized backend
// and category; the CLI's human output adds each provider's reason on stderr (DNS failure, CLI not
// installed, the engine's answer)." Driven through the built bin against loopback endpoints.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { SEARX_FIXTURE_RESULTS, serveSearx } from './web-search-support.js';

let web: FixtureWeb;
let home: string;
beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'cli-search-reasons-'));
});
beforeEach(() => web.reset());
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const searxAt = (endpoint: string) => ({
  MONO_AGENT_NETWORK_MODE: 'localhost',
  MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
  MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: endpoint,
});

describe('a failed search through the CLI: the model text stays sanitized, stderr carries each reason', () => {
  it('an unreachable SearXNG: the connection error on stderr only', async () => {
    const run = await runBuiltCli(['search', 'night bus pilot'], {
      home,
      env: searxAt(`http://127.0.0.1:${await closedPort()}`),
    });
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(run.stdout).toMatch(/^WebSearch status: error \| error: backend_unavailable/);
    expect(run.stdout).toContain('providers: searxng=failed:backend_unavailable');
    expect(run.stdout).not.toContain('ECONNREFUSED');
    expect(run.stderr).toMatch(
      /^mono-agent-web: search: searxng failed \(backend_unavailable\): .*ECONNREFUSED.*$/m,
    );
  });

  it("the engine's answer: an HTTP error from SearXNG is named on stderr", async () => {
    serveSearx(web, '<html>upstream engine exploded</html>', { status: 502 });
    const run = await runBuiltCli(['search', 'night bus pilot'], { home, env: searxAt(web.baseUrl) });
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    const line = run.stderr.split('\n').find((text) => text.startsWith('mono-agent-web: search: searxng'));
    expect(line, run.stderr).toMatch(/searxng failed \(\w+\): .*502/);
    expect(run.stdout).not.toContain('502');
  });

  it('the engines SearXNG reports down are listed with their reasons', async () => {
    serveSearx(
      web,
      JSON.stringify({
        query: 'q',
        results: [],
        unresponsive_engines: [['fixture-captcha', 'CAPTCHA required']],
      }),
    );
    const run = await runBuiltCli(['search', 'night bus pilot'], { home, env: searxAt(web.baseUrl) });
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(run.stderr).toMatch(
      /^mono-agent-web: search: searxng rate_limited \(rate_limited\).*; engines: fixture-captcha CAPTCHA$/m,
    );
  });

  it('Codex search without the Codex CLI installed says so and how to fix it', async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'no-codex-'));
    try {
      const run = await runBuiltCli(['search', 'night bus pilot'], {
        home,
        env: { PATH: emptyPath, MONO_AGENT_NETWORK_MODE: 'all', MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' },
      });
      expect(run.stdout).toMatch(/error: configuration_error/);
      expect(run.stdout).not.toContain('not installed');
      expect(run.stderr).toMatch(
        /^mono-agent-web: search: codex failed \(configuration_error\): the Codex CLI is not installed.*install it/m,
      );
    } finally {
      rmSync(emptyPath, { recursive: true, force: true });
    }
  });

  it('nothing is added when the search answered, nor under --json (the reasons are in the object)', async () => {
    serveSearx(web, SEARX_FIXTURE_RESULTS);
    const ok = await runBuiltCli(['search', 'fixture result'], { home, env: searxAt(web.baseUrl) });
    expect(ok.code).toBe(EXIT_CODES.success);
    expect(ok.stderr).toBe('');
    const json = await runBuiltCli(['search', 'night bus pilot', '--json'], {
      home,
      env: searxAt(`http://127.0.0.1:${await closedPort()}`),
    });
    expect(json.stderr).toBe('');
    expect(jsonOf<{ providers: { message?: string }[] }>(json).providers[0]?.message).toMatch(/ECONNREFUSED/);
  });
});
