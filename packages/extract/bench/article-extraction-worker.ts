// One pipeline over the Zyte article set, in a process of its own so that its peak RSS is its own.
// Usage: node --conditions=@mono-agent/source --import tsx article-extraction-worker.ts <pipeline> <dataset> <out.json>
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** A pipeline under test: HTML bytes and URL in, article text out. */
type Pipeline = (html: Uint8Array, url: string) => Promise<string>;

const [name, dataset, outFile] = process.argv.slice(2);
if (name === undefined || dataset === undefined || outFile === undefined) {
  throw new Error('usage: article-extraction-worker.ts <pipeline> <dataset> <out.json>');
}

const HAPPY_DOM_SETTINGS = {
  disableJavaScriptFileLoading: true,
  disableJavaScriptEvaluation: true,
  disableCSSFileLoading: true,
  handleDisabledFileLoadingAsSuccess: true,
  navigation: {
    disableMainFrameNavigation: true,
    disableChildFrameNavigation: true,
    disableChildPageNavigation: true,
    disableFallbackToSetURL: true,
  },
};

async function loadPipeline(pipeline: string): Promise<Pipeline> {
  if (pipeline === 'extract') {
    const { extract } = await import('@mono-agent/extract');
    return async (body, url) =>
      (await extract({ body, url, contentType: 'text/html', format: 'text' })).content;
  }
  const { Readability } = await import('@mozilla/readability');
  const decoder = new TextDecoder();
  if (pipeline === 'readability-jsdom') {
    const { JSDOM } = await import('jsdom');
    return async (body, url) => {
      const dom = new JSDOM(decoder.decode(body), { url });
      try {
        return new Readability(dom.window.document).parse()?.textContent ?? '';
      } finally {
        dom.window.close();
      }
    };
  }
  if (pipeline === 'readability-linkedom') {
    const { parseHTML } = await import('linkedom');
    return async (body) => {
      const { document } = parseHTML(decoder.decode(body));
      return new Readability(document as unknown as Document).parse()?.textContent ?? '';
    };
  }
  if (pipeline === 'readability-happy-dom') {
    const { Window } = await import('happy-dom');
    return async (body, url) => {
      const window = new Window({ url, settings: HAPPY_DOM_SETTINGS });
      try {
        window.document.write(decoder.decode(body));
        return new Readability(window.document as unknown as Document).parse()?.textContent ?? '';
      } finally {
        await window.happyDOM.close();
      }
    };
  }
  throw new Error(`unknown pipeline ${pipeline}`);
}

const truth = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8')) as Record<
  string,
  { url: string }
>;
const ids = readdirSync(join(dataset, 'html'))
  .filter((file) => file.endsWith('.html.gz'))
  .map((file) => file.slice(0, -'.html.gz'.length))
  .sort();
const importStart = performance.now();
const run = await loadPipeline(name);
const importMs = performance.now() - importStart;
let logged = 0;
console.error = () => {
  logged++;
};
console.warn = console.error;

const output: Record<string, string> = {};
const pageMs: number[] = [];
// CPU time per page, less disturbed than wall time when other processes share the cores.
const pageCpuMs: number[] = [];
const crashes: string[] = [];
for (const id of ids) {
  const entry = truth[id];
  if (entry === undefined) continue;
  const html = new Uint8Array(gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`))));
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  try {
    output[id] = await run(html, entry.url);
  } catch {
    output[id] = '';
    crashes.push(id);
  }
  pageMs.push(performance.now() - start);
  const cpu = process.cpuUsage(cpuStart);
  pageCpuMs.push((cpu.user + cpu.system) / 1000);
}
writeFileSync(
  outFile,
  JSON.stringify({
    name,
    output,
    pageMs,
    pageCpuMs,
    crashes,
    importMs,
    logged,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  }),
);
