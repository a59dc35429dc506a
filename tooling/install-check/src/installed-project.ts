// What the install tests share: the projects the global setup installed, the fixture web each test
// file serves them, and the helpers that run the installed packages the way their users do.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { allReadmeBlocks, type ReadmeBlock, repositoryRoot } from './readme-blocks.js';

export const { scratch, project, consumer, adaptersOnly, packed } = inject('installation');

const tsxLoader = pathToFileURL(createRequire(join(repositoryRoot, 'package.json')).resolve('tsx/esm')).href;
const loopbackOnly = fileURLToPath(new URL('./loopback-only.mjs', import.meta.url));
const SEARX_RESULTS = readFileSync(
  join(
    repositoryRoot,
    'packages/search-providers/src/__fixtures__/searx/searx-1.1.0_results-local-engines.json',
  ),
  'utf8',
);
export const blocks = allReadmeBlocks();

/** The fixture web of the running test file, the only site the installed project can reach. */
export let web: FixtureWeb;

/** Serves the fixture web for the calling test file; each file runs in its own worker, with its own. */
export function useFixtureWeb(): void {
  beforeAll(async () => {
    web = await startFixtureWeb();
    web.scenario('/search', { headers: { 'content-type': 'application/json' }, body: SEARX_RESULTS });
  });
  afterAll(async () => {
    await web?.close();
  });
}

/** The environment of everything run in the project: the fixture web is the only reachable site. */
export function loopbackEnvironment(): Record<string, string> {
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

export function run(
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
export const outputs: { command: string; text: string }[] = [];
/** The checkout the packages were built in, which no installed file or output may name. */
export const buildFolder = repositoryRoot.replace(/\/$/, '');

/** Writes a README module block into the project, named after where it comes from. */
export function writeBlock(block: ReadmeBlock, directory = project): string {
  const file = join(directory, 'readme', `${block.file.replace(/[/.]/g, '-')}-${block.line}.mts`);
  mkdirSync(join(directory, 'readme'), { recursive: true });
  writeFileSync(file, `${block.code}\n`);
  return file;
}

/** Runs a TypeScript file in the project (resolving its imports from the project's node_modules). */
export function runTypeScript(file: string, args: string[] = []) {
  return run(process.execPath, ['--import', tsxLoader, '--import', loopbackOnly, file, ...args]);
}

export const moduleBlocks = blocks.filter((block) => block.kind === 'module');
export const blockImporting = (specifier: string) =>
  moduleBlocks.find(
    (block) => block.code.includes(`from '${specifier}'`) && block.file.includes('mono-agent-web'),
  );

/** A file's last test: nothing the installed packages printed in it names the build folder. */
export function itPrintsNoBuildFolder(minimumOutputs: number): void {
  it('nothing the installed packages printed in this file names it', () => {
    expect(outputs.length).toBeGreaterThan(minimumOutputs);
    expect(
      outputs.filter((output) => output.text.includes(buildFolder)).map((output) => output.command),
    ).toEqual([]);
  });
}

/** Every file under `directory`, recursively. */
export function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** Modules that must wait for a call that needs them: DOM, PDF, browser, Codex and the agent SDKs. */
export const HEAVY_MODULE =
  /\/node_modules\/(linkedom|@mixmark-io\/domino|htmlparser2|defuddle|@mozilla\/readability|turndown|unpdf|pdfjs-dist|@mono-agent\/codex-app-server-client|agent-browser|playwright|puppeteer|@modelcontextprotocol\/sdk|ai|@mariozechner\/[^/]+)\//;
