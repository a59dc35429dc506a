// The install test: every publishable package packed as `npm publish` would, installed from the
// tarballs into a fresh npm project outside the workspace, then used the way its users use it.
// Needs the built packages (`pnpm build`) and the npm registry (for the third-party dependencies).
import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { startRedisServer } from '@mono-agent/test-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PackedPackage,
  packPublishable,
  publishableDirectories,
  tarballFiles,
} from './pack-publishable.js';
import {
  allReadmeBlocks,
  installedPackages,
  mcpLaunch,
  type ReadmeBlock,
  repositoryRoot,
} from './readme-blocks.js';

/** The SDK versions the adapters are built for, installed beside the tarballs as a user would. */
const AGENT_SDKS = ['ai@^6.0.0', '@mariozechner/pi-agent-core@^0.73.0', '@mariozechner/pi-ai@^0.73.0'];
/** The Redis client, an optional peer that the web README's Redis section installs for redis mode. */
const REDIS_CLIENT = '@redis/client@^6.3.1';
/** What the strict TypeScript consumer installs besides the tarballs: the AI SDK only. */
// `@types/json-schema` is what `ai`'s own declarations need under `skipLibCheck: false`.
const TYPESCRIPT_CONSUMER_PACKAGES = [
  'ai@^6.0.0',
  'typescript@~5.9.3',
  '@types/node@^20.19.8',
  '@types/json-schema@^7.0.15',
];

const tsxLoader = pathToFileURL(createRequire(join(repositoryRoot, 'package.json')).resolve('tsx/esm')).href;
const loopbackOnly = fileURLToPath(new URL('./loopback-only.mjs', import.meta.url));
const SEARX_RESULTS = readFileSync(
  join(
    repositoryRoot,
    'packages/search-providers/src/__fixtures__/searx/searx-1.1.0_results-local-engines.json',
  ),
  'utf8',
);
const blocks = allReadmeBlocks();

let scratch: string;
let project: string;
let consumer: string;
let adaptersOnly: string;
let packed: PackedPackage[];
let web: FixtureWeb;

/** `npm install` of `specs` in `directory`, as a user runs it (install scripts of third-party SDKs skipped). */
function npmInstall(directory: string, specs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs],
      { cwd: directory, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`npm install failed in ${directory}:\n${stderr}`)) : resolve(),
    );
  });
}

