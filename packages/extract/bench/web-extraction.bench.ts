// HTML extraction on two page sets: WCXB's development split (1,358 pages from 2025 in seven page
// types) and the Zyte article set (181 news pages from 2019). For this project's extract(), Defuddle
// on linkedom and Readability on jsdom, run in one process page by page interleaved (and Mercury with
// extract in a second process, see OWN_PROCESS_PIPELINES), it prints per
// page type the upstream shingle F1 (with P and R), WCXB's word-F1 (over all pages, and over the
// pages whose truth has text), empty outputs where the truth has text, crashes, the Markdown check
// (WCXB's `with` snippets found, `without` snippets absent) and the median time per page with its
// ratio to each baseline (and, on the Zyte set, extract's ratios again with each pipeline in a worker
// thread, as WebFetch extracts). The project's peak RSS comes from a process of its own that extracts
// every page of the set as WebFetch does: in the extraction pool's worker, with the pool's heap
// limits, from the built package run by node alone (peak-rss.mjs; the package is built first). A TypeScript loader would add its own threads and caches: the same run
// under tsx peaked about 90 MB higher. (extract() called in a process without limits lets V8 grow
// its heap far past what the extraction keeps alive: about 700 MB over 210 WCXB pages.)
//
// Run from the repository root: pnpm bench -- extract
// Environment:
//   MONO_AGENT_BENCH_DATA            folder holding wcxb-dev/, article-extraction/ and the scorer
//                                    (default ../shared/bench, else ../../shared/bench, from the repository root)
//   MONO_AGENT_EXTRACT_BENCH_SAMPLE  pages per page type (a fixed, stratified subset), default all
//   MONO_AGENT_EXTRACT_BENCH_SETS    comma-separated subset of wcxb,zyte
//   MONO_AGENT_EXTRACT_BENCH_PIPELINES  comma-separated subset of the pipelines (extract first)
//   MONO_AGENT_EXTRACT_BENCH_KEEP    folder to keep the workers' raw outputs in, for inspection
//   MONO_AGENT_EXTRACT_BENCH_THREAD_SETS  sets whose speed is also measured in a worker thread, as
//                                    WebFetch extracts (default zyte; empty for none)
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { PipelineRun, WorkerResult } from './extraction-worker.js';

const execute = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../..');
// The data sets are large and not in the repository: they sit in a `shared/bench` folder beside the
// checkout (or beside the folder holding it, for a checkout in a worktree folder).
const dataRoot = resolve(
  process.env.MONO_AGENT_BENCH_DATA ??
    [join(repositoryRoot, '../shared/bench'), join(repositoryRoot, '../../shared/bench')].find((folder) =>
      existsSync(folder),
    ) ??
    join(repositoryRoot, '../shared/bench'),
);
const sample = Number(process.env.MONO_AGENT_EXTRACT_BENCH_SAMPLE ?? 0) || undefined;
const keep = process.env.MONO_AGENT_EXTRACT_BENCH_KEEP;
const PIPELINES = ['extract', 'defuddle-linkedom', 'readability-jsdom', 'mercury'];
/**
 * Pipelines compared with extract in a process of their own. Mercury's modules (cheerio, moment's
 * time zone data) enlarge the heap that every pipeline of a process collects: in one process with the
 * other three, extract's median CPU time on the Zyte set rose from 68 to 79 ms and Defuddle's from
 * 147 to 153. Its ratio is taken against extract's time in that process.
 */
const OWN_PROCESS_PIPELINES = ['mercury'];
const pipelines = (process.env.MONO_AGENT_EXTRACT_BENCH_PIPELINES ?? PIPELINES.join(','))
  .split(',')
  .filter((name) => PIPELINES.includes(name));
const SETS = [
  { key: 'wcxb', folder: 'wcxb-dev', title: 'WCXB dev split (2025, seven page types)' },
  { key: 'zyte', folder: 'article-extraction', title: 'Zyte article set (2019 news)' },
];
const wantedSets = (process.env.MONO_AGENT_EXTRACT_BENCH_SETS ?? 'wcxb,zyte').split(',');

interface TruthEntry {
  articleBody: string;
  url: string;
  pageType?: string;
  with?: string[];
  without?: string[];
}

