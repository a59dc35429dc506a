import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEchoWebTools,
  FAILING_HOST,
  HANGING_PATH,
  SERVER_CLOSED_MARKER,
} from '../../test/adapters/echo-web-tools.js';
import {
  MAX_ALTERNATE_QUERIES,
  MAX_FETCH_LINES,
  MAX_FETCH_OUTPUT_CHARS,
  MAX_QUERY_CHARS,
  SEARCH_LIMIT_RANGE,
  WEB_FETCH_DESCRIPTION,
  WEB_SEARCH_DESCRIPTION,
} from '../tool-definitions.js';
import { webFetchJsonSchema, webSearchJsonSchema } from '../tool-json-schemas.js';
import {
  SEARCH_RESULTS_BEGIN,
  SEARCH_RESULTS_END,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from '../untrusted-frame.js';
import { createMcpServer, DEFAULT_MCP_SERVER_NAME } from './mcp-server.js';

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const serverScript = fileURLToPath(new URL('../../test/adapters/serve-echo-mcp.ts', import.meta.url));

function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  if (block?.type !== 'text')
    throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`);
  return block.text;
}

describe('serveMcpOverStdio, driven by the SDK client over a real child process', () => {
  const transport = new StdioClientTransport({
    command: tsx,
    args: ['--conditions=@mono-agent/source', serverScript],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'adapter-test', version: '1.0.0' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });

  beforeAll(async () => {
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });

  it('introduces itself with the name and version it was given', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'echo-web', version: '1.2.3' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists WebSearch and WebFetch with their descriptions and JSON Schemas, bounds included', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['WebSearch', 'WebFetch']);
    const [search, fetch] = tools;
    expect(search?.description).toBe(WEB_SEARCH_DESCRIPTION);
    expect(fetch?.description).toBe(WEB_FETCH_DESCRIPTION);
    expect(search?.inputSchema).toEqual(webSearchJsonSchema());
    expect(fetch?.inputSchema).toEqual(webFetchJsonSchema());
    expect(search?.inputSchema).toMatchObject({
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: { maxLength: MAX_QUERY_CHARS },
        alternate_queries: { maxItems: MAX_ALTERNATE_QUERIES },
        limit: { minimum: SEARCH_LIMIT_RANGE.min, maximum: SEARCH_LIMIT_RANGE.max },
      },
    });
    expect(fetch?.inputSchema).toMatchObject({
      required: ['url'],
      additionalProperties: false,
      properties: {
        max_lines: { maximum: MAX_FETCH_LINES },
        max_output_chars: { maximum: MAX_FETCH_OUTPUT_CHARS },
      },
    });
    expect(search?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it('answers WebFetch with the framed text of the implementation', async () => {
    const result = (await client.callTool({
      name: 'WebFetch',
      arguments: { url: 'https://docs.example/guide', format: 'text' },
    })) as CallToolResult;
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text.split('\n')[0]).toMatch(/^WebFetch status: ok \| kind: text \| format: text/);
    expect(text).toContain(
      `${WEB_CONTENT_BEGIN}\nURL: https://docs.example/guide\nTitle: Echo docs.example\n\nEcho of https://docs.example/guide\nformat: text\n${WEB_CONTENT_END}`,
    );
  });

  it('answers WebSearch with the framed results of the implementation', async () => {
    const result = (await client.callTool({
      name: 'WebSearch',
      arguments: { query: 'undici pool', limit: 1 },
    })) as CallToolResult;
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text.split('\n')[0]).toContain('WebSearch status: results | backend: searxng | results: 1');
    expect(text).toContain(`${SEARCH_RESULTS_BEGIN}\nQuery: undici pool\n\n1. Result 1 for undici pool`);
    expect(text).toContain(SEARCH_RESULTS_END);
    expect(text).not.toContain('Result 2');
  });

  it('answers invalid arguments with isError and the field-by-field message', async () => {
    const result = (await client.callTool({
      name: 'WebFetch',
      arguments: { url: 'ftp://files.example/', max_lines: MAX_FETCH_LINES + 1 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^invalid arguments: /);
    expect(text).toContain('url: must be an http:// or https:// URL');
    expect(text).toContain('max_lines:');

    // No arguments at all: the implementation still names the missing field.
    const missing = (await client.callTool({ name: 'WebSearch' })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^invalid arguments: query: /);
  });

  it('passes a failed fetch through as isError with its one-line category', async () => {
    const result = (await client.callTool({
      name: 'WebFetch',
      arguments: { url: `https://${FAILING_HOST}/page` },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('WebFetch status: error | error: http_status | http status: 404');
  });

  it('rejects an unknown tool as a protocol error', async () => {
    await expect(client.callTool({ name: 'WebBrowse', arguments: {} })).rejects.toThrow(
      /WebBrowse not found/,
    );
  });

  it('resolves serveMcpOverStdio once the client closes stdin', async () => {
    await client.close();
    expect(stderr).toContain(SERVER_CLOSED_MARKER);
  });
});

describe('createMcpServer over the in-memory transport', () => {
  it('uses the default identity and aborts the call signal when the client cancels', async () => {
    const tools = createEchoWebTools();
    const server = await createMcpServer(tools);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'adapter-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      expect(client.getServerVersion()?.name).toBe(DEFAULT_MCP_SERVER_NAME);
      const controller = new AbortController();
      const pending = client.callTool(
        { name: 'WebFetch', arguments: { url: `https://slow.example${HANGING_PATH}` } },
        undefined,
        { signal: controller.signal },
      );
      await expect.poll(() => tools.calls.length).toBe(1);
      const signal = tools.calls[0]?.signal;
      expect(signal?.aborted).toBe(false);
      controller.abort(new Error('user pressed stop'));
      await expect(pending).rejects.toThrow();
      await expect.poll(() => signal?.aborted).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('progress of a long call', () => {
  it('is reported while the call runs when the client sends a progress token, and not otherwise', async () => {
    const tools = createEchoWebTools();
    const server = await createMcpServer(tools, { progressIntervalMs: 20 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sent: string[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => {
      if ('method' in message) sent.push(message.method);
      return send(message, options);
    };
    const client = new Client({ name: 'adapter-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const url = `https://slow.example${HANGING_PATH}`;
      const progress: { progress: number; message?: string }[] = [];
      const asked = new AbortController();
      const withToken = client.callTool({ name: 'WebFetch', arguments: { url } }, undefined, {
        signal: asked.signal,
        onprogress: (update) => progress.push(update),
      });
      await expect.poll(() => progress.length).toBeGreaterThanOrEqual(2);
      asked.abort(new Error('enough'));
      await expect(withToken).rejects.toThrow();
      expect(progress[0]?.message).toMatch(/^WebFetch still running after \d+ s$/);
      expect(progress[1]!.progress).toBeGreaterThan(progress[0]!.progress);

      // The same slow call without a token: the server sends no progress at all.
      sent.length = 0;
      const silent = new AbortController();
      const withoutToken = client.callTool({ name: 'WebFetch', arguments: { url } }, undefined, {
        signal: silent.signal,
      });
      await expect.poll(() => tools.calls.length).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      silent.abort(new Error('enough'));
      await expect(withoutToken).rejects.toThrow();
      expect(sent).not.toContain('notifications/progress');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