function freshProject(name: string): string {
  const directory = join(scratch, name);
  mkdirSync(directory);
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`,
  );
  return directory;
}

/** The environment of everything run in the project: the fixture web is the only reachable site. */
function loopbackEnvironment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: join(scratch, 'home'),
    npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? scratch, '.npm'),
    MONO_AGENT_NETWORK_MODE: 'allowlist',
    MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
    MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
    MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
  };
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; onlyEnv?: boolean } = {},
) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd ?? project,
        env: options.onlyEnv ? (options.env ?? {}) : { ...loopbackEnvironment(), ...options.env },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        outputs.push({ command: [command, ...args].join(' '), text: `${stdout}${stderr}` });
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Everything the installed project printed, checked at the end for the build folder. */
const outputs: { command: string; text: string }[] = [];
/** The checkout the packages were built in, which no installed file or output may name. */
const buildFolder = repositoryRoot.replace(/\/$/, '');

/** Writes a README module block into the project, named after where it comes from. */
function writeBlock(block: ReadmeBlock, directory = project): string {
  const file = join(directory, 'readme', `${block.file.replace(/[/.]/g, '-')}-${block.line}.mts`);
  mkdirSync(join(directory, 'readme'), { recursive: true });
  writeFileSync(file, `${block.code}\n`);
  return file;
}

/** Runs a TypeScript file in the project (resolving its imports from the project's node_modules). */
function runTypeScript(file: string, args: string[] = []) {
  return run(process.execPath, ['--import', tsxLoader, '--import', loopbackOnly, file, ...args]);
}

const moduleBlocks = blocks.filter((block) => block.kind === 'module');
const blockImporting = (specifier: string) =>
  moduleBlocks.find(
    (block) => block.code.includes(`from '${specifier}'`) && block.file.includes('mono-agent-web'),
  );

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mono-agent-install-'));
  mkdirSync(join(scratch, 'home'));
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  packed = packPublishable(tarballs);
  project = freshProject('install-check-project');
  consumer = freshProject('strict-typescript-consumer');
  adaptersOnly = freshProject('tool-adapters-only');
  const specs = packed.map((entry) => entry.tarball);
  const tarballOf = (name: string) => packed.find((entry) => entry.name === name)!.tarball;
  await Promise.all([
    npmInstall(project, [...specs, ...AGENT_SDKS, REDIS_CLIENT]),
    npmInstall(consumer, [...specs, ...TYPESCRIPT_CONSUMER_PACKAGES]),
    // A host serving its own tools over MCP: the adapters, the one sibling they depend on, the SDK.
    npmInstall(adaptersOnly, [
      tarballOf('@mono-agent/tool-adapters'),
      tarballOf('@mono-agent/budget-policy'),
      '@modelcontextprotocol/sdk@^1.32.0',
    ]),
  ]);
  web = await startFixtureWeb();
  web.scenario('/search', { headers: { 'content-type': 'application/json' }, body: SEARX_RESULTS });
});

afterAll(async () => {
  await web?.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('are every publishable package and no private one', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual(
      publishableDirectories()
        .map((entry) => entry.name)
        .sort(),
    );
    for (const entry of packed)
      expect(entry.name).not.toMatch(
        /demo|fixture-web|bench|tsconfig|tsup-config|vitest-config|checks|install-check/,
      );
  });

  it('carry their docs and no tests; the web package carries CONFIG.md, which its README links', () => {
    for (const entry of packed) {
      const files = tarballFiles(entry.tarball);
      expect(files, entry.name).toContain('README.md');
      expect(
        files.filter((file) => /\.test\.ts$|__fixtures__/.test(file)),
        entry.name,
      ).toEqual([]);
    }
    const web = packed.find((entry) => entry.name === '@mono-agent/web')!;
    expect(tarballFiles(web.tarball)).toEqual(
      expect.arrayContaining([
        'CONFIG.md',
        'dist/bin/cli.cjs',
        'dist/bin/cli-main.cjs',
        'dist/bin/cli-main.cjs.cache',
      ]),
    );
  });

  it('are what the README install commands name, all installed', () => {
    const names = new Set(packed.map((entry) => entry.name));
    for (const block of blocks.filter((entry) => entry.kind === 'install')) {
      for (const spec of installedPackages(block)) {
        const name = spec.replace(/(?<=.)@[^/]*$/, '');
        const installed = JSON.parse(
          readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'),
        );
        expect(installed.name, `${block.file}:${block.line}`).toBe(name);
        if (name.startsWith('@mono-agent/')) expect(names).toContain(name);
      }
    }
  });
});

describe('the mono-agent-web bin', () => {
  const bin = () => join(project, 'node_modules/.bin/mono-agent-web');

  it('fetches a page as the model reads it', async () => {
    const result = await run(bin(), ['fetch', web.url('/pages/news-article')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^WebFetch status: ok \| kind: html/);
    expect(result.stdout).toContain('[BEGIN UNTRUSTED WEB CONTENT]');
  });

  it('searches the configured SearXNG', async () => {
    const result = await run(bin(), ['search', 'fixture result', '--limit', '2', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'results', backend: 'searxng' });
  });

  it('prints every command the README usage block shows', async () => {
    const help = await run(bin(), ['--help']);
    expect(help.code).toBe(0);
    const usage = blocks.filter((block) => block.kind === 'usage');
    expect(usage.length).toBeGreaterThan(0);
    for (const block of usage) {
      for (const [command] of block.code.matchAll(/^mono-agent-web [a-z-]+/gm))
        expect(help.stdout).toContain(command);
    }
  });

  it('searches through the Redis store and runs the Redis example of the configuration guide', async () => {
    const block = blocks.find(
      (entry) => entry.kind === 'usage' && entry.code.includes('MONO_AGENT_WEB_REDIS_URL='),
    );
    expect(block, 'CONFIG.md shows web-control on Redis').toBeDefined();
    const words = block!.code.trim().split(/\s+/);
    const assignments = words.filter((word) => /^[A-Z_]+=/.test(word));
    const command = words.slice(assignments.length);
    expect(command[0]).toBe('mono-agent-web');
    const redis = await startRedisServer();
    try {
      const env = Object.fromEntries(
        assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
      );
      // The example names the default port; this server listens on a free one.
      env['MONO_AGENT_WEB_REDIS_URL'] = env['MONO_AGENT_WEB_REDIS_URL']!.replace(/:\d+$/, `:${redis.port}`);
      const search = await run(bin(), ['search', 'fixture result', '--json'], { env });
      expect(search.code, search.stdout + search.stderr).toBe(0);
      expect(JSON.parse(search.stdout)).toMatchObject({ status: 'results' });
      const status = await run(bin(), command.slice(1), { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'redis', server: redis.url, bucketCount: 1 });
    } finally {
      await redis.dispose();
    }
  });

  it('accepts the configuration examples of the docs', async () => {
    for (const block of blocks.filter((entry) => entry.kind === 'config')) {
      const file = join(scratch, `config-${block.line}.json`);
      writeFileSync(file, block.code);
      // The file alone decides, as for its reader: none of this test's MONO_AGENT_* variables.
      const result = await run(bin(), ['validate', '--no-liveness', '--json', '--config', file], {
        env: { PATH: process.env.PATH ?? '', HOME: join(scratch, 'home') },
        onlyEnv: true,
      });
      const where = `${block.file}:${block.line}: ${result.stdout}${result.stderr}`;
      // Valid for its reader: the only failures allowed are programs the example names that this
      // machine lacks (a renderer at a path of the example's own), which validate checks locally.
      const report = JSON.parse(result.stdout) as {
        checks: { name: string; status: string; detail: string }[];
      };
      const failed = report.checks.filter((check) => check.status === 'fail');
      for (const check of failed) {
        expect(['fetch.browser', 'search.codex'], where).toContain(check.name);
        expect(check.detail, where).toMatch(/is not (on the PATH|an executable file)/);
      }
      if (failed.length === 0) expect(result.code, where).toBe(0);
    }
  });
});

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

describe('a strict TypeScript project with only the AI SDK installed', () => {
  // tsc over every declaration file of the SDKs takes a while on a busy machine.
  it('type-checks the AI SDK example and the package types (skipLibCheck off)', {
    timeout: 600_000,
  }, async () => {
    const example = blockImporting('ai');
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: ['node'],
          // Not exactOptionalPropertyTypes: the AI SDK's own declarations do not compile with it.
          noUncheckedIndexedAccess: true,
        },
        include: ['*.ts', 'readme/*.mts'],
      }),
    );
    writeBlock(example!, consumer);
    // The Streamable HTTP example too: the MCP SDK comes with the package.
    writeBlock(blockImporting('@modelcontextprotocol/sdk/server/streamableHttp.js')!, consumer);
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { createAiSdkTools, createMcpServer, createWebRuntime, type WebRun } from '@mono-agent/web';
const runtime = await createWebRuntime({ config: { network: { mode: 'none' } } });
const run: WebRun = runtime.startRun();
const tools = await createAiSdkTools(run);
const result = await run.webFetch({ url: 'https://example.com/' });
const text: string = result.text;
const server = await createMcpServer(run);
console.log(Object.keys(tools), text.length, typeof server.connect);
await run.close();
await runtime.close();
`,
    );
    const tsc = join(consumer, 'node_modules/.bin/tsc');
    const result = await run(tsc, ['-p', consumer], { cwd: consumer });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Pi is not installed here, which is the case the published types must survive. (Checked on disk:
    // a script run by pnpm has NODE_PATH pointing into the workspace, so resolving would find it.)
    expect(existsSync(join(consumer, 'node_modules/@mariozechner/pi-agent-core'))).toBe(false);
  });
});