interface Metrics {
  f1: number;
  precision: number;
  recall: number;
  word_f1?: number;
  f1_std?: number;
}

interface Scorer {
  evaluate(
    truth: Record<string, string>,
    prediction: Record<string, string>,
    options: { nBootstrap: number; wordF1: boolean },
  ): { metrics: Metrics };
  tokenize(text: string): string[];
}

const scorerFile = join(dataRoot, 'score-article-extraction.mjs');
if (!existsSync(scorerFile)) {
  console.log(`skipped: no benchmark data at ${dataRoot} (set MONO_AGENT_BENCH_DATA to the folder)`);
  process.exit(0);
}
const scorer = (await import(pathToFileURL(scorerFile).href)) as Scorer;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Lower-cased words joined by single spaces: snippets match whatever punctuation or Markdown surrounds them. */
const normalizeForSnippets = (text: string) =>
  ` ${(
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ')} `;

/** A fixed subset: per page type, the pages whose id hashes lowest. */
function selectIds(entries: Record<string, TruthEntry>): string[] {
  const byType = new Map<string, string[]>();
  for (const [id, entry] of Object.entries(entries)) {
    const type = entry.pageType ?? 'article';
    byType.set(type, [...(byType.get(type) ?? []), id]);
  }
  const hash = (id: string) => createHash('sha1').update(id).digest('hex');
  const chosen: string[] = [];
  for (const ids of byType.values()) {
    const ordered = ids.sort((a, b) => (hash(a) < hash(b) ? -1 : 1));
    chosen.push(...(sample === undefined ? ordered : ordered.slice(0, sample)));
  }
  return chosen.sort();
}

/** Where a comparison process runs its pipelines: its main thread, or one worker thread. */
type Thread = 'main' | 'worker';

