// What each linkedom speed-up (src/linkedom/) buys. Every variant runs in a worker thread of this one
// process: all speed-ups, none, and each one left out in turn (the selector cache without its
// indexes too, which need it). The pages are processed one after another and, on each page, every
// variant extracts it once, in an order that rotates from page to page, so that machine load and JIT
// warm-up fall on all of them alike. The workers have the pool's young-generation size, and after
// each page a full collection is counted with it, so that a page pays for the garbage it leaves.
// Only one extraction runs at a time, so the process's CPU time over a page is that variant's. It
// prints, per variant, the CPU and wall time over the sample and against all speed-ups, and checks
// that every variant wrote the same document for every page.
//
// With --through-pool <folder> it records instead what the extraction pool (createExtractionPool,
// one worker) makes of the sample's pages, in compare-extraction.ts's layout, so that the pool's
// output before and after a change can be compared with that script's --compare.
//
// Run from the repository root:
//   pnpm exec tsx --conditions=@mono-agent/source packages/extract/bench/linkedom-speedups.ts [--per-type N] [--zyte N] [--out results.json]
//   pnpm exec tsx --conditions=@mono-agent/source packages/extract/bench/linkedom-speedups.ts --through-pool <folder> [--per-type N] [--zyte N]
// --per-type: WCXB pages per page type (the ones whose id hashes lowest), default 12; --zyte: Zyte
// article pages, default 24. MONO_AGENT_BENCH_DATA as for compare-extraction.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, type Worker, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { LinkedomSpeedup } from '../src/linkedom/install.js';
import { startTsxWorker } from './tsx-worker.js';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../..');
const dataRoot = resolve(
  process.env.MONO_AGENT_BENCH_DATA ??
    [join(repositoryRoot, '../shared/bench'), join(repositoryRoot, '../../shared/bench')].find((folder) =>
      existsSync(folder),
    ) ??
    join(repositoryRoot, '../shared/bench'),
);

/** A variant: the speed-ups it leaves out. */
const VARIANTS: Record<string, LinkedomSpeedup[]> = {
  all: [],
  none: ['selectorCache', 'subtreeIndexes', 'elementAccessors', 'listenerMaps'],
  'without selectorCache': ['selectorCache', 'subtreeIndexes'],
  'without subtreeIndexes': ['subtreeIndexes'],
  'without elementAccessors': ['elementAccessors'],
  'without listenerMaps': ['listenerMaps'],
};

/** The old generation of a variant's worker: room enough that no variant runs out on a large page. */
const WORKER_HEAP_MB = 1024;

/** Pages each variant extracts before the measured ones, for the JIT. */
const WARM_UP_PAGES = 4;

interface Page {
  set: string;
  id: string;
  url: string;
  html: Uint8Array;
}

interface Task {
  html: Uint8Array;
  url: string;
}

interface Done {
  /** A digest of the whole document (or of the error). */
  digest: string;
  /** This worker thread's CPU time over the extraction and the collection after it. */
  threadMs: number;
}

if (isMainThread) await main();
else await serve();

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const perType = Number(option('--per-type') ?? 12);
  const zyte = Number(option('--zyte') ?? 24);
  const pages = readPages(perType, zyte);
  const poolFolder = option('--through-pool');
  if (poolFolder !== undefined) {
    await recordThroughPool(pages, poolFolder);
    return;
  }
  await measure(pages, option('--out'));
}