describe('importing @mono-agent/web in the installed project', () => {
  it('loads no DOM, PDF, browser, Codex or agent SDK module', async () => {
    const probe = join(project, 'import-probe.mjs');
    writeFileSync(probe, "await import('@mono-agent/web');\n");
    const hooks = fileURLToPath(new URL('./record-loaded-modules.mjs', import.meta.url));
    const result = await run(process.execPath, ['--import', hooks, probe]);
    expect(result.code, result.stderr).toBe(0);
    const loaded = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as string[];
    expect(loaded.some((url) => url.includes('/node_modules/@mono-agent/web/'))).toBe(true);
    const heavy = loaded.filter((url) => HEAVY_MODULE.test(url));
    expect(heavy).toEqual([]);
  });

  it('loads one DOM, linkedom, once an HTML page is fetched (the same probe sees what a call loads)', async () => {
    const probe = join(project, 'fetch-probe.mjs');
    writeFileSync(
      probe,
      `import { createWebRuntime } from '@mono-agent/web';
const runtime = await createWebRuntime();
const run = runtime.startRun();
const result = await run.webFetch({ url: process.argv[2] });
if (result.isError) throw new Error(result.text);
await run.close();
await runtime.close();
`,
    );
    const hooks = fileURLToPath(new URL('./record-loaded-modules.mjs', import.meta.url));
    const result = await run(process.execPath, ['--import', hooks, probe, web.url('/pages/news-article')]);
    expect(result.code, result.stderr).toBe(0);
    const loaded = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as string[];
    expect(loaded.some((url) => url.includes('/node_modules/linkedom/'))).toBe(true);
    expect(loaded.some((url) => url.includes('/node_modules/turndown/'))).toBe(true);
    expect(
      loaded.filter((url) => /\/node_modules\/(@mixmark-io\/domino|jsdom|happy-dom)\//.test(url)),
    ).toEqual([]);
  });
});

describe('the installed bin', () => {
  const hooks = fileURLToPath(new URL('./record-loaded-modules.mjs', import.meta.url));
  const binPath = () => {
    const packageDirectory = join(project, 'node_modules/@mono-agent/web');
    const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    return join(packageDirectory, manifest.bin['mono-agent-web'] as string);
  };
  const loadedBy = async (args: string[], env: Record<string, string> = {}) => {
    const result = await run(process.execPath, ['--import', hooks, binPath(), ...args], { env });
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as string[];
  };

  it('answers --help and --version from its CommonJS entry alone, before any ES module of the package', async () => {
    for (const args of [['--help'], ['--version'], ['help', 'fetch'], ['search', '--help']]) {
      const ours = (await loadedBy(args)).filter((url) => url.includes('/node_modules/@mono-agent/'));
      // The entry is listed twice, as the main module's URL and as a required file; the manifest is
      // read for the version, which a command's help does not show.
      const versioned = args[0] === '--help' || args[0] === '--version';
      expect([...new Set(ours.map((url) => url.slice(url.indexOf('/node_modules/'))))]).toEqual([
        '/node_modules/@mono-agent/web/dist/bin/cli.cjs',
        ...(versioned ? ['/node_modules/@mono-agent/web/package.json'] : []),
      ]);
    }
  });

  it('runs a search the policy refuses without loading the extraction stack', async () => {
    const loaded = await loadedBy(['search', 'connection pool'], { MONO_AGENT_NETWORK_MODE: 'none' });
    expect(loaded.some((url) => url.includes('/node_modules/@mono-agent/web/dist/bin/cli-main.cjs'))).toBe(
      true,
    );
    expect(loaded.filter((url) => /\/node_modules\/(@mono-agent\/extract|undici)\//.test(url))).toEqual([]);
    expect(loaded.filter((url) => HEAVY_MODULE.test(url))).toEqual([]);
  });
});

describe('the installed bin as an operator meets it', () => {
  const bin = () => join(project, 'node_modules/.bin/mono-agent-web');

  it("prints each command's own help, with its options and an example", async () => {
    for (const command of ['search', 'fetch', 'extract', 'mcp', 'validate', 'web-control']) {
      for (const args of [
        ['help', command],
        [command, '--help'],
      ]) {
        const result = await run(bin(), args);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^Usage: mono-agent-web ${command}\\b`));
        expect(result.stdout).toMatch(/\nExample:\n {2}.*mono-agent-web /);
      }
    }
  });

  it('refuses an unknown option, an unreadable file and a bad URL with exit 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['fetch', web.url('/pages/news-article'), '--max-line', '5'],
        /unknown option '--max-line' for fetch \(did you mean --max-lines\?\)/,
      ],
      [
        ['extract', scratch, '--url', 'https://example.com/'],
        /cannot read the input file .*: it is a directory, not a file/,
      ],
      [['extract', join(scratch, 'absent.html'), '--url', 'https://example.com/'], /: it does not exist/],
      [['search', 'q', '--limit', 'many'], /--limit must be a whole number, got 'many'/],
    ];
    for (const [args, message] of cases) {
      const result = await run(bin(), args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
    const badUrl = await run(bin(), ['fetch', 'example.com/page']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toBe(
      'mono-agent-web: fetch: <url>: must be an absolute URL (got "example.com/page")\n',
    );
  });
});

describe('@mono-agent/tool-adapters installed without @mono-agent/web', () => {
  it('brings no DOM, PDF, HTTP or Redis stack and no other sibling', () => {
    const installed = execFileSync('npm', ['ls', '--all', '--parseable'], {
      cwd: adaptersOnly,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line.includes('/node_modules/'))
      .map((line) => line.slice(line.lastIndexOf('/node_modules/') + '/node_modules/'.length));
    expect(installed).toEqual(
      expect.arrayContaining(['@mono-agent/tool-adapters', '@mono-agent/budget-policy', 'valibot']),
    );
    expect(installed.filter((name) => name.startsWith('@mono-agent/')).sort()).toEqual([
      '@mono-agent/budget-policy',
      '@mono-agent/tool-adapters',
    ]);
    expect(
      installed.filter((name) =>
        /^(linkedom|@mixmark-io\/domino|turndown|defuddle|@mozilla\/readability|unpdf|htmlparser2|undici|@redis\/client)$/.test(
          name,
        ),
      ),
    ).toEqual([]);
  });

  it('serves a WebTools of its own over MCP', async () => {
    const driver = join(adaptersOnly, 'serve-own-tools.mjs');
    writeFileSync(
      driver,
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '@mono-agent/tool-adapters';
const tools = {
  webSearch: async (args) => ({ text: 'searched ' + args.query, isError: false }),
  webFetch: async (args) => ({ text: 'fetched ' + args.url, isError: false }),
};
const server = await createMcpServer(tools);
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'adapters-only', version: '1.0.0' });
await client.connect(clientSide);
const names = (await client.listTools()).tools.map((tool) => tool.name);
const fetched = await client.callTool({ name: 'WebFetch', arguments: { url: 'https://example.com/' } });
console.log(JSON.stringify({ names, text: fetched.content.map((part) => part.text).join('') }));
await client.close();
`,
    );
    const result = await run(process.execPath, [driver], { cwd: adaptersOnly });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toEqual({
      names: ['WebSearch', 'WebFetch'],
      text: 'fetched https://example.com/',
    });
  });
});

describe('redis mode where @redis/client is not installed', () => {
  it('refuses with configuration_error and exit 2, naming the package and how to install it', async () => {
    // The strict TypeScript project installed the tarballs without the optional Redis client.
    expect(existsSync(join(consumer, 'node_modules/@redis/client'))).toBe(false);
    const result = await run(join(consumer, 'node_modules/.bin/mono-agent-web'), ['web-control', 'status'], {
      cwd: consumer,
      env: { MONO_AGENT_WEB_COORDINATION: 'redis', MONO_AGENT_WEB_REDIS_URL: 'redis://127.0.0.1:6379' },
    });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toContain('configuration_error');
    expect(result.stderr).toContain('npm install @redis/client@^6.3.1');
  });
});

describe('no installed file and no output names the folder the packages were built in', () => {
  it("no file of any tarball holds the build folder (the bin's code cache included)", () => {
    const unpacked = join(scratch, 'unpacked');
    for (const entry of packed) {
      const into = join(unpacked, entry.name.replace('/', '+'));
      mkdirSync(into, { recursive: true });
      execFileSync('tar', ['-xzf', entry.tarball, '-C', into]);
      const holding = filesUnder(into).filter((file) => readFileSync(file).includes(buildFolder));
      expect(
        holding.map((file) => file.slice(into.length + 1)),
        entry.name,
      ).toEqual([]);
    }
  });

  it('nothing the installed packages printed in this suite names it', () => {
    expect(outputs.length).toBeGreaterThan(10);
    expect(
      outputs.filter((output) => output.text.includes(buildFolder)).map((output) => output.command),
    ).toEqual([]);
  });
});

/** Every file under `directory`, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** Modules that must wait for a call that needs them: DOM, PDF, browser, Codex and the agent SDKs. */
const HEAVY_MODULE =
  /\/node_modules\/(linkedom|@mixmark-io\/domino|htmlparser2|defuddle|@mozilla\/readability|turndown|unpdf|pdfjs-dist|@mono-agent\/codex-app-server-client|agent-browser|playwright|puppeteer|@modelcontextprotocol\/sdk|ai|@mariozechner\/[^/]+)\//;
