// `mono-agent-web mcp` as a child process driven by the MCP SDK's client: one server serves many model
// runs. Contract: "maxRequestsPerRun is a hard integer limit … in one logical runtime run … Each child
// agent and later run receives a fresh budget."
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/run-cli.js';
import { SEARX_FIXTURE_RESULTS, serveSearx } from './web-search-support.js';

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
  serveSearx(web, SEARX_FIXTURE_RESULTS);
});
afterAll(async () => {
  await web.close();
});

async function connect(args: string[], env: Record<string, string> = {}) {
  const client = new Client({ name: 'mcp-run-lifetime-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: tsx,
      args: ['--conditions=@mono-agent/source', cli, 'mcp', ...args],
      env: {
        PATH: process.env.PATH ?? '',
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
        MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
        MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '1',
        ...env,
      },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function search(client: Client, query: string): Promise<string> {
  const result = await client.callTool({ name: 'WebSearch', arguments: { query } });
  return (result.content as { text: string }[]).map((block) => block.text).join('\n');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a quiet gap starts a fresh run with a fresh budget', () => {
  it('--run-idle-seconds: a burst shares one budget, the call after the gap gets a new one and says so', async () => {
    const client = await connect(['--run-idle-seconds', '1']);
    try {
      const first = await search(client, 'fixture result');
      expect(first).toMatch(/^WebSearch status: results .*requests: 1 used, 0 left/);
      expect(first).not.toContain('run: fresh');
      const spent = await search(client, 'fixture result again');
      expect(spent).toMatch(/error: search_budget_exhausted/);
      await pause(1_300);
      const fresh = await search(client, 'fixture result later');
      expect(fresh).toMatch(/^WebSearch status: results .*requests: 1 used, 0 left/);
      expect(fresh).toContain('| run: fresh run began after 1 s idle, budget reset');
      const next = await search(client, 'fixture result once more');
      expect(next).not.toContain('run: fresh');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('tools.web.mcp.runIdleSeconds through its environment variable', async () => {
    const client = await connect([], { MONO_AGENT_WEB_MCP_RUN_IDLE_SECONDS: '1' });
    try {
      await search(client, 'fixture result');
      await pause(1_300);
      expect(await search(client, 'fixture result later')).toContain('run: fresh run began after 1 s idle');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('the default gap is 300 seconds: calls a moment apart stay in one run', async () => {
    const client = await connect([]);
    try {
      await search(client, 'fixture result');
      await pause(1_300);
      expect(await search(client, 'fixture result later')).toMatch(/error: search_budget_exhausted/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses an idle gap outside 1 through 86400 seconds, and the flag on other commands', async () => {
    for (const value of ['0', '86401', 'soon']) {
      const errors: string[] = [];
      const code = await runCli(['mcp', '--run-idle-seconds', value], {
        stdout: () => undefined,
        stderr: (text) => errors.push(text),
        env: {},
      });
      expect(code).toBe(2);
      expect(errors.join('')).toContain('--run-idle-seconds');
    }
    const errors: string[] = [];
    expect(
      await runCli(['search', 'x', '--run-idle-seconds', '5'], {
        stdout: () => undefined,
        stderr: (text) => errors.push(text),
        env: {},
      }),
    ).toBe(2);
    expect(errors.join('')).toMatch(/--run-idle-seconds is not an option of \w+ \(it belongs to mcp\)/);
  });
});
