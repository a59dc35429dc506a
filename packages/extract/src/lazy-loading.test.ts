import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const HEAVY_MODULES = [
  'happy-dom',
  'linkedom',
  'defuddle',
  '@mozilla/readability',
  'turndown',
  'unpdf',
  'chardet',
  'fast-xml-parser',
  'htmlparser2',
];

async function resolvedModules(mode: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=@mono-agent/source',
      '--import',
      'tsx',
      '--import',
      `${fixtures}record-imports.mjs`,
      `${fixtures}import-extract.mjs`,
      mode,
    ],
    { cwd: fixtures },
  );
  return JSON.parse(stdout) as string[];
}

const heavyIn = (urls: string[]) =>
  HEAVY_MODULES.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`)));

describe('lazy loading', () => {
  it('importing the package loads none of the heavy modules; extracting HTML loads its parsers', async () => {
    const [importOnly, afterExtract] = await Promise.all([
      resolvedModules('import'),
      resolvedModules('extract'),
    ]);
    expect(importOnly.some((url) => url.endsWith('/src/index.ts'))).toBe(true);
    expect(heavyIn(importOnly)).toEqual([]);
    // The recorder sees the parsers once a call needs them, so an eager import would be caught.
    // Readability is loaded only for a page that needs it (an article, or a failed Defuddle pass).
    expect(heavyIn(afterExtract)).toEqual(expect.arrayContaining(['linkedom', 'defuddle', 'turndown']));
  });
});
