// Runs extraction pipelines over a page set in a process of its own and writes their outputs and
// per-page timings. With several pipelines the pages are processed one after another and, on each
// page, every pipeline runs once, in an order that rotates from page to page, so that machine load
// and JIT warm-up fall on all of them alike. (The project's peak RSS is measured by peak-rss.mjs.)
//
// With `--thread worker` every pipeline runs in one worker thread of the process, with the extraction
// pool's young-generation size, as WebFetch extracts (in the pool's worker). The process's CPU time
// still counts one extraction at a time: the main thread only waits for the worker.
//
// Usage (from this folder):
//   node --conditions=@mono-agent/source --import tsx extraction-worker.ts <dataset> <ids.json> <out.json> <pipeline,...> [--thread worker]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { startTsxWorker } from './tsx-worker.js';

/** A pipeline's answer for one page: the text scored, and the Markdown when the pipeline writes some. */
interface PipelineOutput {
  text: string;
  markdown?: string;
  stage?: string;
}

/** A pipeline under test: HTML bytes and URL in, article out. */
type Pipeline = (html: Uint8Array, url: string) => Promise<PipelineOutput>;

/** What one pipeline produced over the whole page set. */
export interface PipelineRun {
  text: Record<string, string>;
  markdown: Record<string, string>;
  stage: Record<string, string>;
  pageMs: Record<string, number>;
  pageCpuMs: Record<string, number>;
  crashes: string[];
}

/** The worker's output file. */
export interface WorkerResult {
  runs: Record<string, PipelineRun>;
  peakRssBytes: number;
  logged: number;
  /** What became of each linkedom speed-up in extract's thread (see src/linkedom/install.ts). */
  speedups?: Record<string, string>;
}

const USAGE = 'usage: extraction-worker.ts <dataset> <ids.json> <out.json> <pipeline,...> [--thread worker]';

/** The old generation of the measuring worker thread: room enough for every pipeline on a large page. */
const WORKER_HEAP_MB = 1024;

async function loadPipeline(pipeline: string): Promise<Pipeline> {
  const decoder = new TextDecoder();
  if (pipeline === 'extract') {
    const { extract, markdownToText } = await import('@mono-agent/extract');
    return async (body, url) => {
      const document = await extract({ body, url, contentType: 'text/html', format: 'markdown' });
      return { text: markdownToText(document.content), markdown: document.content, stage: document.stage };
    };
  }
  if (pipeline === 'defuddle-linkedom') {
    // As the published baseline: Defuddle on a plain linkedom parse, its HTML read as textContent.
    const { parseHTML } = await import('linkedom');
    const { Defuddle } = await import('defuddle/node');
    return async (body, url) => {
      const { document } = parseHTML(decoder.decode(body));
      const result = await Defuddle(document, url, { markdown: false, useAsync: false });
      const holder = document.createElement('div');
      holder.innerHTML = result.content ?? '';
      return { text: holder.textContent ?? '' };
    };
  }
  if (pipeline === 'readability-jsdom') {
    const { Readability } = await import('@mozilla/readability');
    const { JSDOM, VirtualConsole } = await import('jsdom');
    const virtualConsole = new VirtualConsole();
    return async (body, url) => {
      const dom = new JSDOM(decoder.decode(body), { url, virtualConsole });
      try {
        return { text: new Readability(dom.window.document).parse()?.textContent ?? '' };
      } finally {
        dom.window.close();
      }
    };
  }
  if (pipeline === 'mercury') {
    // Mercury (@postlight/parser) as its command line runs it on a page it is given: its text output,
    // without fetching the article's further pages (the benchmark never reaches the network).
    const { default: Mercury } = await import('@postlight/parser');
    return async (body, url) => {
      const result = await Mercury.parse(url, {
        html: decoder.decode(body),
        contentType: 'text',
        fetchAllPages: false,
      });
      return { text: typeof result?.content === 'string' ? result.content : '' };
    };
  }
  throw new Error(`unknown pipeline ${pipeline}`);
}

