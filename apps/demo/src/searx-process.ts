import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../tooling/searx/start-searx.sh', import.meta.url));

/** A searx server started for the console, with the loopback upstream its engines query. */
export interface SearxProcess {
  /** Base URL of searx, on 127.0.0.1. */
  url: string;
  /** Stops searx and its upstream and removes their work folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Whether Debian's searx package is importable by the system Python. */
export async function searxInstalled(): Promise<boolean> {
  if (!existsSync('/usr/bin/python3')) return false;
  try {
    // Importing searx needs its settings; finding the module is enough to know it is installed.
    await run('/usr/bin/python3', [
      '-c',
      'import importlib.util, sys; sys.exit(importlib.util.find_spec("searx") is None)',
    ]);
    return true;
  } catch {
    return false;
  }
}

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
 * Starts the real searx on free loopback ports. Its default engines read `results.json` and
 * `results.html` from `siteDirectory`; the disabled error engines (`!fx429`, `!fxcap`, ...) answer
 * with a throttle or a CAPTCHA, so a blocked instance can be shown by name.
 */
export async function startSearx(siteDirectory: string): Promise<SearxProcess> {
  const workDirectory = mkdtempSync(join(tmpdir(), 'mono-agent-console-searx-'));
  const environment = {
    ...process.env,
    SEARX_PORT: String(await freePort()),
    FIXTURE_PORT: String(await freePort()),
    SEARX_WORKDIR: workDirectory,
    FIXTURE_SITE: siteDirectory,
  };
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [script, 'start'], { env: environment }));
  } catch (error) {
    rmSync(workDirectory, { recursive: true, force: true });
    throw new Error(`searx did not start: ${(error as Error).message.trim()}`);
  }
  const url = /SEARX_URL=(\S+)/.exec(stdout)?.[1];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await run('bash', [script, 'stop'], { env: environment }).catch(() => undefined);
    rmSync(workDirectory, { recursive: true, force: true });
  };
  if (url === undefined) {
    await stop();
    throw new Error('searx started but printed no address');
  }
  return { url, stop };
}
