// The install test of the bin: `mono-agent-web` as installed from the tarballs, what it answers and
// which modules it loads, and what importing `@mono-agent/web` loads. The global setup installs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '@mono-agent/test-services';
import { describe, expect, it } from 'vitest';
import {
  blocks,
  HEAVY_MODULE,
  itPrintsNoBuildFolder,
  project,
  run,
  scratch,
  useFixtureWeb,
  web,
} from './installed-project.js';

useFixtureWeb();

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

describe('no output names the folder the packages were built in', () => {
  itPrintsNoBuildFolder(10);
});
