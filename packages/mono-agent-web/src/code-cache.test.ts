import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUNDLE_IMPORT,
  BUNDLE_SCRIPT_NAME,
  CODE_CACHE_SUFFIX,
  compileCommonJs,
  runCommonJsBundle,
  WRITE_CODE_CACHE_VARIABLE,
} from './code-cache.js';

const seen = globalThis as unknown as { codeCacheRuns?: Record<string, unknown>[] };

/** A bundle that records what it was run with, and what its require() and import() reach. */
const BUNDLE = `"use strict";
const helper = require('./helper.cjs');
const record = {
  filename: __filename,
  dirname: __dirname,
  thisIsExports: this === module.exports,
  inCache: require.cache[__filename] === module,
  helper: helper.value,
};
module.exports = record;
(globalThis.codeCacheRuns ??= []).push(record);
// What the bundle's import('./esm.mjs') becomes when the build finishes it.
record.imported = ${BUNDLE_IMPORT}('./esm.mjs').then((esm) => esm.value);
record.builtIn = ${BUNDLE_IMPORT}('node:path').then((path) => typeof path.join);
`;

// Each test runs its bundle under a script name of its own (its path): V8's in-process compilation
// cache would otherwise answer a second compile of the same text and name without reading the file.
describe('running the CLI bundle with its code cache', () => {
  let folder: string;
  let bundle: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'code-cache-'));
    bundle = join(folder, 'bundle.cjs');
    writeFileSync(bundle, BUNDLE);
    writeFileSync(join(folder, 'helper.cjs'), 'exports.value = "required";');
    writeFileSync(join(folder, 'esm.mjs'), 'export const value = "imported";');
    seen.codeCacheRuns = [];
  });
  afterEach(() => {
    delete createRequire(import.meta.url).cache[bundle];
    rmSync(folder, { recursive: true, force: true });
  });

  const writeCache = (source: string) =>
    writeFileSync(`${bundle}${CODE_CACHE_SUFFIX}`, compileCommonJs(bundle, source).createCachedData());

  it('runs the file as require() would when there is no cache', async () => {
    expect(runCommonJsBundle(bundle, {}, bundle)).toBe('absent');
    const [record] = seen.codeCacheRuns ?? [];
    expect(record).toMatchObject({
      filename: bundle,
      dirname: folder,
      thisIsExports: true,
      inCache: true,
      helper: 'required',
    });
    await expect(record?.imported).resolves.toBe('imported');
    await expect(record?.builtIn).resolves.toBe('function');
    expect(createRequire(import.meta.url).cache[bundle]?.loaded).toBe(true);
  });

  it('uses a cache made for the same text, and import() still works inside', async () => {
    writeCache(BUNDLE);
    expect(runCommonJsBundle(bundle, {}, bundle)).toBe('used');
    expect(seen.codeCacheRuns).toHaveLength(1);
    await expect(seen.codeCacheRuns?.[0]?.imported).resolves.toBe('imported');
  });

  it('compiles afresh, and runs the new text, when the bundle changed after its cache was made', async () => {
    writeCache(BUNDLE);
    writeFileSync(bundle, `${BUNDLE}\nrecord.edited = true;\n`);
    expect(runCommonJsBundle(bundle, {}, bundle)).toBe('rejected');
    expect(seen.codeCacheRuns?.[0]).toMatchObject({ edited: true });
    await expect(seen.codeCacheRuns?.[0]?.imported).resolves.toBe('imported');
  });

  it('rejects a cache file that is not a code cache, and still runs', async () => {
    writeFileSync(`${bundle}${CODE_CACHE_SUFFIX}`, 'not a code cache');
    expect(runCommonJsBundle(bundle, {}, bundle)).toBe('rejected');
    expect(seen.codeCacheRuns).toHaveLength(1);
    await expect(seen.codeCacheRuns?.[0]?.imported).resolves.toBe('imported');
  });

  it(`names the script ${BUNDLE_SCRIPT_NAME} in stack traces, not the folder it runs from`, () => {
    // A unique text, so no earlier compile in this process answers for it.
    const source = `module.exports = new Error('where').stack; // ${folder}\n`;
    writeFileSync(bundle, source);
    const cache = compileCommonJs(BUNDLE_SCRIPT_NAME, source).createCachedData();
    writeFileSync(`${bundle}${CODE_CACHE_SUFFIX}`, cache);
    expect(runCommonJsBundle(bundle, {})).toBe('used');
    const stack = createRequire(import.meta.url).cache[bundle]?.exports as string;
    expect(stack.split('\n')[1]).toContain(`(${BUNDLE_SCRIPT_NAME}:1:`);
    expect(stack).not.toContain(folder);
  });

  it('throws what the bundle throws, and leaves no half-loaded module in the cache', () => {
    writeFileSync(bundle, 'throw new Error("bundle failed");');
    expect(() => runCommonJsBundle(bundle, {}, bundle)).toThrow('bundle failed');
    expect(createRequire(import.meta.url).cache[bundle]).toBeUndefined();
  });
});

describe('the built bin and its code cache', () => {
  const binFolder = fileURLToPath(new URL('../dist/bin/', import.meta.url));
  const built = join(binFolder, 'cli-main.cjs');
  const accepts = (file: string, cache: Buffer) =>
    compileCommonJs(file, readFileSync(file, 'utf8'), cache).cachedDataRejected === false;

  it('ships a cache this Node accepts for the bundle beside it', () => {
    expect(existsSync(built), 'run pnpm build first').toBe(true);
    expect(accepts(built, readFileSync(`${built}${CODE_CACHE_SUFFIX}`))).toBe(true);
  });

  it(`routes every import() of the bundle through ${BUNDLE_IMPORT}, which works from a cached script`, () => {
    const source = readFileSync(built, 'utf8');
    expect(source).not.toMatch(/(?<![\w$.])import\s*\(/);
    expect(
      source.match(new RegExp(`(?<![\\w$.])${BUNDLE_IMPORT}\\("@mono-agent/extract"\\)`, 'g'))?.length,
    ).toBeGreaterThan(0);
  });

  it(`writes the cache a command ran with to the file ${WRITE_CODE_CACHE_VARIABLE} names`, () => {
    const folder = mkdtempSync(join(tmpdir(), 'code-cache-write-'));
    try {
      const cache = join(folder, 'written.cache');
      const result = spawnSync(process.execPath, [join(binFolder, 'cli.cjs'), 'search', 'cache test'], {
        env: {
          PATH: process.env.PATH,
          HOME: folder,
          MONO_AGENT_NETWORK_MODE: 'none',
          [WRITE_CODE_CACHE_VARIABLE]: cache,
        },
        encoding: 'utf8',
      });
      expect(result.stdout).toMatch(/^WebSearch status: error \| error: policy_denied/);
      expect(accepts(built, readFileSync(cache))).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