async function runWorker(dataset: string, idsFile: string, outFile: string, names: string[], thread: Thread) {
  await execute(
    process.execPath,
    [
      '--conditions=@mono-agent/source',
      '--import',
      'tsx',
      join(here, 'extraction-worker.ts'),
      dataset,
      idsFile,
      outFile,
      names.join(','),
      ...(thread === 'worker' ? ['--thread', 'worker'] : []),
    ],
    { cwd: here, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(readFileSync(outFile, 'utf8')) as WorkerResult;
}

/** The most a process extracting every page of a set through the pool may hold, in MB (10^6 bytes). */
const PEAK_RSS_TARGET_MB = 250;

/** What peak-rss.mjs writes. */
interface PeakRssResult {
  peakRssBytes: number;
  pages: number;
  crashes: string[];
}

let built = false;

/** The peak RSS of a process extracting `ids` through the built package's pool (peak-rss.mjs). */
async function runPeakRss(dataset: string, pagesFile: string, outFile: string): Promise<PeakRssResult> {
  if (!built) {
    // The package with the workspace packages it imports: its type declarations need theirs, which a
    // fresh checkout has not built yet.
    await execute('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@mono-agent/extract...'], {
      cwd: repositoryRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
    built = true;
  }
  await execute(process.execPath, [join(here, 'peak-rss.mjs'), dataset, pagesFile, outFile], {
    cwd: here,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(readFileSync(outFile, 'utf8')) as PeakRssResult;
}

/**
 * Pages per comparison process. jsdom holds on to memory across pages (a process over all 1,358
 * WCXB pages ran out of its 4 GB heap), so the comparison runs in processes of this many pages each,
 * one after another; the pipelines still alternate page by page inside each.
 */
const COMPARE_CHUNK = 200;

/** The comparison over `ids`, in processes of {@link COMPARE_CHUNK} pages, merged. */
async function runComparison(
  dataset: string,
  ids: string[],
  prefix: string,
  names: string[],
  thread: Thread = 'main',
) {
  const merged: WorkerResult = { runs: {}, peakRssBytes: 0, logged: 0 };
  for (let start = 0; start < ids.length; start += COMPARE_CHUNK) {
    const idsFile = `${prefix}-${start}-ids.json`;
    writeFileSync(idsFile, JSON.stringify(ids.slice(start, start + COMPARE_CHUNK)));
    const part = await runWorker(dataset, idsFile, `${prefix}-${start}.json`, names, thread);
    merged.speedups ??= part.speedups;
    merged.peakRssBytes = Math.max(merged.peakRssBytes, part.peakRssBytes);
    merged.logged += part.logged;
    for (const [name, run] of Object.entries(part.runs)) {
      const into = merged.runs[name] ?? {
        text: {},
        markdown: {},
        stage: {},
        pageMs: {},
        pageCpuMs: {},
        crashes: [],
      };
      merged.runs[name] = into;
      Object.assign(into.text, run.text);
      Object.assign(into.markdown, run.markdown);
      Object.assign(into.stage, run.stage);
      Object.assign(into.pageMs, run.pageMs);
      Object.assign(into.pageCpuMs, run.pageCpuMs);
      into.crashes.push(...run.crashes);
    }
  }
  return merged;
}

/** Markdown defects a model should never read: leftover tags, links without text, unsafe targets. */
function markdownDefects(markdown: string): { html: number; emptyLinks: number; unsafeLinks: number } {
  const outsideBlocks = markdown.replace(/```[\s\S]*?```/g, '');
  // Inline code is stripped only for the tag count: a link may well be written as [`fetch()`](…).
  const withoutCode = outsideBlocks.replace(/`[^`\n]*`/g, '');
  return {
    html: (
      withoutCode.match(/<\/?(div|span|p|a|img|table|tr|td|br|script|style|iframe|button)\b[^>]*>/gi) ?? []
    ).length,
    emptyLinks: (outsideBlocks.match(/(?<!!)\[\s*\]\([^)]*\)/g) ?? []).length,
    unsafeLinks: (outsideBlocks.match(/\]\(\s*(javascript|data|vbscript|file):/gi) ?? []).length,
  };
}

/**
 * Sets whose speed is also measured in a worker thread (`MONO_AGENT_EXTRACT_BENCH_THREAD_SETS`,
 * default the Zyte set, on which the speed targets are set).
 */
const threadSets = (process.env.MONO_AGENT_EXTRACT_BENCH_THREAD_SETS ?? 'zyte').split(',');

/**
 * The speed as WebFetch extracts: extract paired with each baseline in one worker thread of a process
 * of their own, with the extraction pool's young generation. In a worker, extract also makes a node's
 * listener map only when something listens (the `listenerMaps` speed-up, which changes a built-in
 * for a moment and so is never installed in a process's main thread, where a library user may call
 * extract()). The baselines' linkedom is the package entry, which no speed-up touches.
 */
async function printWorkerThreadSpeed(dataset: string, ids: string[], prefix: string): Promise<void> {
  const rows: Record<string, string>[] = [];
  let speedups: Record<string, string> | undefined;
  for (const baseline of pipelines.filter((name) => name === 'defuddle-linkedom' || name === 'mercury')) {
    const run = await runComparison(dataset, ids, `${prefix}-${baseline}`, ['extract', baseline], 'worker');
    speedups ??= run.speedups;
    const cpu = (name: string) => median(ids.map((id) => run.runs[name]?.pageCpuMs[id] ?? 0));
    rows.push({
      'paired with': baseline,
      'extract median CPU ms/page': format(cpu('extract'), 1),
      'baseline median CPU ms/page': format(cpu(baseline), 1),
      'extract x baseline': format(cpu('extract') / cpu(baseline), 2),
    });
  }
  if (rows.length === 0) return;
  console.log(
    "Speed in a worker thread, as WebFetch extracts (extract and one baseline per process, page by page interleaved, in one worker thread with the extraction pool's young generation)",
  );
  console.table(rows);
  if (speedups !== undefined)
    console.log(`linkedom speed-ups in extract's thread: ${JSON.stringify(speedups)}`);
}

const format = (value: number | undefined, digits = 3) =>
  value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);

const scratch = mkdtempSync(join(tmpdir(), 'extract-bench-'));
try {
  for (const set of SETS) {
    if (!wantedSets.includes(set.key)) continue;
    const dataset = join(dataRoot, set.folder);
    if (!existsSync(join(dataset, 'ground-truth.json'))) {
      console.log(`\n${set.title}: skipped, ${dataset} is missing`);
      continue;
    }
    const entries = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8')) as Record<
      string,
      TruthEntry
    >;
    const ids = selectIds(entries);
    const idsFile = join(scratch, `${set.key}-ids.json`);
    writeFileSync(idsFile, JSON.stringify(ids));
    // The RSS process gets each page's address alone, not the ground truth (see peak-rss.mjs).
    const pagesFile = join(scratch, `${set.key}-pages.json`);
    writeFileSync(pagesFile, JSON.stringify(ids.map((id) => ({ id, url: entries[id]?.url ?? '' }))));
    const started = performance.now();
    // The RSS process runs beside the comparison; the comparison's figures are CPU time per page,
    // which another process on the other core does not inflate.
    const shared = pipelines.filter((name) => !OWN_PROCESS_PIPELINES.includes(name));
    const [comparison, own] = await Promise.all([
      runComparison(dataset, ids, join(scratch, `${set.key}-compare`), shared),
      pipelines.includes('extract')
        ? runPeakRss(dataset, pagesFile, join(scratch, `${set.key}-rss.json`))
        : Promise.resolve(undefined),
    ]);
    // Mercury against extract in a process of their own (see OWN_PROCESS_PIPELINES), afterwards.
    const paired: Record<string, { extract: PipelineRun; other: PipelineRun }> = {};
    for (const name of pipelines.filter((name) => OWN_PROCESS_PIPELINES.includes(name))) {
      const run = await runComparison(dataset, ids, join(scratch, `${set.key}-${name}`), ['extract', name]);
      comparison.runs[name] = run.runs[name] as PipelineRun;
      paired[name] = { extract: run.runs.extract as PipelineRun, other: run.runs[name] as PipelineRun };
    }
    const seconds = (performance.now() - started) / 1000;
    if (keep !== undefined) {
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, `${set.key}-compare.json`), JSON.stringify(comparison));
      writeFileSync(join(keep, `${set.key}-ids.json`), JSON.stringify(ids));
    }
    const types = [...new Set(ids.map((id) => entries[id]?.pageType ?? 'article'))].sort();
    const groups: [string, string[]][] = [
      ...types.map((type): [string, string[]] => [
        type,
        ids.filter((id) => (entries[id]?.pageType ?? 'article') === type),
      ]),
      ...(types.length > 1 ? [['all', ids] as [string, string[]]] : []),
    ];
    console.log(
      `\n${set.title}: ${ids.length} pages${sample === undefined ? '' : ` (${sample} per type)`}, ${seconds.toFixed(0)} s`,
    );
    const qualityRows: Record<string, string | number>[] = [];
    const snippetRows: Record<string, string | number>[] = [];
    for (const [group, groupIds] of groups) {
      const truth = Object.fromEntries(groupIds.map((id) => [id, entries[id]?.articleBody ?? '']));
      const withText = groupIds.filter((id) => scorer.tokenize(truth[id] ?? '').length > 0);
      for (const name of pipelines) {
        const run = comparison.runs[name] as PipelineRun;
        const prediction = Object.fromEntries(groupIds.map((id) => [id, run.text[id] ?? '']));
        const { metrics } = scorer.evaluate(truth, prediction, {
          nBootstrap: group === 'all' || types.length === 1 ? 1000 : 0,
          wordF1: true,
        });
        const empty = withText.filter((id) => scorer.tokenize(prediction[id] ?? '').length === 0).length;
        // Word-F1 counts a page whose truth is empty as 0 for any output at all: 21 WCXB pages (a
        // chart of 250 films, a shop's category, a thread whose `with` snippets the body lacks)
        // have an empty truth, drafted by an extractor that found nothing there.
        const onText = scorer.evaluate(
          Object.fromEntries(withText.map((id) => [id, truth[id] ?? ''])),
          Object.fromEntries(withText.map((id) => [id, prediction[id] ?? ''])),
          { nBootstrap: 0, wordF1: true },
        ).metrics;
        qualityRows.push({
          type: group,
          pages: groupIds.length,
          pipeline: name,
          F1:
            metrics.f1_std === undefined
              ? format(metrics.f1)
              : `${format(metrics.f1)} ± ${format(metrics.f1_std)}`,
          P: format(metrics.precision),
          R: format(metrics.recall),
          'word-F1': format(metrics.word_f1),
          'word-F1 (truth has text)': withText.length === groupIds.length ? '=' : format(onText.word_f1),
          'empty (truth has text)': empty,
          crashes: groupIds.filter((id) => run.crashes.includes(id)).length,
        });
        let withTotal = 0;
        let withFound = 0;
        let withoutTotal = 0;
        let withoutAbsent = 0;
        for (const id of groupIds) {
          const text = normalizeForSnippets(run.text[id] ?? '');
          for (const snippet of entries[id]?.with ?? []) {
            const wanted = normalizeForSnippets(snippet);
            if (wanted.trim() === '') continue;
            withTotal++;
            if (text.includes(wanted)) withFound++;
          }
          for (const snippet of entries[id]?.without ?? []) {
            const unwanted = normalizeForSnippets(snippet);
            if (unwanted.trim() === '') continue;
            withoutTotal++;
            if (!text.includes(unwanted)) withoutAbsent++;
          }
        }
        const defects = { html: 0, emptyLinks: 0, unsafeLinks: 0 };
        if (name === 'extract') {
          for (const id of groupIds) {
            const found = markdownDefects(run.markdown[id] ?? '');
            defects.html += found.html;
            defects.emptyLinks += found.emptyLinks;
            defects.unsafeLinks += found.unsafeLinks;
          }
        }
        if (withTotal + withoutTotal > 0 || name === 'extract') {
          snippetRows.push({
            type: group,
            pipeline: name,
            '`with` found':
              withTotal === 0 ? '-' : `${format(withFound / withTotal)} (${withFound}/${withTotal})`,
            '`without` absent':
              withoutTotal === 0
                ? '-'
                : `${format(withoutAbsent / withoutTotal)} (${withoutAbsent}/${withoutTotal})`,
            'leftover HTML tags': name === 'extract' ? defects.html : '-',
            'empty links': name === 'extract' ? defects.emptyLinks : '-',
            'unsafe links': name === 'extract' ? defects.unsafeLinks : '-',
          });
        }
      }
    }
    console.log(
      'Quality (F1, P, R: upstream shingle metric on text; word-F1: WCXB metric; "=": every truth has text)',
    );
    console.table(qualityRows);
    console.log('Markdown check (snippets matched on lower-cased words of the output text)');
    console.table(snippetRows);
    const speedRows = pipelines.map((name) => {
      const run = comparison.runs[name] as PipelineRun;
      const cpu = median(ids.map((id) => run.pageCpuMs[id] ?? 0));
      const wall = median(ids.map((id) => run.pageMs[id] ?? 0));
      // Only times taken in one process are compared: a pipeline of its own process (Mercury) against
      // extract's time in that process, the others against each other.
      const ratio = (baseline: string) => {
        if (name === baseline) return '1.00';
        const pair = paired[baseline];
        if (pair !== undefined) {
          if (name !== 'extract') return '-';
          return format(
            median(ids.map((id) => pair.extract.pageCpuMs[id] ?? 0)) /
              median(ids.map((id) => pair.other.pageCpuMs[id] ?? 0)),
            2,
          );
        }
        const other = comparison.runs[baseline];
        if (OWN_PROCESS_PIPELINES.includes(name) || other === undefined) return '-';
        return format(cpu / median(ids.map((id) => other.pageCpuMs[id] ?? 0)), 2);
      };
      return {
        pipeline: name,
        'median CPU ms/page': format(cpu, 1),
        'x readability-jsdom': ratio('readability-jsdom'),
        'x defuddle-linkedom': ratio('defuddle-linkedom'),
        'x mercury': ratio('mercury'),
        'median wall ms/page': format(wall, 1),
        'peak RSS MB (own process, extraction pool)':
          name === 'extract' && own !== undefined ? format(own.peakRssBytes / 1e6, 1) : '-',
        [`x ${PEAK_RSS_TARGET_MB} MB target`]:
          name === 'extract' && own !== undefined
            ? format(own.peakRssBytes / 1e6 / PEAK_RSS_TARGET_MB, 2)
            : '-',
      };
    });
    console.log('Speed (same process, page by page interleaved; CPU time is the compared figure)');
    console.table(speedRows);
    if (threadSets.includes(set.key) && pipelines.includes('extract')) {
      await printWorkerThreadSpeed(dataset, ids, join(scratch, `${set.key}-thread`));
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
