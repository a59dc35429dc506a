// The install test of the README examples: each MCP client configuration, each module block and
// the agent SDK examples, run in the project the global setup installed from the tarballs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  blockImporting,
  blocks,
  itPrintsNoBuildFolder,
  loopbackEnvironment,
  moduleBlocks,
  project,
  runTypeScript,
  useFixtureWeb,
  web,
  writeBlock,
} from './installed-project.js';
import { mcpLaunch } from './readme-blocks.js';

useFixtureWeb();

describe('each MCP client configuration of the README', () => {
  const configs = blocks.filter((block) => block.kind === 'mcp-config');

  it.each(configs.map((block) => [`${block.file}:${block.line} (${block.language})`, block] as const))(
    '%s starts a server the MCP SDK client can use',
    async (_name, block) => {
      const launch = mcpLaunch(block);
      const transport = new StdioClientTransport({
        command: launch.command,
        args: launch.args,
        cwd: project,
        env: { ...loopbackEnvironment(), ...launch.env },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'install-check', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['WebSearch', 'WebFetch']);
        for (const tool of tools)
          expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
        const result = (await client.callTool({
          name: 'WebFetch',
          arguments: { url: web.url('/pages/news-article') },
        })) as CallToolResult;
        expect(result.isError).toBe(false);
        expect(JSON.stringify(result.content)).toContain('WebFetch status: ok | kind: html');
      } finally {
        await client.close();
      }
    },
  );
});

describe('the README modules, run in the installed project with loopback-only network', () => {
  it.each(moduleBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))(
    '%s runs',
    async (_name, block) => {
      const result = await runTypeScript(writeBlock(block));
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      // Logging is the examples' business (the web example prints timing events); a crash is not.
      expect(result.stderr).not.toMatch(/^\s+at |\bError:|Warning:/m);
    },
  );

  it("the AI SDK example calls WebFetch through generateText with the SDK's mock model", async () => {
    const example = blockImporting('ai');
    expect(example).toBeDefined();
    const driver = join(project, 'drive-ai-sdk.mts');
    writeFileSync(
      driver,
      `import { MockLanguageModelV3 } from 'ai/test';
import { research } from ${JSON.stringify(writeBlock(example!))};
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const model = new MockLanguageModelV3({ doGenerate: [
  { content: [{ type: 'tool-call', toolCallId: 'call-fetch', toolName: 'WebFetch', input: JSON.stringify({ url: process.argv[2] }) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'The council approved the pilot.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] },
] });
const text = await research(model, 'What did the council decide?');
console.log(JSON.stringify({ text, secondPrompt: model.doGenerateCalls[1]?.prompt }));
`,
    );
    const result = await runTypeScript(driver, [web.url('/pages/news-article')]);
    expect(result.code, result.stderr).toBe(0);
    const { text, secondPrompt } = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(text).toBe('The council approved the pilot.');
    expect(JSON.stringify(secondPrompt)).toContain('WebFetch status: ok | kind: html');
    expect(JSON.stringify(secondPrompt)).toContain('night bus pilot');
  });

  it("the Pi example calls WebFetch in a Pi agent with pi-ai's faux provider", async () => {
    const example = blockImporting('@mariozechner/pi-agent-core');
    expect(example).toBeDefined();
    const driver = join(project, 'drive-pi.mts');
    writeFileSync(
      driver,
      `import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from '@mariozechner/pi-ai';
import { research } from ${JSON.stringify(writeBlock(example!))};
const faux = registerFauxProvider();
faux.setResponses([
  fauxAssistantMessage(fauxToolCall('WebFetch', { url: process.argv[2] }, { id: 'call-fetch' }), { stopReason: 'toolUse' }),
  fauxAssistantMessage(fauxText('The council approved the pilot.')),
]);
const agent = await research(faux.getModel(), 'What did the council decide?');
const results = agent.state.messages.filter((message) => message.role === 'toolResult');
console.log(JSON.stringify({ error: agent.state.errorMessage ?? null, results }));
faux.unregister();
`,
    );
    const result = await runTypeScript(driver, [web.url('/pages/news-article')]);
    expect(result.code, result.stderr).toBe(0);
    const { error, results } = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(error).toBeNull();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolName: 'WebFetch', isError: false });
    expect(JSON.stringify(results[0].content)).toContain('WebFetch status: ok | kind: html');
  });
});

describe('the README example serving MCP over Streamable HTTP', () => {
  // "Serve MCP from your own process": one process, many requests from Streamable HTTP clients, each
  // POST answered by its own server and transport; two clients, calls in sequence and at once.
  it('answers many calls from two clients, in turn and concurrently, then closes', async () => {
    const example = blockImporting('@modelcontextprotocol/sdk/server/streamableHttp.js');
    expect(example, 'the README shows a Streamable HTTP server').toBeDefined();
    const driver = join(project, 'drive-streamable-http.mts');
    writeFileSync(
      driver,
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveWebOverHttp } from ${JSON.stringify(writeBlock(example!))};
const served = await serveWebOverHttp(0);
const connect = async (name) => {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  return client;
};
const text = (result) => ({ isError: result.isError === true, text: result.content.map((part) => part.text ?? '').join('') });
const [first, second] = [await connect('first'), await connect('second')];
const calls = [];
calls.push({ tools: (await first.listTools()).tools.map((tool) => tool.name) });
for (const page of ['/pages/news-article', '/pages/news-article', '/echo']) {
  calls.push(text(await first.callTool({ name: 'WebFetch', arguments: { url: process.argv[2] + page } })));
}
calls.push(text(await second.callTool({ name: 'WebSearch', arguments: { query: 'fixture result', limit: 2 } })));
const together = await Promise.all([
  first.callTool({ name: 'WebFetch', arguments: { url: process.argv[2] + '/pages/news-article' } }),
  second.callTool({ name: 'WebFetch', arguments: { url: process.argv[2] + '/pages/news-article', start_line: 1, max_lines: 5 } }),
  second.callTool({ name: 'WebSearch', arguments: { query: 'fixture result' } }),
]);
calls.push(...together.map(text));
calls.push({ tools: (await second.listTools()).tools.map((tool) => tool.name) });
await first.close();
await second.close();
await served.close();
console.log(JSON.stringify(calls));
`,
    );
    const result = await runTypeScript(driver, [web.baseUrl]);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const calls = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as (
      | { tools: string[] }
      | { isError: boolean; text: string }
    )[];
    expect(calls).toHaveLength(9);
    expect(calls[0]).toEqual({ tools: ['WebSearch', 'WebFetch'] });
    expect(calls[8]).toEqual({ tools: ['WebSearch', 'WebFetch'] });
    const answers = calls.slice(1, 8) as { isError: boolean; text: string }[];
    for (const answer of answers) expect(answer.isError, answer.text).toBe(false);
    for (const index of [0, 1, 4, 5])
      expect(answers[index]!.text).toContain('WebFetch status: ok | kind: html');
    expect(answers[3]!.text).toContain('fixture result');
    expect(answers[6]!.text).toContain('fixture result');
    expect(answers[5]!.text).toMatch(/\| lines: 1-5 of \d+ \|/);
    // One run serves the requests: the second fetch of the page is a hit of that run's cache.
    expect(answers[1]!.text).toContain('| cached: yes |');
  });
});

describe('no output names the folder the packages were built in', () => {
  itPrintsNoBuildFolder(2);
});
