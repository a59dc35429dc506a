// Hostile pages through fetchDocument (transport, worker pool, deadline), measured in one process:
//   1. each page's answer time against the 45 s deadline, and its outcome;
//   2. a small page's latency while a hostile page is being extracted, as a ratio of its latency alone;
//   3. the process's peak RSS (workers included) over all of it;
//   4. RSS and main-thread heap after 1,000 distinct pages of unique tag names against after the first 10.
// `HOSTILE_BENCH_PAGES` lowers the page count of part 4 for a quick run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { formatTable } from '@mono-agent/bench';
import { createExtractionPool, fetchDocument } from '@mono-agent/extract';

/** The WebFetch deadline every page must answer within. */
const DEADLINE_MS = 45_000;
/** The latency another call must stay under while a hostile page is extracted. */
const LATENCY_TARGET_MS = 1_000;
/** The peak RSS target for any single input under the transport caps. */
const PEAK_RSS_TARGET_MB = 512;
/** How far the heap may grow between the 10th and the last of the distinct pages. */
const HEAP_GROWTH_TARGET_MB = 50;
const DISTINCT_PAGES = Number(process.env.HOSTILE_BENCH_PAGES ?? 1_000);

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const mib = (bytes: number) => bytes / 1024 / 1024;

// The fixture web runs in a child process, so the pages it builds do not count in this process's RSS.
const fixture = spawn(
  process.execPath,
  [...process.execArgv, fileURLToPath(new URL('./serve-fixture-web.ts', import.meta.url))],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const [firstLine] = (await once(fixture.stdout, 'data')) as [Buffer];
const { port } = JSON.parse(firstLine.toString('utf8')) as { port: number };
const web = { url: (path: string) => `http://127.0.0.1:${port}${path}` };
const pool = createExtractionPool();
const policy = { mode: 'localhost' } as const;
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);

async function timedFetch(path: string) {
  const started = performance.now();
  const result = await fetchDocument(web.url(path), { policy, deadlineMs: DEADLINE_MS, extraction: pool });
  const ms = performance.now() - started;
  return { ms, outcome: result.ok ? `ok (${result.document.stage})` : result.error.code };
}

const HOSTILE = [
  '/hostile/deep-nesting?depth=1000',
  '/hostile/deep-nesting?depth=2000',
  '/hostile/deep-nesting?depth=100000',
  '/hostile/siblings?count=120000',
  '/hostile/siblings?count=1000000',
  '/hostile/unique-tags?count=60000&seed=1',
  '/hostile/pdf-flate-bomb',
  '/hostile/pdf-many-pages?pages=600',
  '/hostile/empty',
  '/hostile/bare-text',
  '/hostile/doctype-only',
  '/hostile/json-open-brackets',
  '/hostile/json-open-objects',
  '/hostile/json-deep?depth=1000000',
  '/hostile/xml-deep?depth=1000000',
];
const SMALL = '/pages/blog-post';

try {
  // Warm both workers so that part 2 compares extraction with extraction, not with module loading.
  await Promise.all([timedFetch(SMALL), timedFetch(SMALL)]);
  const baselineRss = process.memoryUsage.rss();

  const answers: string[][] = [];
  let allInTime = true;
  for (const path of HOSTILE) {
    const peakBefore = peakRss;
    peakRss = process.memoryUsage.rss();
    const { ms, outcome } = await timedFetch(path);
    allInTime &&= ms < DEADLINE_MS;
    answers.push([path, outcome, ms.toFixed(0), (ms / DEADLINE_MS).toFixed(3), mib(peakRss).toFixed(0)]);
    peakRss = Math.max(peakRss, peakBefore);
  }
  console.log('1. Hostile pages through fetchDocument (deadline 45 s)');
  console.log(formatTable(['page', 'outcome', 'ms', 'ratio to deadline', 'peak RSS MiB'], answers));
  console.log(`every page answered within the deadline: ${allInTime ? 'yes' : 'NO'}\n`);
  const singleInputPeak = peakRss;

  const alone: number[] = [];
  for (let round = 0; round < 5; round++) alone.push((await timedFetch(SMALL)).ms);
  const aloneMs = median(alone);
  const latencyRows: string[][] = [['(alone)', aloneMs.toFixed(0), '1.00']];
  let worstMs = 0;
  for (const path of [
    '/hostile/siblings?count=1000000',
    '/hostile/deep-nesting?depth=100000',
    '/hostile/pdf-flate-bomb',
    '/hostile/unique-tags?count=60000&seed=2',
  ]) {
    const hostile = timedFetch(path);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { ms } = await timedFetch(SMALL);
    await hostile;
    worstMs = Math.max(worstMs, ms);
    latencyRows.push([`while ${path}`, ms.toFixed(0), (ms / aloneMs).toFixed(2)]);
  }
  console.log('2. Latency of a small page');
  console.log(formatTable(['when', 'ms', 'ratio to alone'], latencyRows));
  console.log(
    `worst ${worstMs.toFixed(0)} ms; target < ${LATENCY_TARGET_MS} ms: ${worstMs < LATENCY_TARGET_MS ? 'met' : 'NOT met'}\n`,
  );

  console.log('3. Peak RSS, workers included');
  console.log(
    formatTable(
      ['when', 'baseline MiB (warm, idle)', 'peak MiB', 'ratio', `target ${PEAK_RSS_TARGET_MB} MiB`],
      [
        [
          'one input at a time (part 1)',
          mib(baselineRss).toFixed(0),
          mib(singleInputPeak).toFixed(0),
          (singleInputPeak / baselineRss).toFixed(2),
          mib(singleInputPeak) <= PEAK_RSS_TARGET_MB ? 'met' : 'NOT met',
        ],
        [
          'two at once (part 2)',
          mib(baselineRss).toFixed(0),
          mib(peakRss).toFixed(0),
          (peakRss / baselineRss).toFixed(2),
          '-',
        ],
      ],
    ),
  );
  console.log('');

  let afterTen = { rss: 0, heap: 0 };
  for (let page = 0; page < DISTINCT_PAGES; page++) {
    await timedFetch(`/hostile/unique-tags?count=500&seed=${1000 + page}`);
    if (page === 9) {
      collect();
      afterTen = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
    }
  }
  collect();
  const afterAll = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  const growth = mib(afterAll.rss - afterTen.rss);
  console.log(`4. Memory over ${DISTINCT_PAGES} distinct pages of 500 unique tag names each`);
  console.log(
    formatTable(
      ['measure', 'after 10 MiB', `after ${DISTINCT_PAGES} MiB`, 'growth MiB', 'ratio'],
      [
        [
          'RSS (workers included)',
          mib(afterTen.rss).toFixed(0),
          mib(afterAll.rss).toFixed(0),
          growth.toFixed(1),
          (afterAll.rss / afterTen.rss).toFixed(2),
        ],
        [
          'main-thread heap',
          mib(afterTen.heap).toFixed(1),
          mib(afterAll.heap).toFixed(1),
          mib(afterAll.heap - afterTen.heap).toFixed(1),
          (afterAll.heap / afterTen.heap).toFixed(2),
        ],
      ],
    ),
  );
  console.log(
    `target: within ${HEAP_GROWTH_TARGET_MB} MiB: ${growth <= HEAP_GROWTH_TARGET_MB ? 'met' : 'NOT met'}`,
  );
} finally {
  clearInterval(sampler);
  await pool.close();
  fixture.stdin.end();
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
