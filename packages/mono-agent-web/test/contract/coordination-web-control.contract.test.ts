// "Host state and recovery" and fleet coordination through the built CLI: `web-control status|reset
// --json` on the Redis store (hashed keys only, no credential printed), Redis down failing closed and
// recovering, `coordination: redis` without a server refused, and a FIFO at the host state path
// refused with a named problem instead of hanging.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { startRedisServer, type TestRedisServer } from '@mono-agent/test-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { BUILT_CLI as bin } from './support/built-cli.js';

const SEARX_RESULTS = readFileSync(
  new URL(
    '../../../search-providers/src/__fixtures__/searx/searx-1.1.0_results-local-engines.json',
    import.meta.url,
  ),
  'utf8',
);
const PASSWORD = 'fleet-secret-password';

let web: FixtureWeb;
let redis: TestRedisServer;
let home: string;
beforeAll(async () => {
  web = await startFixtureWeb();
  redis = await startRedisServer({ password: PASSWORD });
  home = mkdtempSync(join(tmpdir(), 'mono-agent-coordination-home-'));
});
afterAll(async () => {
  await web?.close();
  await redis?.dispose();
  rmSync(home, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          MONO_AGENT_NETWORK_MODE: 'allowlist',
          MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('web-control on the Redis store', () => {
  it('reports and resets fleet state with hashed keys and no credential, fails closed while Redis is down', async () => {
    const remove = web.scenario('/search', {
      headers: { 'content-type': 'application/json' },
      body: SEARX_RESULTS,
    });
    const env = {
      MONO_AGENT_WEB_COORDINATION: 'redis',
      MONO_AGENT_WEB_REDIS_URL: redis.url,
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
    };
    try {
      expect((await run(['search', 'secret research topic fixture result'], env)).code).toBe(
        EXIT_CODES.success,
      );
    } finally {
      remove();
    }
    const status = await run(['web-control', 'status', '--json'], env);
    expect(status.code, status.stderr).toBe(EXIT_CODES.success);
    const report = JSON.parse(status.stdout);
    expect(report).toMatchObject({
      mode: 'redis',
      server: `redis://127.0.0.1:${redis.port}`,
      bucketCount: 1,
    });
    expect(report.scopes[0].key).toMatch(/^[0-9a-f]{64}$/);
    for (const leaked of ['secret research topic', PASSWORD, String(web.port)]) {
      expect(status.stdout).not.toContain(leaked);
    }
    const reset = await run(['web-control', 'reset', '--json'], env);
    expect(JSON.parse(reset.stdout)).toMatchObject({ mode: 'redis', reset: true, clearedBuckets: 1 });

    await redis.stop();
    try {
      const down = await run(['web-control', 'status', '--json'], env);
      expect(down.code).toBe(EXIT_CODES.backendFailure);
      expect(JSON.parse(down.stdout)).toMatchObject({
        mode: 'redis',
        error: { code: 'backend_unavailable', details: { store: 'redis' } },
      });
      expect(down.stdout + down.stderr).not.toContain(PASSWORD);
    } finally {
      await redis.restart();
    }
    const back = await run(['web-control', 'status', '--json'], env);
    expect(JSON.parse(back.stdout)).toMatchObject({ mode: 'redis', bucketCount: 0 });
    // Six runs of the bin: seconds each when the machine is busy.
  }, 240_000);

  it('refuses coordination redis without a server URL, naming the key', async () => {
    const result = await run(['web-control', 'status', '--json'], { MONO_AGENT_WEB_COORDINATION: 'redis' });
    expect(result.code).toBe(EXIT_CODES.invalidInput);
    expect(result.stderr).toContain('redis_url_required');
  }, 60_000);
});

describe('web-control on unsafe host state', () => {
  it('refuses a FIFO at the state path with the named problem instead of hanging', async () => {
    const stateHome = mkdtempSync(join(tmpdir(), 'mono-agent-fifo-home-'));
    try {
      const directory = join(stateHome, '.mono-agent', 'web-control');
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      execFileSync('mkfifo', ['-m', '0600', join(directory, 'state.json')]);
      const result = await run(['web-control', 'status', '--json'], {
        HOME: stateHome,
        MONO_AGENT_WEB_COORDINATION: 'host',
      });
      expect(result.code).toBe(EXIT_CODES.backendFailure);
      expect(JSON.parse(result.stdout)).toMatchObject({
        mode: 'host',
        error: { code: 'state_unsafe', details: { problem: 'not_a_file' } },
      });
      expect(result.stdout).toContain('FIFO');
    } finally {
      rmSync(stateHome, { recursive: true, force: true });
    }
  }, 60_000);
});
