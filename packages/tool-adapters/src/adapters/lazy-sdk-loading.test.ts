import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const run = promisify(execFile);
const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const probe = fileURLToPath(new URL('../../test/adapters/import-probe.ts', import.meta.url));

/** The optional peers, as they appear in a resolved URL (symlinked or under `.pnpm`). */
const SDK_PATHS = {
  '@modelcontextprotocol/sdk': '/node_modules/@modelcontextprotocol/sdk/',
  ai: '/node_modules/ai/',
  '@mariozechner/pi-agent-core': '/node_modules/@mariozechner/pi-agent-core/',
} as const;

/** Runs the probe in a fresh Node process; returns whether it saw the adapters and which peers. */
async function probeImports(...flags: string[]): Promise<{ sawAdapters: boolean; sdks: string[] }> {
  const { stdout } = await run(tsx, ['--conditions=@mono-agent/source', probe, ...flags], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  const resolved = JSON.parse(stdout) as string[];
  return {
    sawAdapters: resolved.some((url) => url.endsWith('/src/adapters/mcp-server.ts')),
    sdks: Object.entries(SDK_PATHS)
      .filter(([, path]) => resolved.some((url) => url.includes(path)))
      .map(([name]) => name),
  };
}

// Concurrent: each probe is a separate Node process.
describe.concurrent('optional agent SDKs', () => {
  it('are not loaded by importing the package or its adapter modules', async ({ expect }) => {
    expect(await probeImports()).toEqual({ sawAdapters: true, sdks: [] });
  });

  it('are seen by the same probe once the adapters are used (the check can fail)', async ({ expect }) => {
    expect(await probeImports('--use-adapters')).toEqual({ sawAdapters: true, sdks: Object.keys(SDK_PATHS) });
  });
});
