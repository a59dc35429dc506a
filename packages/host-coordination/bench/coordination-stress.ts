// Repeated multi-process stress of the coordinator while two spinning processes keep both cores busy:
// 8 processes at concurrency 2 (never 3 inside), and 6 processes at concurrency 1 with 150 ms spacing
// (no overlap; the gap between callers' starts, taken where admit() resolves). Runs against the host
// state file and, when `redis-server` is installed, a private Redis server. Exits 1 on any violation.
//
//   node_modules/.bin/tsx --conditions=@mono-agent/source packages/host-coordination/bench/coordination-stress.ts \
//     [--repetitions=20] [--store=host|redis|both] [--spinners=2]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hasRedisServer, startRedisServer, type TestRedisServer } from '@mono-agent/test-services';
import { bundleChild, startChild } from '../test/child-processes.js';

interface CycleRecord {
  pid: number;
  start: number;
  end: number;
  seenInside: number;
}

const options = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((argument) => argument.startsWith('--'))
    .map((argument) => {
      const [name, value = 'true'] = argument.slice(2).split('=');
      return [name, value];
    }),
);
const repetitions = Number(options['repetitions'] ?? 20);
const spinnerCount = Number(options['spinners'] ?? 2);
const storeChoice = options['store'] ?? 'both';

/** Starts processes that spin forever, so the coordinator's processes compete for both cores. */
function startSpinners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

async function runRound(
  childPath: string,
  target: { redisUrl?: string; keyPrefix?: string },
  shape: { processes: number; concurrency: number; spacingMs: number; cycles: number; holdMs: number },
): Promise<CycleRecord[]> {
  const parent = mkdtempSync(join(tmpdir(), 'coordination-stress-'));
  try {
    const insideDirectory = join(parent, 'inside');
    mkdirSync(insideDirectory);
    const startAt = Date.now() + 600 + shape.processes * 80;
    const children = Array.from({ length: shape.processes }, () =>
      startChild(childPath, {
        action: 'admit-loop',
        stateDirectory: join(parent, 'web-control'),
        scope: 'stress',
        ...shape,
        ...target,
        insideDirectory,
        startAt,
      }),
    );
    const results = await Promise.all(children.map((child) => child.exited));
    for (const result of results) {
      if (result.code !== 0)
        throw new Error(`child failed: ${result.stderr} ${JSON.stringify(result.lines)}`);
    }
    return results.flatMap((result) =>
      result.lines.flatMap((line) => (line['records'] as CycleRecord[]) ?? []),
    );
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

function peakByIntervals(records: CycleRecord[]): number {
  const events = records.flatMap((cycle) => [
    { at: cycle.start, change: 1 },
    { at: cycle.end, change: -1 },
  ]);
  events.sort((left, right) => left.at - right.at || left.change - right.change);
  let inside = 0;
  let peak = 0;
  for (const event of events) {
    inside += event.change;
    peak = Math.max(peak, inside);
  }
  return peak;
}

function percentile(sorted: number[], fraction: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN
  );
}

async function stressStore(childPath: string, name: string, target: { redisUrl?: string }) {
  let worstInsideMarkers = 0;
  let worstInsideIntervals = 0;
  let overlaps = 0;
  const gaps: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const keyPrefix = `{stress-${process.pid}-${name}-${repetition}}:`;
    const withPrefix = target.redisUrl === undefined ? target : { ...target, keyPrefix };
    const contended = await runRound(childPath, withPrefix, {
      processes: 8,
      concurrency: 2,
      spacingMs: 0,
      cycles: 5,
      holdMs: 30,
    });
    worstInsideMarkers = Math.max(worstInsideMarkers, ...contended.map((cycle) => cycle.seenInside));
    worstInsideIntervals = Math.max(worstInsideIntervals, peakByIntervals(contended));
    const spaced = (
      await runRound(childPath, withPrefix, {
        processes: 6,
        concurrency: 1,
        spacingMs: 150,
        cycles: 2,
        holdMs: 20,
      })
    ).sort((left, right) => left.start - right.start);
    for (let index = 1; index < spaced.length; index += 1) {
      const previous = spaced[index - 1] as CycleRecord;
      const current = spaced[index] as CycleRecord;
      if (current.start <= previous.end) overlaps += 1;
      gaps.push(current.start - previous.start);
    }
    process.stdout.write(
      `${name} repetition ${repetition + 1}/${repetitions}: inside ≤ ${worstInsideMarkers} (markers), ` +
        `${worstInsideIntervals} (intervals); min gap ${Math.min(...gaps).toFixed(1)} ms; load ${loadavg()[0]?.toFixed(2)}\n`,
    );
  }
  gaps.sort((left, right) => left - right);
  return {
    store: name,
    repetitions,
    'most inside (markers)': worstInsideMarkers,
    'most inside (intervals)': worstInsideIntervals,
    overlaps,
    'min gap ms': Number((gaps[0] ?? Number.NaN).toFixed(1)),
    'p5 gap ms': Number(percentile(gaps, 0.05).toFixed(1)),
    'p50 gap ms': Number(percentile(gaps, 0.5).toFixed(1)),
  };
}

async function main(): Promise<void> {
  const childPath = await bundleChild();
  const spinners = startSpinners(spinnerCount);
  let redis: TestRedisServer | undefined;
  const rows = [];
  try {
    const before = loadavg()[0] ?? 0;
    if (storeChoice !== 'redis') rows.push(await stressStore(childPath, 'host', {}));
    if (storeChoice !== 'host') {
      if (hasRedisServer()) {
        redis = await startRedisServer();
        rows.push(await stressStore(childPath, 'redis', { redisUrl: redis.url }));
      } else console.log('redis-server is not installed (pnpm setup:system); the Redis store was skipped');
    }
    console.table(rows);
    console.log(
      `spinners: ${spinnerCount}; load average (1 min) ${before.toFixed(2)} at start, ${loadavg()[0]?.toFixed(2)} at end`,
    );
  } finally {
    for (const spinner of spinners) spinner.kill('SIGKILL');
    await redis?.dispose();
    rmSync(dirname(childPath), { recursive: true, force: true });
  }
  const failed = rows.filter(
    (row) => row['most inside (markers)'] > 2 || row['most inside (intervals)'] > 2 || row.overlaps > 0,
  );
  if (failed.length > 0) {
    console.error(`violations in: ${failed.map((row) => row.store).join(', ')}`);
    process.exit(1);
  }
}

await main();