/** Every pipeline of `pipelineList` over the pages `idsFile` lists of `dataset`, in this thread. */
async function measure(dataset: string, idsFile: string, pipelineList: string): Promise<WorkerResult> {
  const truth = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url: string }
  >;
  const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as string[];
  const names = pipelineList.split(',');
  const pipelines: Pipeline[] = [];
  for (const name of names) pipelines.push(await loadPipeline(name));
  let logged = 0;
  // Defuddle and jsdom report bad JSON-LD and CSS through the console; count it, do not print it.
  console.error = () => {
    logged++;
  };
  console.warn = console.error;
  console.log = console.error;

  const runs: Record<string, PipelineRun> = {};
  for (const name of names) {
    runs[name] = { text: {}, markdown: {}, stage: {}, pageMs: {}, pageCpuMs: {}, crashes: [] };
  }
  for (const [pageIndex, id] of ids.entries()) {
    const entry = truth[id];
    if (entry === undefined) continue;
    const html = new Uint8Array(gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`))));
    for (let turn = 0; turn < names.length; turn++) {
      const index = (pageIndex + turn) % names.length;
      const name = names[index] as string;
      const pipeline = pipelines[index] as Pipeline;
      const run = runs[name] as PipelineRun;
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      try {
        // A few pages of the data sets have no recorded URL; any http(s) URL stands in for it.
        const output = await pipeline(html, entry.url || 'https://page-without-url.invalid/');
        run.text[id] = output.text;
        if (output.markdown !== undefined) run.markdown[id] = output.markdown;
        if (output.stage !== undefined) run.stage[id] = output.stage;
      } catch {
        run.text[id] = '';
        run.crashes.push(id);
      }
      run.pageMs[id] = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      run.pageCpuMs[id] = (cpu.user + cpu.system) / 1000;
    }
  }
  return {
    runs,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    logged,
    speedups: await speedups(names),
  };
}

/**
 * The report of the linkedom speed-ups extract installed in this thread: a second install on the
 * module it loaded changes nothing and returns the first report.
 */
async function speedups(names: string[]): Promise<Record<string, string> | undefined> {
  if (!names.includes('extract')) return undefined;
  const { installLinkedomSpeedups } = await import('../src/linkedom/install.js');
  const [linkedom, cssSelect] = await Promise.all([import('linkedom/worker'), import('css-select')]);
  return installLinkedomSpeedups(
    linkedom as unknown as Parameters<typeof installLinkedomSpeedups>[0],
    cssSelect as unknown as Parameters<typeof installLinkedomSpeedups>[1],
  );
}

/** {@link measure} in a worker thread of this process with the extraction pool's young generation. */
async function measureInWorker(
  dataset: string,
  idsFile: string,
  pipelineList: string,
): Promise<WorkerResult> {
  // This file again, as the worker's code, through tsx as the extraction pool loads its worker's.
  const worker = await startTsxWorker(import.meta.url, { dataset, idsFile, pipelineList }, WORKER_HEAP_MB);
  try {
    const result = await new Promise<WorkerResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the measuring thread exited with ${code}`)));
    });
    // Peak RSS is the process's, whichever thread asks.
    return { ...result, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
  } finally {
    await worker.terminate();
  }
}

if (isMainThread) {
  const [dataset, idsFile, outFile, pipelineList, threadFlag, thread] = process.argv.slice(2);
  const inWorker = threadFlag === '--thread' && thread === 'worker';
  if (
    dataset === undefined ||
    idsFile === undefined ||
    outFile === undefined ||
    pipelineList === undefined ||
    (threadFlag !== undefined && !inWorker)
  ) {
    throw new Error(USAGE);
  }
  const result = inWorker
    ? await measureInWorker(dataset, idsFile, pipelineList)
    : await measure(dataset, idsFile, pipelineList);
  writeFileSync(outFile, JSON.stringify(result));
} else {
  const { dataset, idsFile, pipelineList } = workerData as {
    dataset: string;
    idsFile: string;
    pipelineList: string;
  };
  parentPort?.postMessage(await measure(dataset, idsFile, pipelineList));
}
