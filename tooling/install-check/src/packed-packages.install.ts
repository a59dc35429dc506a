// The install test of the packages themselves: the tarballs `npm publish` would upload, and the
// projects that install only some of them. The global setup packs and installs (see
// install-global-setup.ts); a build (`pnpm build`) and the npm registry are needed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adaptersOnly,
  blockImporting,
  blocks,
  buildFolder,
  consumer,
  filesUnder,
  itPrintsNoBuildFolder,
  packed,
  project,
  run,
  scratch,
  useFixtureWeb,
  writeBlock,
} from './installed-project.js';
import { publishableDirectories, tarballFiles } from './pack-publishable.js';
import { installedPackages } from './readme-blocks.js';

useFixtureWeb();

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

  itPrintsNoBuildFolder(2);
});
