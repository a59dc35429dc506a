// Browser rendering: wall time of a render of the fixture web's client-rendered page through
// fetchDocument (launch, navigation, settle, read, close, cleanup), as median and p95 over repeated
// runs and as a ratio to a static fetch of the same page in the same run; and the sparse-shell
// signal's false-shell count on the Zyte article set (every page there is a server-rendered article,
// so the count must be 0) and on the WCXB development pages (at most 1 %; the shells are listed).
//
// Run from the repository root: pnpm bench -- render
// MONO_AGENT_RENDER_BENCH_RUNS sets the render runs (default 10). MONO_AGENT_ARTICLE_BENCH and
// MONO_AGENT_WCXB_BENCH set the dataset folders (default ../shared/bench/article-extraction and
// ../shared/bench/wcxb-dev from the repository root); a missing folder is reported and skipped.
// Renders need Debian's Chromium and the pinned agent-browser (`pnpm setup:system`); without them
// the timing part is skipped with a note.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startFixtureWeb } from '@mono-agent/fixture-web';
import { agentBrowserPath } from '../src/__fixtures__/agent-browser-path.js';
import {
  createAgentBrowserRenderer,
  extract,
  fetchDocument,
  inspectShellMarkup,
  SHELL_VISIBLE_TEXT_MAX_CHARS,
} from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../..');
const runs = Math.max(1, Number(process.env.MONO_AGENT_RENDER_BENCH_RUNS ?? 10));
const datasets = [
  {
    name: 'Zyte article set',
    folder: resolve(
      process.env.MONO_AGENT_ARTICLE_BENCH ?? join(repositoryRoot, '../shared/bench/article-extraction'),
    ),
    maxShare: 0,
  },
  {
    name: 'WCXB dev pages',
    folder: resolve(process.env.MONO_AGENT_WCXB_BENCH ?? join(repositoryRoot, '../shared/bench/wcxb-dev')),
    maxShare: 0.01,
  },
];

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
};

let failed = false;

async function falseShells(dataset: (typeof datasets)[number]): Promise<void> {
  const htmlFolder = join(dataset.folder, 'html');
  if (!existsSync(htmlFolder)) {
    console.log(`${dataset.name}: ${htmlFolder} is missing; skipped`);
    return;
  }
  const truth = JSON.parse(readFileSync(join(dataset.folder, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url?: string; pageType?: string }
  >;
  const files = readdirSync(htmlFolder).filter((file) => file.endsWith('.html.gz'));
  const shells: string[] = [];
  let extracted = 0;
  const started = performance.now();
  for (const file of files) {
    const id = file.slice(0, -'.html.gz'.length);
    const body = gunzipSync(readFileSync(join(htmlFolder, file)));
    // The markup half decides most pages without extraction: no marker, or plenty of visible text,
    // is never a shell (the same rule detectSparseShell applies).
    const markup = inspectShellMarkup(body.toString('utf8'));
    if (markup.markers.length === 0 || markup.visibleChars >= SHELL_VISIBLE_TEXT_MAX_CHARS) continue;
    extracted += 1;
    const url = truth[id]?.url;
    const document = await extract({
      body,
      url: url !== undefined && /^https?:\/\//.test(url) ? url : 'https://example.com/',
      contentType: 'text/html',
      format: 'text',
    }).catch(() => undefined);
    if (document?.sparseShell?.sparse === true) {
      const signal = document.sparseShell;
      shells.push(
        `${id} ${truth[id]?.pageType ?? ''} text ${signal.textChars} visible ${signal.visibleChars} [${signal.markers.join(', ')}] ${url ?? ''}`,
      );
    }
  }
  const share = shells.length / files.length;
  const within = share <= dataset.maxShare;
  if (!within) failed = true;
  console.log(
    `${dataset.name}: ${shells.length} false shells of ${files.length} pages (${(share * 100).toFixed(2)} %, limit ${(dataset.maxShare * 100).toFixed(0)} %) ${within ? 'ok' : 'OVER THE LIMIT'}; ${extracted} pages needed extraction, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const shell of shells) console.log(`  ${shell}`);
}

async function renderTimes(): Promise<void> {
  const command = agentBrowserPath();
  if (command === undefined || !existsSync('/usr/lib/chromium/chromium')) {
    console.log('render wall time: skipped (install Chromium and agent-browser with pnpm setup:system)');
    return;
  }
  const web = await startFixtureWeb();
  try {
    const url = web.url('/app/client-rendered');
    const policy = { mode: 'localhost' } as const;
    const renderer = createAgentBrowserRenderer({ command });
    const staticMs: number[] = [];
    const renderMs: number[] = [];
    let rendered = 0;
    for (let run = 0; run < runs; run += 1) {
      let started = performance.now();
      const plain = await fetchDocument(url, { policy, render: 'never' });
      staticMs.push(performance.now() - started);
      if (!plain.ok || plain.document.sparseShell?.sparse !== true)
        throw new Error('the static page is not a shell');
      started = performance.now();
      const result = await fetchDocument(url, { policy, render: 'auto', renderer });
      renderMs.push(performance.now() - started);
      if (result.ok && result.rendered && result.document.content.includes('hello from the API, value 42'))
        rendered += 1;
    }
    const median = percentile(renderMs, 0.5);
    const staticMedian = percentile(staticMs, 0.5);
    console.log(
      `render wall time, client-rendered page, ${runs} runs: median ${median.toFixed(0)} ms, p95 ${percentile(renderMs, 0.95).toFixed(0)} ms; static fetch median ${staticMedian.toFixed(1)} ms (render / static ${(median / staticMedian).toFixed(0)}x); rendered text in ${rendered} of ${runs}`,
    );
    if (rendered !== runs) failed = true;
  } finally {
    await web.close();
  }
}

await renderTimes();
for (const dataset of datasets) await falseShells(dataset);
if (failed) process.exitCode = 1;