/** The sample: per WCXB page type the `perType` ids that hash lowest, and as many Zyte pages. */
function readPages(perType: number, zyte: number): Page[] {
  const hash = (id: string) => createHash('sha1').update(id).digest('hex');
  const pages: Page[] = [];
  for (const [set, folder, count, byType] of [
    ['wcxb', 'wcxb-dev', perType, true],
    ['zyte', 'article-extraction', zyte, false],
  ] as const) {
    const dataset = join(dataRoot, folder);
    const truth = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8')) as Record<
      string,
      { url: string; pageType?: string }
    >;
    const groups = new Map<string, string[]>();
    for (const [id, entry] of Object.entries(truth)) {
      const group = byType ? (entry.pageType ?? 'article') : 'all';
      groups.set(group, [...(groups.get(group) ?? []), id]);
    }
    const ids = [...groups.values()]
      .flatMap((group) => group.sort((a, b) => (hash(a) < hash(b) ? -1 : 1)).slice(0, count))
      .sort();
    for (const id of ids) {
      const html = new Uint8Array(gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`))));
      // A few pages of the data sets have no recorded URL; any http(s) URL stands in for it.
      pages.push({ set, id, url: truth[id]?.url || 'https://page-without-url.invalid/', html });
    }
  }
  return pages;
}

/** Runs every page through every variant, interleaved, and prints the times. */
async function measure(pages: Page[], out: string | undefined): Promise<void> {
  const { createFlagLock } = await import('../src/pool/worker-heap.js');
  const flagLock = createFlagLock();
  const names = Object.keys(VARIANTS);
  const workers = new Map<string, Worker>();
  for (const name of names) {
    // This file again, as each worker's code, through tsx as the extraction pool loads its worker's.
    // One at a time: their start-up is not measured, but it would crowd the ones already started.
    const worker = await startTsxWorker(import.meta.url, { skip: VARIANTS[name], flagLock }, WORKER_HEAP_MB);
    const report = await new Promise<Record<string, string>>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    console.log(`${name}: ${JSON.stringify(report)}`);
    workers.set(name, worker);
  }
  const run = (name: string, page: Page) =>
    new Promise<Done & { cpuMs: number; wallMs: number }>((resolve, reject) => {
      const worker = workers.get(name) as Worker;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const failed = (error: Error) => {
        worker.off('message', done);
        reject(error);
      };
      const done = (reply: Done) => {
        const used = process.cpuUsage(cpu);
        worker.off('error', failed);
        resolve({ ...reply, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started });
      };
      worker.once('message', done);
      worker.once('error', failed);
      worker.postMessage({ html: page.html.slice(), url: page.url } satisfies Task);
    });

  for (const page of pages.slice(0, WARM_UP_PAGES)) for (const name of names) await run(name, page);
  const results = new Map(names.map((name) => [name, [] as (Done & { cpuMs: number; wallMs: number })[]]));
  const differing: string[] = [];
  const started = performance.now();
  for (const [index, page] of pages.entries()) {
    const order = names.map((_, at) => names[(at + index) % names.length] as string);
    const digests = new Map<string, string>();
    for (const name of order) {
      const done = await run(name, page);
      results.get(name)?.push(done);
      digests.set(name, done.digest);
    }
    if (new Set(digests.values()).size > 1) differing.push(`${page.set}/${page.id}`);
    if ((index + 1) % 10 === 0) {
      const minutes = ((performance.now() - started) / 60_000).toFixed(1);
      console.log(`${index + 1}/${pages.length} pages, ${minutes} min`);
    }
  }
  for (const worker of workers.values()) await worker.terminate();

  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  };
  const all = results.get('all') ?? [];
  const rows = names.map((name) => {
    const runs = results.get(name) ?? [];
    const ratios = runs.map((done, at) => done.cpuMs / (all[at]?.cpuMs ?? Number.NaN));
    return {
      variant: name,
      cpuSeconds: sum(runs.map((done) => done.cpuMs)) / 1000,
      threadCpuSeconds: sum(runs.map((done) => done.threadMs)) / 1000,
      wallSeconds: sum(runs.map((done) => done.wallMs)) / 1000,
      cpuOverAll: sum(runs.map((done) => done.cpuMs)) / sum(all.map((done) => done.cpuMs)),
      wallOverAll: sum(runs.map((done) => done.wallMs)) / sum(all.map((done) => done.wallMs)),
      pageRatioQuartiles: [0.25, 0.5, 0.75].map((q) => quantile(ratios, q)),
    };
  });
  console.log(`\n${pages.length} pages (${WARM_UP_PAGES} more to warm up), each variant in its own worker:`);
  console.log(
    'variant                     CPU s  (thread)   wall s   CPU/all  wall/all  page CPU/all q1 q2 q3',
  );
  for (const row of rows) {
    console.log(
      [
        row.variant.padEnd(26),
        row.cpuSeconds.toFixed(1).padStart(7),
        `(${row.threadCpuSeconds.toFixed(1)})`.padStart(9),
        row.wallSeconds.toFixed(1).padStart(8),
        row.cpuOverAll.toFixed(3).padStart(9),
        row.wallOverAll.toFixed(3).padStart(9),
        `  ${row.pageRatioQuartiles.map((value) => value.toFixed(3)).join(' ')}`,
      ].join(' '),
    );
  }
  console.log(`pages whose document differs between variants: ${differing.length} ${differing.join(' ')}`);
  if (out !== undefined)
    writeFileSync(out, `${JSON.stringify({ pages: pages.length, rows, differing }, null, 2)}\n`);
}

/** A variant's worker: installs its speed-ups, says which took, then extracts what it is sent. */
async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const { skip, flagLock } = workerData as { skip: LinkedomSpeedup[]; flagLock: Int32Array };
  // Defuddle reports bad JSON-LD and CSS through the console.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = () => {};
  // The same module objects the package's loader installs on, installed on first with this
  // variant's choice: the loader's own install then finds them done and changes nothing.
  const [linkedom, cssSelect, { installLinkedomSpeedups }] = await Promise.all([
    import('linkedom/worker'),
    import('css-select'),
    import('../src/linkedom/install.js'),
  ]);
  type Module = Parameters<typeof installLinkedomSpeedups>[0];
  type Compiler = Parameters<typeof installLinkedomSpeedups>[1];
  const report = installLinkedomSpeedups(linkedom as unknown as Module, cssSelect as Compiler, { skip });
  const { extract } = await import('@mono-agent/extract');
  const { fullCollector } = await import('../src/pool/worker-heap.js');
  const collect = fullCollector(flagLock);
  port.postMessage(report);
  port.on('message', async ({ html, url }: Task) => {
    const before = threadNanoseconds();
    let outcome: unknown;
    try {
      outcome = await extract({ body: html, url, contentType: 'text/html', format: 'markdown' });
    } catch (error) {
      outcome = {
        error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
      };
    }
    collect();
    const threadMs = (threadNanoseconds() - before) / 1e6;
    const digest = createHash('sha1').update(JSON.stringify(outcome)).digest('hex');
    port.postMessage({ digest, threadMs } satisfies Done);
  });
}

/** The CPU time of the calling thread so far, in nanoseconds (Linux's schedstat; 0 elsewhere). */
function threadNanoseconds(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/** Records the pool's documents for `pages` in compare-extraction.ts's layout. */
async function recordThroughPool(pages: Page[], out: string): Promise<void> {
  const { createExtractionPool } = await import('@mono-agent/extract');
  // Bounds no page reaches on a busy machine: the output compared is the extraction's, not a deadline's.
  const pool = createExtractionPool({ size: 1, heapMb: WORKER_HEAP_MB, domStagesBudgetMs: 600_000 });
  const started = performance.now();
  try {
    for (const [index, page] of pages.entries()) {
      let content = '';
      let fields: Record<string, unknown>;
      try {
        const { content: markdown, ...rest } = await pool.extract(
          { body: page.html, url: page.url, contentType: 'text/html', format: 'markdown' },
          { deadlineAt: Date.now() + 1_200_000 },
        );
        content = markdown;
        fields = rest;
      } catch (error) {
        fields = {
          error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
        };
      }
      const folder = join(out, page.set);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${page.id}.md`), content);
      writeFileSync(join(folder, `${page.id}.json`), `${JSON.stringify(fields, undefined, 2)}\n`);
      if ((index + 1) % 50 === 0) {
        const minutes = ((performance.now() - started) / 60_000).toFixed(1);
        console.log(`${index + 1}/${pages.length} pages, ${minutes} min`);
      }
    }
  } finally {
    await pool.close();
  }
  console.log(`${pages.length} pages written to ${out}`);
}
