import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startRedisServer, type TestRedisServer } from '@mono-agent/test-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStateFile } from '../src/host-file/state-file.js';
import { createCoordinator, createRedisStore, scopeKey } from '../src/index.js';
import { bundleChild, type RunningChild, startChild } from './child-processes.js';

interface CycleRecord {
  pid: number;
  admittedAt: number;
  start: number;
  end: number;
  seenInside: number;
}

let childPath: string;
const directories: string[] = [];

function stateDirectory(): string {
  const parent = mkdtempSync(join(tmpdir(), 'host-coordination-'));
  directories.push(parent);
  return join(parent, 'web-control');
}

beforeAll(async () => {
  childPath = await bundleChild();
  directories.push(dirname(childPath));
});

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function runAll(children: RunningChild[]) {
  const results = await Promise.all(children.map((child) => child.exited));
  for (const result of results) expect(result.code, result.stderr + JSON.stringify(result.lines)).toBe(0);
  return results;
}

function records(results: { lines: Record<string, unknown>[] }[]): CycleRecord[] {
  return results.flatMap((result) =>
    result.lines.flatMap((line) => (line['records'] as CycleRecord[]) ?? []),
  );
}

function peakInside(cycles: CycleRecord[]): number {
  const events = cycles.flatMap((cycle) => [
    { at: cycle.start, change: 1 },
    { at: cycle.end, change: -1 },
  ]);
  // Ends sort before starts at the same instant: an end is recorded before its release.
  events.sort((left, right) => left.at - right.at || left.change - right.change);
  let inFlight = 0;
  let peak = 0;
  for (const event of events) {
    inFlight += event.change;
    peak = Math.max(peak, inFlight);
  }
  return peak;
}

/** Where the children of one test keep state: a fresh host directory, or a fresh Redis key prefix. */
type Target = { stateDirectory: string; redisUrl?: string; keyPrefix?: string };

