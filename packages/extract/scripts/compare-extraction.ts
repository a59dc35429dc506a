// Records what extract() makes of every page of the two benchmark sets (WCXB's development split
// and the Zyte article set), so that a change meant to leave extraction as it is can be shown to do
// so: record the pages before the change and after it, then compare the two folders. Each page is
// extracted as the benchmark does it (HTML bytes, its recorded URL, format markdown) and written as
// <folder>/<set>/<id>.md (the content) and <id>.json (every other field of the document, or the
// error it threw).
//
// Run from the repository root:
//   pnpm exec tsx --conditions=@mono-agent/source packages/extract/scripts/compare-extraction.ts <folder>
//   pnpm exec tsx --conditions=@mono-agent/source packages/extract/scripts/compare-extraction.ts --compare <folderA> <folderB>
// The second form lists each page whose files differ and exits with 1 when any does.
// Environment:
//   MONO_AGENT_BENCH_DATA  folder holding wcxb-dev/ and article-extraction/ (default ../shared/bench,
//                          else ../../shared/bench, from the repository root, as the benchmark finds it)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../..');
const dataRoot = resolve(
  process.env.MONO_AGENT_BENCH_DATA ??
    [join(repositoryRoot, '../shared/bench'), join(repositoryRoot, '../../shared/bench')].find((folder) =>
      existsSync(folder),
    ) ??
    join(repositoryRoot, '../shared/bench'),
);
const SETS = [
  { key: 'wcxb', folder: 'wcxb-dev' },
  { key: 'zyte', folder: 'article-extraction' },
];

const usage = 'usage: compare-extraction.ts <folder> | compare-extraction.ts --compare <folderA> <folderB>';
const args = process.argv.slice(2);
if (args[0] === '--compare') {
  const [, left, right] = args;
  if (left === undefined || right === undefined) throw new Error(usage);
  process.exit(compare(left, right));
} else {
  const [out] = args;
  if (out === undefined || out.startsWith('-')) throw new Error(usage);
  await record(out);
}

/** Extracts every page of both sets into `out`. */
async function record(out: string): Promise<void> {
  const { extract } = await import('@mono-agent/extract');
  // Defuddle reports bad JSON-LD and CSS through the console; the progress line is all this prints.
  const print = console.log;
  console.error = () => {};
  console.warn = console.error;
  console.log = console.error;
  for (const set of SETS) {
    const dataset = join(dataRoot, set.folder);
    const truthFile = join(dataset, 'ground-truth.json');
    if (!existsSync(truthFile)) throw new Error(`no benchmark data at ${dataset}`);
    const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<string, { url: string }>;
    const folder = join(out, set.key);
    mkdirSync(folder, { recursive: true });
    const ids = Object.keys(truth).sort();
    const started = performance.now();
    for (const id of ids) {
      const html = new Uint8Array(gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`))));
      // A few pages of the data sets have no recorded URL; any http(s) URL stands in for it.
      const url = truth[id]?.url || 'https://page-without-url.invalid/';
      let content = '';
      let fields: Record<string, unknown>;
      try {
        const { content: markdown, ...rest } = await extract({
          body: html,
          url,
          contentType: 'text/html',
          format: 'markdown',
        });
        content = markdown;
        fields = rest;
      } catch (error) {
        fields = {
          error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
        };
      }
      writeFileSync(join(folder, `${id}.md`), content);
      writeFileSync(join(folder, `${id}.json`), `${JSON.stringify(fields, undefined, 2)}\n`);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    print(`${set.key}: ${ids.length} pages written to ${folder} in ${seconds} s`);
  }
}

/** Lists the pages whose files differ between two recorded folders; 1 when any does, else 0. */
function compare(left: string, right: string): number {
  let pages = 0;
  let differing = 0;
  for (const set of SETS) {
    const names = new Set([...filesOf(join(left, set.key)), ...filesOf(join(right, set.key))]);
    const ids = [...new Set([...names].map((name) => name.replace(/\.(md|json)$/, '')))].sort();
    for (const id of ids) {
      pages++;
      const changed = ['md', 'json'].filter((extension) => {
        const name = `${id}.${extension}`;
        return read(join(left, set.key, name)) !== read(join(right, set.key, name));
      });
      if (changed.length === 0) continue;
      differing++;
      console.log(`${set.key}/${id}: ${changed.map((extension) => `.${extension}`).join(', ')} differ`);
    }
  }
  console.log(`${pages} pages compared, ${differing} differ`);
  return differing === 0 && pages > 0 ? 0 : 1;
}

function filesOf(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((name) => /\.(md|json)$/.test(name)) : [];
}

/** A file's text, or undefined when one folder lacks it (which counts as a difference). */
function read(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
