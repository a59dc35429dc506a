// Article extraction on the Zyte benchmark: quality (upstream's shingle F1) and speed (median ms per
// page, peak RSS of a process extracting all pages one after another) of extract() in text format,
// against Readability on jsdom, on happy-dom and on linkedom, each pipeline in its own child process.
// Ratios are against Readability on jsdom in the same run.
//
// Run from the repository root: node --import tsx packages/extract/bench/article-extraction.bench.ts
// MONO_AGENT_ARTICLE_BENCH sets the dataset folder (default ../shared/bench/article-extraction from
// the repository root); the scorer is read from the folder above it. MONO_AGENT_ARTICLE_BENCH_ROUNDS
// repeats the speed runs, interleaved, and keeps each pipeline's median of medians.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../..');
const dataset = resolve(
  process.env.MONO_AGENT_ARTICLE_BENCH ?? join(repositoryRoot, '../shared/bench/article-extraction'),
);
const rounds = Math.max(1, Number(process.env.MONO_AGENT_ARTICLE_BENCH_ROUNDS ?? 1));
const PIPELINES = ['extract', 'readability-jsdom', 'readability-happy-dom', 'readability-linkedom'] as const;
const BASELINE = 'readability-jsdom';

interface WorkerResult {
  name: string;
  output: Record<string, string>;
  pageMs: number[];
  pageCpuMs: number[];
  crashes: string[];
  importMs: number;
  logged: number;
  peakRssBytes: number;
}

interface ScoreMetrics {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
  emptyPredictions: number;
  f1_std?: number;
}

const scorer = (await import(pathToFileURL(join(dataset, '../score-article-extraction.mjs')).href)) as {
  evaluate(
    truth: Record<string, string>,
    prediction: Record<string, string>,
    options: { nBootstrap: number },
  ): { metrics: ScoreMetrics };
};
const groundTruth = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8')) as Record<
  string,
  { articleBody: string }
>;
const truth = Object.fromEntries(Object.entries(groundTruth).map(([id, entry]) => [id, entry.articleBody]));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const scratch = mkdtempSync(join(tmpdir(), 'extract-bench-'));
const results = new Map<string, WorkerResult[]>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const pipeline of PIPELINES) {
      const outFile = join(scratch, `${pipeline}-${round}.json`);
      await run(
        process.execPath,
        [
          '--conditions=@mono-agent/source',
          '--import',
          'tsx',
          join(here, 'article-extraction-worker.ts'),
          pipeline,
          dataset,
          outFile,
        ],
        { cwd: here, maxBuffer: 16 * 1024 * 1024 },
      );
      const result = JSON.parse(readFileSync(outFile, 'utf8')) as WorkerResult;
      results.set(pipeline, [...(results.get(pipeline) ?? []), result]);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const rows = PIPELINES.map((pipeline) => {
  const runs = results.get(pipeline) ?? [];
  const first = runs[0];
  if (first === undefined) throw new Error(`no result for ${pipeline}`);
  const { metrics } = scorer.evaluate(truth, first.output, { nBootstrap: 1000 });
  return {
    pipeline,
    metrics,
    crashes: first.crashes.length,
    medianMs: median(runs.map((result) => median(result.pageMs))),
    medianCpuMs: median(runs.map((result) => median(result.pageCpuMs))),
    totalMs: median(runs.map((result) => result.pageMs.reduce((sum, ms) => sum + ms, 0))),
    peakRssMb: Math.max(...runs.map((result) => result.peakRssBytes)) / 1024 / 1024,
    importMs: median(runs.map((result) => result.importMs)),
  };
});
const baseline = rows.find((row) => row.pipeline === BASELINE);
if (baseline === undefined) throw new Error('baseline missing');
console.log(
  `Zyte article set (${Object.keys(truth).length} pages), ${rounds} round(s); text output scored with the upstream metric.`,
);
console.table(
  rows.map((row) => ({
    pipeline: row.pipeline,
    F1: `${row.metrics.f1.toFixed(3)} ± ${(row.metrics.f1_std ?? 0).toFixed(3)}`,
    P: row.metrics.precision.toFixed(3),
    R: row.metrics.recall.toFixed(3),
    acc: row.metrics.accuracy.toFixed(3),
    empty: row.metrics.emptyPredictions,
    crashes: row.crashes,
    'median ms/page': row.medianMs.toFixed(1),
    'median ratio': (row.medianMs / baseline.medianMs).toFixed(2),
    'median CPU ms': row.medianCpuMs.toFixed(1),
    'CPU ratio': (row.medianCpuMs / baseline.medianCpuMs).toFixed(2),
    'Σ page ms': Math.round(row.totalMs),
    'peak RSS MB': Math.round(row.peakRssMb),
    'RSS ratio': (row.peakRssMb / baseline.peakRssMb).toFixed(2),
    'import ms': Math.round(row.importMs),
  })),
);
