// A FIFO, a socket or a device at the state or lock path must fail closed as unsafe state before
// anything opens it: opening a FIFO blocks the process synchronously (no deadline can fire), and
// with the state file a FIFO the blocked process would also hold the lock. Proven through the API in
// this process and through real child processes, each of which must give up within 1 s.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoordinator } from '../src/index.js';
import { bundleChild, startChild } from './child-processes.js';

/** The bound the contract gives a refusal of a special file. */
const REFUSAL_BOUND_MS = 1_000;

let childPath: string;
const parents: string[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  childPath = await bundleChild();
  parents.push(dirname(childPath));
});
afterAll(() => {
  for (const server of servers) server.close();
  for (const parent of parents) rmSync(parent, { recursive: true, force: true });
});

type Kind = 'fifo' | 'socket' | 'device';

function canMakeDevice(): boolean {
  const parent = mkdtempSync(join(tmpdir(), 'mknod-probe-'));
  try {
    execFileSync('mknod', [join(parent, 'null'), 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

async function plant(kind: Kind, path: string): Promise<void> {
  if (kind === 'fifo') execFileSync('mkfifo', ['-m', '0600', path]);
  // Major 1, minor 3 is /dev/null: harmless even if something did open it.
  else if (kind === 'device') execFileSync('mknod', ['-m', '0600', path, 'c', '1', '3']);
  else {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
  }
}

function stateDirectory(): string {
  const parent = mkdtempSync(join(tmpdir(), 'irregular-'));
  parents.push(parent);
  const directory = join(parent, 'web-control');
  mkdirSync(directory, { mode: 0o700 });
  return directory;
}

async function problemOf(action: () => Promise<unknown>): Promise<{ problem: unknown; ms: number }> {
  const started = performance.now();
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  const ms = performance.now() - started;
  if (!WebToolError.isInstance(error, 'state_unsafe'))
    throw new Error(`expected state_unsafe, got ${String(error)}`);
  return { problem: error.details['problem'], ms };
}

const kinds: Kind[] = ['fifo', 'socket', ...(canMakeDevice() ? (['device'] as const) : [])];
const targets = [
  { file: 'state.json', problem: 'not_a_file' },
  { file: 'state.json.lock', problem: 'lock_not_a_file' },
] as const;

describe('a special file at the state or lock path fails closed', () => {
  for (const kind of kinds) {
    for (const target of targets) {
      it(`refuses a ${kind} at ${target.file} with ${target.problem} (admit, status, reset, other processes)`, async () => {
        const directory = stateDirectory();
        await plant(kind, join(directory, target.file));
        const coordinator = createCoordinator({ mode: 'host', stateDirectory: directory });
        const request = { scope: 'duckduckgo', concurrency: 1, spacingMs: 0 };
        for (const action of [
          () => coordinator.admit(request),
          () => coordinator.status(),
          () => coordinator.reset(),
        ]) {
          const { problem, ms } = await problemOf(action);
          expect(problem).toBe(target.problem);
          expect(ms).toBeLessThan(REFUSAL_BOUND_MS);
        }
        const children = [0, 1, 2].map(() =>
          startChild(childPath, { action: 'admit-once', stateDirectory: directory, scope: 'duckduckgo' }),
        );
        for (const child of children) {
          const result = await child.exited;
          expect(result.code).toBe(1);
          const [line] = result.lines;
          expect(line?.['error']).toMatchObject({ code: 'state_unsafe' });
          expect(line?.['details']).toMatchObject({ problem: target.problem });
          expect(Number(line?.['elapsedMs'])).toBeLessThan(REFUSAL_BOUND_MS);
        }
      });
    }
  }
});