/** The admission invariants across real processes, for the host file and for Redis. */
function describeAcrossProcesses(name: string, target: () => Target): void {
  describe(`${name} across real processes`, () => {
    it('keeps 6 processes at concurrency 1 apart, with start slots 150 ms apart', async () => {
      const startAt = Date.now() + 400;
      const where = target();
      const children = Array.from({ length: 6 }, () =>
        startChild(childPath, {
          action: 'admit-loop',
          ...where,
          concurrency: 1,
          spacingMs: 150,
          cycles: 2,
          holdMs: 20,
          startAt,
        }),
      );
      const cycles = records(await runAll(children)).sort((left, right) => left.start - right.start);
      expect(cycles).toHaveLength(12);
      expect(new Set(cycles.map((cycle) => cycle.pid)).size).toBe(6);
      for (let index = 1; index < cycles.length; index += 1) {
        const previous = cycles[index - 1]!;
        const current = cycles[index]!;
        // Never overlapping: the next request starts after the previous one ended.
        expect(current.start).toBeGreaterThan(previous.end);
        // Where each caller was let go (admittedAt, store time) is a whole spacing after the previous
        // one; the gap on the callers' own clocks is a timing figure under load and is measured by
        // bench/coordination-stress.ts instead.
        expect(current.admittedAt - previous.admittedAt).toBeGreaterThanOrEqual(150);
      }
    });

    it('never lets more than 2 of 8 processes in at concurrency 2', async () => {
      const where = target();
      const insideDirectory = join(dirname(where.stateDirectory), 'inside');
      mkdirSync(insideDirectory, { recursive: true });
      const startAt = Date.now() + 400;
      const children = Array.from({ length: 8 }, () =>
        startChild(childPath, {
          action: 'admit-loop',
          ...where,
          concurrency: 2,
          spacingMs: 0,
          cycles: 5,
          // Long enough, against transactions of tens of ms on a busy disk, for holders to overlap.
          holdMs: 60,
          insideDirectory,
          startAt,
        }),
      );
      const cycles = records(await runAll(children));
      expect(cycles).toHaveLength(40);
      // Two independent counts: marker files seen on entry (no clocks), and intervals on one clock.
      expect(Math.max(...cycles.map((cycle) => cycle.seenInside))).toBeLessThanOrEqual(2);
      expect(peakInside(cycles)).toBe(2);
    });

    it('keeps every invariant through 100 SIGKILLs of holders among 8 contending processes', async () => {
      const where = target();
      const insideDirectory = join(dirname(where.stateDirectory), 'inside-kills');
      mkdirSync(insideDirectory, { recursive: true });
      const kills = 100;
      let killed = 0;
      let worst = 0;
      let reclaimedHeld = 0;
      const command = {
        action: 'churn',
        ...where,
        scope: 'kills',
        concurrency: 2,
        spacingMs: 0,
        holdMs: 30,
        leaseTtlMs: 1_000,
        insideDirectory,
      };
      const worker = async () => {
        while (killed < kills) {
          killed += 1;
          const child = startChild(childPath, command);
          child.process.stdout?.on('data', () => {});
          // Kill while holding half the time, and while waiting the other half.
          const holding = Math.random() < 0.5;
          await child.waitForLine((line) => (holding ? line['held'] !== undefined : line['ready'] === true));
          if (holding) reclaimedHeld += 1;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
          child.process.kill('SIGKILL');
          const exited = await child.exited;
          expect(exited.signal, exited.stderr + JSON.stringify(exited.lines)).toBe('SIGKILL');
          for (const line of exited.lines) worst = Math.max(worst, Number(line['seenInside'] ?? 0));
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(killed).toBeGreaterThanOrEqual(kills);
      expect(reclaimedHeld).toBeGreaterThan(0);
      expect(worst).toBeLessThanOrEqual(2);
      // Dead owners are reclaimed: a new process gets both slots (by proof of death on the host, by the
      // 1 s lease lifetime on Redis). On Redis a holder killed in the last second may still own a live
      // lease, which status rightly counts, so the check waits out the lifetime first.
      if (where.redisUrl !== undefined)
        await new Promise((resolve) => setTimeout(resolve, command.leaseTtlMs + 250));
      const next = startChild(childPath, { ...command, action: 'admit-loop', cycles: 2, holdMs: 0 });
      const [result] = await runAll([next]);
      expect(records([result!])).toHaveLength(2);
      const coordinator = coordinatorFor(where);
      const status = await coordinator.status();
      expect(status.activeRequests).toBe(0);
      expect(status.scopes.find((scope) => scope.key === scopeKey('kills'))?.admissions).toBeGreaterThan(0);
      await coordinator.close();
      if (where.redisUrl === undefined) {
        // The state file still parses and holds only valid state.
        expect(() => readStateFile(join(where.stateDirectory, 'state.json'))).not.toThrow();
      }
    }, 600_000);
  });
}

function coordinatorFor(where: Target) {
  return where.redisUrl === undefined
    ? createCoordinator({ mode: 'host', stateDirectory: where.stateDirectory })
    : createCoordinator({
        store: createRedisStore({
          url: where.redisUrl,
          ...(where.keyPrefix === undefined ? {} : { keyPrefix: where.keyPrefix }),
        }),
      });
}

describeAcrossProcesses('host mode', () => ({ stateDirectory: stateDirectory() }));

describe('host mode recovery across real processes', () => {
  it('reclaims the lease of a holder killed with SIGKILL at the next admission of another process', async () => {
    const directory = stateDirectory();
    const command = {
      stateDirectory: directory,
      scope: 'searxng:http://127.0.0.1:8088',
      concurrency: 1,
      spacingMs: 0,
    };
    const holder = startChild(childPath, { action: 'hold', ...command });
    await holder.waitForLine((line) => line['status'] === 'admitted');
    holder.process.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');

    const next = startChild(childPath, { action: 'admit-once', ...command });
    const [result] = await runAll([next]);
    const line = result?.lines[0];
    expect(line?.['status']).toBe('admitted');
    // Reclaimed by proving the owner dead, not by waiting out the 120 s lease.
    expect(line?.['elapsedMs']).toBeLessThan(5_000);
    const status = await createCoordinator({ mode: 'host', stateDirectory: directory }).status();
    expect(status.activeRequests).toBe(0);
    expect(status.scopes[0]?.admissions).toBe(2);
  });

  it('reclaims a lease whose PID now belongs to another process (forged incarnation)', async () => {
    const directory = stateDirectory();
    const scope = 'duckduckgo';
    // Take the scope once so the directory and file exist with safe modes, then forge its lease.
    const coordinator = createCoordinator({ mode: 'host', stateDirectory: directory });
    const permit = await coordinator.admit({ scope, concurrency: 1, spacingMs: 0 });
    if (permit.status !== 'admitted') throw new Error('expected a permit');
    const statePath = join(directory, 'state.json');
    const { content } = readStateFile(statePath);
    const bucket = content.buckets[scopeKey(scope)]!;
    // process.pid is alive (this test runner), but the lease claims an older incarnation of it.
    bucket.leases[0]!.owner = { ...bucket.leases[0]!.owner, pid: process.pid, incarnation: 'old-boot:12345' };
    writeFileSync(statePath, JSON.stringify(content), { mode: 0o600 });
    chmodSync(statePath, 0o600);

    const next = startChild(childPath, {
      action: 'admit-once',
      stateDirectory: directory,
      scope,
      concurrency: 1,
      spacingMs: 0,
    });
    const [result] = await runAll([next]);
    expect(result?.lines[0]?.['status']).toBe('admitted');
    expect(result?.lines[0]?.['elapsedMs']).toBeLessThan(5_000);
    expect((await permit.release({ outcome: 'success' })).released).toBe(true);
  });

  it('loses no update with 8 processes × 100 read-modify-write cycles', async () => {
    const directory = stateDirectory();
    const startAt = Date.now() + 400;
    const children = Array.from({ length: 8 }, () =>
      startChild(childPath, {
        action: 'counter',
        stateDirectory: directory,
        scope: 'counter',
        cycles: 100,
        startAt,
      }),
    );
    await runAll(children);
    const { content } = readStateFile(join(directory, 'state.json'));
    expect(content.buckets[scopeKey('counter')]?.admissions).toBe(800);
    // 1,600 fsyncs in series: under 2 s on an idle disk, minutes when other jobs share it.
  }, 300_000);

  it('leaves a state file that parses after 50 SIGKILLs during writes', async () => {
    const directory = stateDirectory();
    const kills = 50;
    const parallel = 5;
    let killed = 0;
    const worker = async () => {
      while (killed < kills) {
        killed += 1;
        const child = startChild(childPath, {
          action: 'write-forever',
          stateDirectory: directory,
          scope: 'kill',
        });
        // After the child's first write (however slow a busy machine makes its start), a random
        // moment inside the write loop: lock, read, temp write, fsync, rename.
        await child.waitForLine((line) => line['wrote'] === true);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 40));
        child.process.kill('SIGKILL');
        expect((await child.exited).signal).toBe('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    expect(killed).toBeGreaterThanOrEqual(kills);

    const statePath = join(directory, 'state.json');
    const { content } = readStateFile(statePath);
    expect(Object.keys(content.buckets).length).toBeGreaterThan(0);
    // The lock left by a killed writer is broken and the store still works.
    const coordinator = createCoordinator({ mode: 'host', stateDirectory: directory });
    const admission = await coordinator.admit({ scope: 'after-kills', concurrency: 1, spacingMs: 0 });
    if (admission.status !== 'admitted') throw new Error('expected a permit');
    await admission.release({ outcome: 'success' });
    expect((await coordinator.status()).activeRequests).toBe(0);
    expect(readdirSync(directory).filter((name) => name.endsWith('.lock'))).toEqual([]);
    // Tickets of killed waiters were older than the last admission's own, so it removed them all.
    expect(readdirSync(join(directory, 'state.json.lock.queue'))).toEqual([]);
  }, 120_000);
});

let redis: TestRedisServer | undefined;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.dispose();
});

function redisTarget(): Target {
  prefixes += 1;
  return {
    stateDirectory: stateDirectory(),
    redisUrl: redis!.url,
    keyPrefix: `{multi-${process.pid}-${prefixes}}:`,
  };
}

describeAcrossProcesses('redis mode', redisTarget);

describe('redis mode recovery across real processes', () => {
  it('frees the slot of a holder killed with SIGKILL once its lease lifetime passes', async () => {
    const where = redisTarget();
    const command = { ...where, scope: 'ttl', concurrency: 1, spacingMs: 0, leaseTtlMs: 1_500 };
    const holder = startChild(childPath, { action: 'hold', ...command });
    await holder.waitForLine((line) => line['status'] === 'admitted');
    holder.process.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');
    const coordinator = coordinatorFor(where);
    // Another machine cannot be judged dead, so the lease stays until its lifetime ends.
    expect((await coordinator.status()).activeRequests).toBe(1);
    const [result] = await runAll([startChild(childPath, { action: 'admit-once', ...command })]);
    expect(result?.lines[0]?.['status']).toBe('admitted');
    expect(Number(result?.lines[0]?.['elapsedMs'])).toBeLessThan(10_000);
    expect((await coordinator.status()).activeRequests).toBe(0);
    await coordinator.close();
  });

  it('fails every admission closed while Redis is down and admits again once it is back', async () => {
    const where = redisTarget();
    const request = { scope: 'outage', concurrency: 1, spacingMs: 0 };
    const coordinator = coordinatorFor(where);
    const first = await coordinator.admit(request);
    expect(first.status).toBe('admitted');
    if (first.status === 'admitted') await first.release({ outcome: 'success' });
    await redis!.stop();
    try {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const started = performance.now();
        await expect(coordinator.admit({ ...request, scope: `outage-${attempt}` })).rejects.toMatchObject({
          code: 'backend_unavailable',
          details: { store: 'redis' },
        });
        expect(performance.now() - started).toBeLessThan(5_000);
      }
      // Processes standing in for other machines fail closed too.
      const down = await Promise.all(
        [0, 1, 2].map(
          (index) =>
            startChild(childPath, {
              action: 'admit-once',
              ...where,
              scope: `outage-child-${index}`,
              concurrency: 1,
            }).exited,
        ),
      );
      for (const result of down) {
        expect(result.code).toBe(1);
        expect(result.lines[0]?.['error']).toMatchObject({ code: 'backend_unavailable' });
      }
    } finally {
      await redis!.restart();
    }
    const after = await coordinator.admit({ ...request, scope: 'after-outage' });
    expect(after.status).toBe('admitted');
    if (after.status === 'admitted') await after.release({ outcome: 'success' });
    const [result] = await runAll([
      startChild(childPath, { action: 'admit-once', ...where, scope: 'after-outage', concurrency: 1 }),
    ]);
    expect(result?.lines[0]?.['status']).toBe('admitted');
    await coordinator.close();
  });
});
