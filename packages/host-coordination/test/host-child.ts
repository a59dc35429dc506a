// A child process for the multi-process tests, the stress script and the benchmark. It takes one JSON
// command as its argument, runs it against the real host state file (or a Redis server when the command
// names one) and prints JSON lines on stdout. Times are CLOCK_MONOTONIC milliseconds
// (process.hrtime), one clock for every process of the machine: `performance.timeOrigin` is read per
// process at startup and can be off by however long that process was descheduled then.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Coordinator,
  createCoordinator,
  createHostStateStore,
  createRedisStore,
  scopeKey,
  systemClock,
} from '../src/index.js';

interface Command {
  action:
    | 'admit-loop'
    | 'churn'
    | 'hold'
    | 'admit-once'
    | 'counter'
    | 'write-forever'
    | 'bench-admit'
    | 'bench-naive';
  stateDirectory: string;
  scope?: string;
  concurrency?: number;
  spacingMs?: number;
  cycles?: number;
  holdMs?: number;
  /** Epoch milliseconds to start at, so every child begins together after its startup. */
  startAt?: number;
  /** Use this Redis server instead of the host state file. */
  redisUrl?: string;
  /** The Redis key prefix of the run. */
  keyPrefix?: string;
  /** Lease lifetime in milliseconds. */
  leaseTtlMs?: number;
  /**
   * A directory where each holder keeps a marker file while inside: the number of markers a holder sees
   * on entry is a clock-free count of how many requests were in flight together.
   */
  insideDirectory?: string;
}

const command = JSON.parse(process.argv[2] ?? '{}') as Command;
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const preciseNow = () => Number(process.hrtime.bigint()) / 1e6;
const scope = command.scope ?? 'test-scope';
const request = { scope, concurrency: command.concurrency ?? 1, spacingMs: command.spacingMs ?? 0 };

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function enter(cycle: number): { seen: number; leave(): void } {
  const directory = command.insideDirectory;
  if (directory === undefined) return { seen: 0, leave() {} };
  const marker = join(directory, `${process.pid}-${cycle}`);
  writeFileSync(marker, '');
  // Markers of killed holders stay behind; only those of running processes count. The coordinator
  // judges owners the same way, so a marker of a process it judged dead is never counted.
  const seen = readdirSync(directory).filter((name) => isRunning(Number(name.split('-')[0]))).length;
  return { seen, leave: () => unlinkSync(marker) };
}

async function waitForStart(): Promise<void> {
  if (command.startAt !== undefined) await systemClock.sleep(Math.max(0, command.startAt - Date.now()));
}

function createChildCoordinator(): Coordinator {
  const leaseTtl = command.leaseTtlMs === undefined ? {} : { leaseTtlMs: command.leaseTtlMs };
  if (command.redisUrl === undefined) {
    return createCoordinator({ mode: 'host', stateDirectory: command.stateDirectory, ...leaseTtl });
  }
  return createCoordinator({
    store: createRedisStore({
      url: command.redisUrl,
      ...(command.keyPrefix === undefined ? {} : { keyPrefix: command.keyPrefix }),
    }),
    ...leaseTtl,
  });
}

async function admitLoop(coordinator: Coordinator): Promise<void> {
  await waitForStart();
  const records = [];
  for (let cycle = 0; cycle < (command.cycles ?? 1); cycle += 1) {
    const requested = preciseNow();
    const admission = await coordinator.admit(request);
    const start = preciseNow();
    if (admission.status !== 'admitted') throw new Error(`unexpected ${admission.status}`);
    const inside = enter(cycle);
    if ((command.holdMs ?? 0) > 0) await systemClock.sleep(command.holdMs ?? 0);
    inside.leave();
    const end = preciseNow();
    await admission.release({ outcome: 'success' });
    const released = preciseNow();
    records.push({
      pid: process.pid,
      requested,
      admittedAt: admission.admittedAt,
      start,
      end,
      released,
      seenInside: inside.seen,
    });
  }
  print({ records });
}

/** Admits, holds and releases forever, printing what it saw inside, until it is killed. */
async function churn(coordinator: Coordinator): Promise<void> {
  print({ ready: true });
  for (let cycle = 0; ; cycle += 1) {
    const admission = await coordinator.admit(request);
    if (admission.status !== 'admitted') throw new Error(`unexpected ${admission.status}`);
    const inside = enter(cycle);
    print({ held: cycle, seenInside: inside.seen });
    await systemClock.sleep(Math.random() * (command.holdMs ?? 10));
    inside.leave();
    await admission.release({ outcome: 'success' });
  }
}

async function hold(coordinator: Coordinator): Promise<void> {
  const admission = await coordinator.admit(request);
  print({ status: admission.status, at: preciseNow() });
  await new Promise(() => {});
}

