// What the guarded path costs over plain undici on loopback: a small GET (policy check, per-call
// agent, header validation), a 4 MiB gzip body (counting and decoding while streaming), and the peak
// memory of 1 GiB bombs stopped at the decoded cap against reading 20 MiB of plain bytes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { compareWithBaseline, formatTable } from '@mono-agent/bench';
import { startFixtureWeb } from '@mono-agent/fixture-web';
import { Agent, request } from 'undici';
import { httpRequest, MAX_DECODED_BYTES, type NetworkPolicy } from '../src/index.js';

const web = await startFixtureWeb();
const policy: NetworkPolicy = { mode: 'localhost' };
const sharedAgent = new Agent();
const small = web.url('/bytes/1024');
const compressed = web.url(`/compressed/gzip/${4 * 1024 * 1024}`);

async function plainRequest(url: string, agent: Agent): Promise<Uint8Array> {
  const response = await request(url, { dispatcher: agent, headers: { 'accept-encoding': 'gzip' } });
  const bytes = new Uint8Array(await response.body.arrayBuffer());
  return response.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes;
}

const MiB = 1024 * 1024;
const memoryCases = {
  'httpRequest, 20 MiB plain body (baseline)': `/bytes/${MAX_DECODED_BYTES}`,
  'httpRequest, 1 GiB gzip bomb (stopped at cap)': '/bomb/gzip',
  'httpRequest, 1 GiB deflate bomb (stopped at cap)': '/bomb/deflate',
  'httpRequest, 1 GiB br bomb (stopped at cap)': '/bomb/br',
} as const;

/** Runs one request in a fresh process (so earlier allocations do not hide growth) and reports its peak RSS growth. */
function measureInChild(path: string): { growth: number; milliseconds: number } {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), 'memory-case', path],
    {
      encoding: 'utf8',
    },
  );
  if (child.status !== 0) throw new Error(`memory case ${path} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
    growth: number;
    milliseconds: number;
  };
}

if (process.argv[2] === 'memory-case') {
  // Load everything once with a tiny request, then measure the one request under test.
  await httpRequest(small, { policy });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const started = performance.now();
  await httpRequest(web.url(process.argv[3] ?? '/'), { policy }).catch(() => undefined);
  const milliseconds = performance.now() - started;
  clearInterval(sampler);
  console.log(JSON.stringify({ growth: Math.max(peak, process.memoryUsage().rss) - before, milliseconds }));
} else {
  await compareWithBaseline({
    title: 'GET 1 KiB from the fixture web',
    baseline: {
      name: 'undici request, shared agent, no checks',
      run: () => plainRequest(small, sharedAgent),
    },
    candidates: [
      {
        name: 'undici request, agent per call',
        run: async () => {
          const agent = new Agent();
          await plainRequest(small, agent);
          await agent.destroy();
        },
      },
      { name: 'httpRequest (localhost policy)', run: () => httpRequest(small, { policy }) },
    ],
  });

  await compareWithBaseline({
    title: 'GET 4 MiB of gzip-encoded text',
    baseline: {
      name: 'undici request + arrayBuffer + gunzipSync',
      run: () => plainRequest(compressed, sharedAgent),
    },
    candidates: [
      { name: 'httpRequest (streaming caps + decode)', run: () => httpRequest(compressed, { policy }) },
    ],
  });

  const measured = Object.entries(memoryCases).map(([name, path]) => [name, measureInChild(path)] as const);
  const baseline = measured[0]?.[1].growth ?? 1;
  console.log('\nPeak RSS growth of one request, each in a fresh process');
  console.log(
    formatTable(
      ['case', 'peak RSS growth MiB', 'ms', 'x baseline'],
      measured.map(([name, result]) => [
        name,
        (result.growth / MiB).toFixed(1),
        result.milliseconds.toFixed(0),
        (result.growth / baseline).toFixed(2),
      ]),
    ),
  );
}

await sharedAgent.close();
await web.close();
