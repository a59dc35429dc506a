import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
// Brings in the typing of the searx URL the shared global setup provides.
import type {} from '@mono-agent/test-services/searx-global-setup';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// `mono-agent-web mcp` as a real child process, driven by the MCP SDK's own client: WebFetch reads a
// fixture-web page and WebSearch asks the real searx server started for this test run.
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

let web: FixtureWeb;
let client: Client;
beforeAll(async () => {
  web = await startFixtureWeb();
  const searx = new URL(inject('searxUrl'));
  client = new Client({ name: 'mcp-end-to-end-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: tsx,
      args: ['--conditions=@mono-agent/source', cli, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port},127.0.0.1:${searx.port}`,
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: searx.origin,
        MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
      },
      stderr: 'pipe',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await web?.close();
});

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');

describe('mono-agent-web mcp', () => {
  it('lists both tools with their JSON Schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['WebFetch', 'WebSearch']);
    const search = tools.find((tool) => tool.name === 'WebSearch')!;
    expect(search.inputSchema).toMatchObject({ required: ['query'], properties: { limit: { maximum: 10 } } });
    expect(search.description).toMatch(/one broad query/i);
  });

  it('fetches a fixture page as framed, bounded text', async () => {
    const result = await client.callTool({
      name: 'WebFetch',
      arguments: { url: web.url('/pages/blog-post'), max_lines: 10 },
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^WebFetch status: ok \| kind: html/);
    expect(text).toContain('[BEGIN UNTRUSTED WEB CONTENT]');
    expect(text).toContain('Retrying HTTP requests');
  });

  it('searches the real searx and returns framed results', async () => {
    const result = await client.callTool({
      name: 'WebSearch',
      arguments: { query: 'fixture result', limit: 3 },
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^WebSearch status: results \| backend: searxng/);
    expect(text).toContain('[BEGIN UNTRUSTED WEB SEARCH RESULTS]');
    expect(text).toContain('https://example.com/');
  });

  it('answers invalid arguments as a tool error', async () => {
    const result = await client.callTool({ name: 'WebSearch', arguments: { query: '', limit: 50 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('validation_error');
  });
});
