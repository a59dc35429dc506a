import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const run = promisify(execFile);
const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const recorder = fileURLToPath(
  new URL('../../../../tooling/install-check/src/record-loaded-modules.mjs', import.meta.url),
);
const probe = fileURLToPath(new URL('./import-probe.ts', import.meta.url));

/** What must wait for a call that needs it: the DOM, PDF, browser, Codex and the agent SDKs. */
const HEAVY = {
  dom: /\/node_modules\/(linkedom|@mixmark-io\/domino|htmlparser2|jsdom|happy-dom)\//,
  extractors: /\/node_modules\/(defuddle|@mozilla\/readability|turndown)\//,
  pdf: /\/node_modules\/(unpdf|pdfjs-dist)\//,
  // The browser itself and browser libraries; the renderer's own small modules (argv, version check)
  // are part of the entry, and start nothing until a call renders.
  browser: /\/node_modules\/(agent-browser|playwright[^/]*|puppeteer[^/]*)\/|chromium/i,
  codex:
    /\/codex-app-server-client\/src\/(?!index\.ts)|\/node_modules\/@mono-agent\/codex-app-server-client\//,
  sdks: /\/node_modules\/(@modelcontextprotocol\/sdk|ai|@mariozechner\/[^/]+)\//,
};

async function loadedModules(...flags: string[]): Promise<string[]> {
  const { stdout } = await run(
    tsx,
    ['--conditions=@mono-agent/source', '--import', recorder, probe, ...flags],
    {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
}

function heavyIn(urls: string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(HEAVY)
      .map(([group, pattern]) => [group, urls.filter((url) => pattern.test(url))] as const)
      .filter(([, matched]) => matched.length > 0),
  );
}

describe.concurrent('importing @mono-agent/web', () => {
  it('loads no DOM, extractor, PDF, browser, Codex or agent SDK module', async ({ expect }) => {
    const loaded = await loadedModules();
    expect(loaded.some((url) => url.endsWith('/mono-agent-web/src/index.ts'))).toBe(true);
    expect(heavyIn(loaded)).toEqual({});
  });

  it('is watched by a recorder that sees the DOM once HTML is extracted, and only linkedom', async ({
    expect,
  }) => {
    const groups = heavyIn(await loadedModules('--extract-html'));
    expect(Object.keys(groups).sort()).toEqual(['dom', 'extractors']);
    expect(groups.dom?.some((url) => url.includes('/node_modules/linkedom/'))).toBe(true);
    // One DOM implementation: Turndown is handed linkedom nodes, so its own DOM never loads.
    expect(groups.dom?.filter((url) => /domino|jsdom|happy-dom/.test(url))).toEqual([]);
  });
});
