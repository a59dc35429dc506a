// Host-mode admission + release overhead across real processes, against a naive lock + read + write
// baseline measured in the same run. Child processes make tinybench unfit here (it times one
// function in one process), so each child times its own cycles with performance.now().
//
// Run from the repository root:
//   node_modules/.bin/tsx --conditions=@mono-agent/source packages/host-coordination/bench/admission.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compareWithBaseline, formatTable } from '@mono-agent/bench';
import { createCoordinator } from '../src/index.js';
import { writeStateFile } from '../src/state-file.js';
import { bundleChild, startChild } from '../test/child-processes.js';

/** Cycles each child runs; the first few of each child are warm-up and dropped. */
const CYCLES_PER_CHILD: Record<number, number> = { 1: 200, 8: 60 };
const WARM_UP_CYCLES = 5;

interface Row {
  name: string;
  processes: number;
  cycles: number;
  p50: number;
  p99: number;
  perSecond: number;
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function measure(childPath: string, action: string, processes: number): Promise<Row> {
  const parent = mkdtempSync(join(tmpdir(), 'admission-bench-'));
  try {
    const stateDirectory = join(parent, 'web-control');
    const cycles = CYCLES_PER_CHILD[processes] ?? 50;
    // Every child starts at the same moment, after all of them have loaded.
    const startAt = Date.now() + 500 + processes * 50;
    const children = Array.from({ length: processes }, () =>
      startChild(childPath, {
        action,
        stateDirectory,
        scope: 'bench-scope',
        concurrency: processes,
        spacingMs: 0,
        cycles,
        startAt,
      }),
    );
    const results = await Promise.all(children.map((child) => child.exited));
    const durations: number[] = [];
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    for (const result of results) {
      if (result.code !== 0)
        throw new Error(`bench child failed: ${result.stderr} ${JSON.stringify(result.lines)}`);
      const line = result.lines[0] as { durations: number[]; started: number; finished: number };
      durations.push(...line.durations.slice(WARM_UP_CYCLES));
      first = Math.min(first, line.started);
      last = Math.max(last, line.finished);
    }
    durations.sort((left, right) => left - right);
    return {
      name: action === 'bench-admit' ? 'host admit + release' : 'naive lock + read + write (baseline)',
      processes,
      cycles: durations.length,
      p50: percentile(durations, 0.5),
      p99: percentile(durations, 0.99),
      perSecond: (processes * cycles) / ((last - first) / 1000),
    };
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

const childPath = await bundleChild();
process.on('exit', () => rmSync(dirname(childPath), { recursive: true, force: true }));
const rows: { row: Row; baseline: Row }[] = [];
for (const processes of [1, 8]) {
  const baseline = await measure(childPath, 'bench-naive', processes);
  const row = await measure(childPath, 'bench-admit', processes);
  rows.push({ row: baseline, baseline }, { row, baseline });
}

const format = (value: number) => value.toFixed(2);
console.log('\nHost-mode admission + release per cycle, one scope, concurrency = processes, no spacing');
console.log(
  formatTable(
    [
      'case',
      'processes',
      'cycles',
      'p50 ms',
      'p99 ms',
      'cycles/s',
      'ms/cycle (wall)',
      'x baseline p50',
      'x baseline p99',
      'x baseline cycles/s',
    ],
    rows.map(({ row, baseline }) => [
      row.name,
      String(row.processes),
      String(row.cycles),
      format(row.p50),
      format(row.p99),
      format(row.perSecond),
      format(1_000 / row.perSecond),
      format(row.p50 / baseline.p50),
      format(row.p99 / baseline.p99),
      format(row.perSecond / baseline.perSecond),
    ]),
  ),
);

// The floor in one process: each admission and each release is one atomic replace of the file, and
// the two fsyncs in it are most of the cost on a busy disk.
const floorDirectory = mkdtempSync(join(tmpdir(), 'admission-floor-'));
try {
  const stateDirectory = join(floorDirectory, 'web-control');
  const coordinator = createCoordinator({ mode: 'host', stateDirectory });
  const statePath = join(floorDirectory, 'replace.json');
  const text = JSON.stringify({ version: 1, buckets: {} });
  await compareWithBaseline({
    title: 'One process: admit + release against one atomic replace (temp, fsync, rename, directory fsync)',
    baseline: { name: 'atomic replace', run: () => writeStateFile(floorDirectory, statePath, text) },
    candidates: [
      {
        name: 'host admit + release',
        run: async () => {
          const admission = await coordinator.admit({ scope: 'floor', concurrency: 1, spacingMs: 0 });
          if (admission.status === 'admitted') await admission.release({ outcome: 'success' });
        },
      },
    ],
  });
} finally {
  rmSync(floorDirectory, { recursive: true, force: true });
}
