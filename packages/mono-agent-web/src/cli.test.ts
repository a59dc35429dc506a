import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';

// Every subcommand, run as a real process of the bin.
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const SEARX_RESULTS = readFileSync(
  new URL(
    '../../search-providers/src/__fixtures__/searx/searx-1.1.0_results-local-engines.json',
    import.meta.url,
  ),
  'utf8',
);

let web: FixtureWeb;
let home: string;
beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'mono-agent-cli-home-'));
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

function run(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      tsx,
      ['--conditions=@mono-agent/source', cli, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          MONO_AGENT_NETWORK_MODE: 'allowlist',
          MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
          ...options.env,
        },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

describe('mono-agent-web', () => {
  it('fetch prints the framed document, or JSON with --json', async () => {
    const text = await run(['fetch', web.url('/content/json')]);
    expect(text.code).toBe(EXIT_CODES.success);
    expect(text.stdout).toMatch(/^WebFetch status: ok \| kind: json/);
    const json = await run(['fetch', web.url('/content/json'), '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'ok',
      httpStatus: 200,
      document: { kind: 'json' },
    });
  });

  it('fetch exits with the policy code for a denied destination and the backend code for HTTP errors', async () => {
    const denied = await run(['fetch', web.url('/content/json', { host: '127.0.0.2' })]);
    expect(denied.code).toBe(EXIT_CODES.policyDenied);
    const missing = await run(['fetch', web.url('/status/404')]);
    expect(missing.code).toBe(EXIT_CODES.backendFailure);
    expect(missing.stdout).toContain('error: http_status');
  });

  it('search uses the configured SearXNG', async () => {
    const remove = web.scenario('/search', {
      headers: { 'content-type': 'application/json' },
      body: SEARX_RESULTS,
    });
    const result = await run(['search', 'fixture result', '--limit', '2', '--json'], {
      env: { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl, MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' },
    });
    remove();
    expect(result.code).toBe(EXIT_CODES.success);
    const outcome = JSON.parse(result.stdout);
    expect(outcome).toMatchObject({ status: 'results', backend: 'searxng', requestsUsed: 1 });
    expect(outcome.results).toHaveLength(2);
  });

  it('rejects invalid configuration with the invalid-input code, naming the key', async () => {
    const result = await run(['search', 'q'], { env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '21' } });
    expect(result.code).toBe(EXIT_CODES.invalidInput);
    expect(result.stderr).toContain('MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN');
  });

  it('extract reads a file or standard input and never touches the network', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mono-agent-cli-'));
    const file = join(directory, 'page.html');
    writeFileSync(
      file,
      '<html><head><title>T</title></head><body><article><h1>Hello</h1><p>A paragraph with <a href="/x">a link</a>.</p></article></body></html>',
    );
    const fromFile = await run(['extract', file, '--url', 'https://example.com/a/', '--format', 'markdown'], {
      env: { MONO_AGENT_NETWORK_MODE: 'none' },
    });
    expect(fromFile.code).toBe(EXIT_CODES.success);
    expect(fromFile.stdout).toContain('https://example.com/x');
    const fromStdin = await run(
      ['extract', '-', '--url', 'https://example.com/', '--content-type', 'application/json'],
      {
        input: '{"a":[1,2]}',
      },
    );
    expect(fromStdin.stdout).toContain('"a"');
    const missingUrl = await run(['extract', file]);
    expect(missingUrl.code).toBe(EXIT_CODES.invalidInput);
    rmSync(directory, { recursive: true, force: true });
  });

  it('validate reports the web section and fails a blocked endpoint with the invalid-input code', async () => {
    const ok = await run(['validate', '--no-liveness'], {
      env: { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl },
    });
    expect(ok.code).toBe(EXIT_CODES.success);
    expect(ok.stdout).toContain('Web search & fetch (liveness off)');
    // The allowlist holds only the fixture: with no SearXNG, no backend of the auto chain is left.
    const nothing = await run(['validate', '--no-liveness']);
    expect(nothing.code).toBe(EXIT_CODES.invalidInput);
    expect(nothing.stdout).toMatch(/\[fail\] search\.backends: every search would fail/);
    const blocked = await run(['validate', '--no-liveness', '--json'], {
      env: { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:9' },
    });
    expect(blocked.code).toBe(EXIT_CODES.invalidInput);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ ok: false, liveness: false });
  });

  it('web-control status and reset print operational JSON without query text', async () => {
    const remove = web.scenario('/search', {
      headers: { 'content-type': 'application/json' },
      body: SEARX_RESULTS,
    });
    const env = {
      MONO_AGENT_WEB_COORDINATION: 'host',
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
    };
    expect((await run(['search', 'secret research topic fixture result'], { env })).code).toBe(
      EXIT_CODES.success,
    );
    remove();
    const status = await run(['web-control', 'status', '--json'], { env });
    expect(status.code).toBe(EXIT_CODES.success);
    const report = JSON.parse(status.stdout);
    expect(report).toMatchObject({ mode: 'host', bucketCount: 1, activeRequests: 0 });
    expect(status.stdout).not.toContain('secret research topic');
    expect(status.stdout).not.toContain(String(web.port));
    const reset = await run(['web-control', 'reset', '--json'], { env });
    expect(JSON.parse(reset.stdout)).toMatchObject({ reset: true, clearedBuckets: 1 });
    const text = await run(['web-control', 'status'], { env });
    expect(text.code).toBe(EXIT_CODES.success);
    expect(text.stdout).toMatch(/^Coordination: host mode, shared through .*state\.json$/m);
    expect(text.stdout).toContain('Cooldowns: none');
  });
});
