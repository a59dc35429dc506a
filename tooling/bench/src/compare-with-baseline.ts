import { Bench } from 'tinybench';
import { formatTable } from './format-table.js';

/** One function to measure. */
export interface BenchmarkCase {
  /** Row label. */
  name: string;
  /** The work of one iteration. */
  run: () => unknown;
}

/** Options of {@link compareWithBaseline}. */
export interface CompareOptions {
  /** Title printed above the table. */
  title: string;
  /** The reference every other case is divided by. */
  baseline: BenchmarkCase;
  /** The cases under test. */
  candidates: readonly BenchmarkCase[];
  /** Minimum measuring time per case, in milliseconds. */
  timeMs?: number;
}

/** One row of the result. */
export interface ComparisonRow {
  /** Case name. */
  name: string;
  /** Median time of one iteration, in milliseconds. */
  medianMs: number;
  /** 99th percentile of one iteration, in milliseconds. */
  p99Ms: number;
  /** Iterations per second. */
  operationsPerSecond: number;
  /** medianMs divided by the baseline's medianMs: below 1 is faster than the baseline. */
  ratioToBaseline: number;
}

/**
 * Measures the baseline and every candidate in the same process run, prints a table with each
 * case's median time as a ratio of the baseline's, and returns the rows.
 */
export async function compareWithBaseline(options: CompareOptions): Promise<ComparisonRow[]> {
  const bench = new Bench({ time: options.timeMs ?? 500, warmup: true });
  for (const benchmarkCase of [options.baseline, ...options.candidates]) {
    bench.add(benchmarkCase.name, benchmarkCase.run);
  }
  await bench.run();
  const measured = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') {
      throw new Error(`benchmark case '${task.name}' did not complete (${result.state})`);
    }
    return {
      name: task.name,
      medianMs: result.latency.p50,
      p99Ms: result.latency.p99,
      operationsPerSecond: result.throughput.mean,
    };
  });
  const baselineMedian = measured[0]!.medianMs;
  const rows = measured.map((row) => ({ ...row, ratioToBaseline: row.medianMs / baselineMedian }));
  printComparison(options.title, rows);
  return rows;
}

/** Prints rows as the table every benchmark of the workspace uses. */
export function printComparison(title: string, rows: readonly ComparisonRow[]): void {
  console.log(`\n${title}`);
  console.log(
    formatTable(
      ['case', 'median ms', 'p99 ms', 'ops/s', 'x baseline'],
      rows.map((row, index) => [
        index === 0 ? `${row.name} (baseline)` : row.name,
        row.medianMs.toFixed(4),
        row.p99Ms.toFixed(4),
        Math.round(row.operationsPerSecond).toString(),
        row.ratioToBaseline.toFixed(3),
      ]),
    ),
  );
}
