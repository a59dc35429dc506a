import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the real searx server started for this test run. */
    searxUrl: string;
  }
}

const script = fileURLToPath(new URL('../../searx/start-searx.sh', import.meta.url));

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts a real searx (Debian's package, with loopback fixture engines) on free ports for this test
 * run and stops it afterwards. Each run gets its own work directory, so engine suspensions from one
 * run never leak into the next.
 */
export default async function setup(project: TestProject) {
  const workDirectory = mkdtempSync(join(tmpdir(), 'mono-agent-searx-'));
  const environment = {
    ...process.env,
    SEARX_PORT: String(await freePort()),
    FIXTURE_PORT: String(await freePort()),
    SEARX_WORKDIR: workDirectory,
  };
  try {
    const { stdout } = await promisify(execFile)('bash', [script, 'start'], { env: environment });
    const url = /SEARX_URL=(\S+)/.exec(stdout)?.[1];
    if (url === undefined) throw new Error(`start-searx.sh printed no SEARX_URL:\n${stdout}`);
    project.provide('searxUrl', url);
  } catch (error) {
    rmSync(workDirectory, { recursive: true, force: true });
    throw new Error(
      `could not start the real searx server the SearXNG tests need (${(error as Error).message.trim()}). ` +
        'Install it once with: sudo bash tooling/searx/start-searx.sh install',
    );
  }
  return async () => {
    await promisify(execFile)('bash', [script, 'stop'], { env: environment });
    rmSync(workDirectory, { recursive: true, force: true });
  };
}