async function admitOnce(coordinator: Coordinator): Promise<void> {
  const started = preciseNow();
  const admission = await coordinator.admit(request).catch((error: unknown) => {
    print({
      error: { message: (error as Error).message, code: (error as { code?: string }).code },
      details: (error as { details?: unknown }).details,
      elapsedMs: preciseNow() - started,
    });
    process.exit(1);
  });
  print({ status: admission.status, elapsedMs: preciseNow() - started });
  if (admission.status === 'admitted') await admission.release({ outcome: 'success' });
  await coordinator.close();
}

async function counter(): Promise<void> {
  await waitForStart();
  const store = createHostStateStore({ stateDirectory: command.stateDirectory, clock: systemClock });
  const key = scopeKey(scope);
  for (let cycle = 0; cycle < (command.cycles ?? 1); cycle += 1) {
    await store.update(key, (bucket, context) => {
      const next = bucket ?? {
        kind: 'search' as const,
        spacingMs: 0,
        leases: [],
        lastStartAt: 0,
        cooldownUntil: 0,
        throttleStreak: 0,
        failureStreak: 0,
        admissions: 0,
        updatedAt: context.now,
      };
      next.admissions += 1;
      next.updatedAt = context.now;
      return { bucket: next, result: undefined };
    });
  }
  print({ done: true });
}

async function benchAdmit(coordinator: Coordinator): Promise<void> {
  await waitForStart();
  const durations: number[] = [];
  const admitDurations: number[] = [];
  // When each cycle ended, on the clock every process shares, so a reader can count the cycles
  // of the stretch in which all processes were contending.
  const ends: number[] = [];
  const started = preciseNow();
  for (let cycle = 0; cycle < (command.cycles ?? 1); cycle += 1) {
    const before = performance.now();
    const admission = await coordinator.admit(request);
    admitDurations.push(performance.now() - before);
    if (admission.status !== 'admitted') throw new Error(`unexpected ${admission.status}`);
    await admission.release({ outcome: 'success' });
    durations.push(performance.now() - before);
    ends.push(preciseNow());
  }
  print({ durations, admitDurations, ends, started, finished: preciseNow() });
}

/** The baseline: an O_EXCL lock polled every millisecond, a read, a plain overwrite, unlock. */
async function benchNaive(): Promise<void> {
  await waitForStart();
  mkdirSync(command.stateDirectory, { recursive: true, mode: 0o700 });
  const path = join(command.stateDirectory, 'naive.json');
  const lockPath = `${path}.lock`;
  const durations: number[] = [];
  const started = preciseNow();
  for (let cycle = 0; cycle < (command.cycles ?? 1); cycle += 1) {
    const before = performance.now();
    await takeNaiveLock(lockPath);
    writeFileSync(path, JSON.stringify({ count: readNaiveCount(path) + 1 }));
    unlinkSync(lockPath);
    durations.push(performance.now() - before);
  }
  print({ durations, started, finished: preciseNow() });
}

async function takeNaiveLock(lockPath: string): Promise<void> {
  for (;;) {
    try {
      closeSync(openSync(lockPath, 'wx'));
      return;
    } catch {
      await systemClock.sleep(1);
    }
  }
}

function readNaiveCount(path: string): number {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { count: number }).count;
  } catch {
    return 0;
  }
}

async function writeForever(coordinator: Coordinator): Promise<void> {
  print({ ready: true });
  // Many scopes make each write a few KiB, so a kill lands mid-write often enough.
  for (let cycle = 0; ; cycle += 1) {
    const admission = await coordinator.admit({
      scope: `${scope}-${cycle % 64}`,
      concurrency: 64,
      spacingMs: 0,
    });
    if (admission.status === 'admitted') await admission.release({ outcome: 'success' });
    // One whole write is on disk: a kill from now on lands in a later one, on a file with buckets.
    if (cycle === 0) print({ wrote: true });
  }
}

const actions: Record<Command['action'], (coordinator: Coordinator) => Promise<void>> = {
  'admit-loop': admitLoop,
  churn,
  hold,
  'admit-once': admitOnce,
  counter,
  'write-forever': writeForever,
  'bench-admit': benchAdmit,
  'bench-naive': benchNaive,
};

async function main(): Promise<void> {
  const coordinator = createChildCoordinator();
  // Only the table's own entries run (not inherited names such as `toString`); an unknown or missing
  // action does nothing.
  if (Object.hasOwn(actions, command.action)) await actions[command.action](coordinator);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    print({
      error:
        error instanceof Error
          ? { message: error.message, code: (error as { code?: string }).code }
          : String(error),
    });
    process.exit(1);
  },
);
