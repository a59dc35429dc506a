// Cold start of the built `mono-agent-web` bin, as an agent that runs the CLI once per tool call pays
// it: whole-process wall time of `fetch` of a loopback article, `search` under network policy none
// and `--help`, each against `node -e 0` measured in the same rounds (cases interleaved, so a busy
// machine slows all of them alike). Medians of COLD_START_ROUNDS rounds (default 10).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable } from '@mono-agent/bench';
import { startFixtureWeb } from '@mono-agent/fixture-web';

/** The most each case may take, as a multiple of `node -e 0` (the targets of the cold-start work). */
const TARGET_RATIOS = { fetch: 3, search: 2, help: 1.5 } as const;
const ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 10);

// The bin as the manifest names it, as npm links it.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  bin: Record<string, string>;
};
const cli = fileURLToPath(new URL(`../${manifest.bin['mono-agent-web']}`, import.meta.url));
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`pnpm build\` first (the benchmark measures the built bin).`);
  process.exit(1);
}

const web = await startFixtureWeb();
const home = mkdtempSync(join(tmpdir(), 'mono-agent-cold-start-'));
const baseEnv = { PATH: process.env.PATH ?? '', HOME: home };

interface ColdCase {
  name: string;
  target?: number;
  args: string[];
  env: Record<string, string>;
  /** What stdout must contain, so a case that fails fast is not mistaken for a fast one. */
  expect: RegExp;
}

// What a fetch cannot do without, measured alone: starting one worker thread (extraction runs in one,
// so a hostile page can be stopped), and loading the HTML extraction stack (linkedom, Defuddle,
// Readability, Turndown) in a bare process. Their sum over the baseline bounds how close a cold fetch
// can come to `node -e 0`.
const extractManifest = fileURLToPath(new URL('../../extract/package.json', import.meta.url));
const extractRequire = createRequire(extractManifest);
const linkedomWorker = pathToFileURL(
  join(dirname(dirname(extractRequire.resolve('linkedom'))), 'worker.js'),
).href;
const loadExtractionStack = [
  `await import(${JSON.stringify(linkedomWorker)});`,
  `const { createRequire } = await import('node:module');`,
  `const require = createRequire(${JSON.stringify(extractManifest)});`,
  `require('defuddle'); require('@mozilla/readability'); require('turndown/lib/turndown.browser.cjs.js');`,
].join(' ');

const cases: ColdCase[] = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'], env: {}, expect: /^$/ },
  {
    name: 'floor: node, one worker thread started and ended',
    args: ['-e', "new (require('node:worker_threads').Worker)('0', { eval: true })"],
    env: {},
    expect: /^$/,
  },
  {
    // Extraction runs as ES modules, in a worker of the fetch command.
    name: 'floor: node, ES module loader started',
    args: ['--input-type=module', '-e', "import 'node:fs'"],
    env: {},
    expect: /^$/,
  },
  {
    name: 'floor: node, HTML extraction stack loaded',
    args: ['--input-type=module', '-e', loadExtractionStack],
    env: {},
    expect: /^$/,
  },
  {
    name: 'mono-agent-web --help',
    target: TARGET_RATIOS.help,
    args: [cli, '--help'],
    env: {},
    expect: /Usage:/,
  },
  {
    name: 'mono-agent-web search (policy none)',
    target: TARGET_RATIOS.search,
    args: [cli, 'search', 'connection pool'],
    env: { MONO_AGENT_NETWORK_MODE: 'none' },
    expect: /^WebSearch status: /,
  },
  {
    name: 'mono-agent-web fetch <loopback article>',
    target: TARGET_RATIOS.fetch,
    args: [cli, 'fetch', web.url('/pages/news-article')],
    env: { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}` },
    expect: /^WebFetch status: ok \| kind: html/,
  },
];

/** Runs one process to its end and returns its wall time in milliseconds. */
function wallTime(coldCase: ColdCase): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, coldCase.args, {
      env: { ...baseEnv, ...coldCase.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () => {
      const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
      if (!coldCase.expect.test(stdout)) {
        reject(
          new Error(`${coldCase.name}: unexpected output\n${stdout.slice(0, 400)}\n${stderr.slice(0, 400)}`),
        );
      } else resolve(milliseconds);
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const samples = new Map<string, number[]>(cases.map((coldCase) => [coldCase.name, []]));
try {
  // One warm-up round fills the file system cache, as on a machine that has run the bin before.
  for (const coldCase of cases) await wallTime(coldCase);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating the order spreads any slow moment of the machine over every case.
    for (let index = 0; index < cases.length; index++) {
      const coldCase = cases[(index + round) % cases.length]!;
      samples.get(coldCase.name)!.push(await wallTime(coldCase));
    }
  }
} finally {
  await web.close();
  rmSync(home, { recursive: true, force: true });
}

const baseline = median(samples.get(cases[0]!.name)!);
let missed = 0;
const rows = cases.map((coldCase) => {
  const value = median(samples.get(coldCase.name)!);
  const ratio = value / baseline;
  const verdict = coldCase.target === undefined ? '' : ratio <= coldCase.target ? 'met' : 'MISSED';
  if (verdict === 'MISSED') missed += 1;
  return [
    coldCase.name,
    value.toFixed(0),
    ratio.toFixed(2),
    coldCase.target === undefined ? '' : `<= ${coldCase.target}`,
    verdict,
  ];
});
console.log(`Cold start of the built bin, whole-process wall time, median of ${ROUNDS} rounds\n`);
console.log(formatTable(['case', 'median ms', 'x node -e 0', 'target', ''], rows));
if (missed > 0) console.log(`\n${missed} target(s) missed on this run (a busy machine raises every ratio).`);
