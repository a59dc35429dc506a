import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startAppServerProcess } from '../src/app-server-process.js';
import { createCodexAppServerClient } from '../src/codex-app-server-client.js';
import { refuseServerRequest } from '../src/server-request-refusal.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'fake-app-server.mjs');
const folder = mkdtempSync(join(tmpdir(), 'codex-process-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const start = async (scenario: Record<string, unknown>, stdinMs = 300) => {
  const file = join(folder, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return startAppServerProcess({
    command: process.execPath,
    args: [script, file],
    env: process.env,
    answer: refuseServerRequest,
    shutdownGrace: { stdinMs, termMs: 300, killMs: 2_000 },
  });
};

// An answered request proves the fake has installed its stdin and signal handlers.
const ready = async (scenario: Record<string, unknown>, stdinMs?: number) => {
  const server = await start(scenario, stdinMs);
  await server.connection.request('initialize', {});
  return server;
};

describe('shutdown order', () => {
  it('stops at closing stdin when the server leaves on end of input', async () => {
    const server = await ready({}, 5_000);
    await expect(server.shutdown()).resolves.toEqual({ step: 'stdin', exit: { code: 0, signal: null } });
    await expect(server.shutdown()).resolves.toMatchObject({ step: 'stdin' });
  });

  it('sends SIGTERM when end of input is ignored past the grace', async () => {
    const server = await ready({ ignoreStdinEnd: true });
    await expect(server.shutdown()).resolves.toEqual({ step: 'sigterm', exit: { code: 0, signal: null } });
  });

  it('sends SIGKILL when SIGTERM is ignored too', async () => {
    const server = await ready({ ignoreStdinEnd: true, ignoreSigterm: true });
    await expect(server.shutdown()).resolves.toEqual({
      step: 'sigkill',
      exit: { code: null, signal: 'SIGKILL' },
    });
  });

  it('reports an exit that already happened', async () => {
    const server = await start({ on: { initialize: [{ exit: 4 }, { respond: true }] } });
    await expect(server.connection.request('initialize', {})).rejects.toMatchObject({
      code: 'backend_unavailable',
    });
    await server.exited;
    await expect(server.shutdown()).resolves.toEqual({
      step: 'already-exited',
      exit: { code: 4, signal: null },
    });
  });
});

describe('spawning', () => {
  it('maps a missing binary to configuration_error', async () => {
    const client = createCodexAppServerClient({ command: join(folder, 'no-such-codex') });
    await expect(client.readiness()).rejects.toMatchObject({ code: 'configuration_error' });
    await client.close();
  });

  it('passes no shell: metacharacters in arguments stay literal', async () => {
    const marker = join(folder, 'shell-ran');
    const literal = await startAppServerProcess({
      command: process.execPath,
      args: [
        '-e',
        'process.stdout.write(JSON.stringify({method:"argv",params:process.argv.slice(1)})+"\\n")',
        `; touch ${marker}`,
      ],
      env: process.env,
      answer: refuseServerRequest,
    });
    const seen = await new Promise<unknown>((resolve) =>
      literal.connection.onNotification((n) => resolve(n.params)),
    );
    expect(seen).toEqual([`; touch ${marker}`]);
    await literal.shutdown();
    expect(await import('node:fs').then((fs) => fs.existsSync(marker))).toBe(false);
  });
});
