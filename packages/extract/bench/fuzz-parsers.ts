// Feeds random and mutated bodies to every parser through the extraction pool and counts how each
// ended: a document, a structured failure (by code), or a bug (an `internal_error`, which is what an
// uncaught exception inside extraction becomes). Fixed seed, so a run can be repeated exactly.
//
// Usage (from the repository root):
//   pnpm fuzz                                   100,000 inputs per parser, seed 1
//   pnpm fuzz -- --count 2000 --parser json     fewer inputs, one parser
//   pnpm fuzz -- --seed 7
//   pnpm fuzz -- --parser html --from 50000     inputs 50,000 to --count only: the rest of a run cut short
//                                               (the earlier inputs are still made, not run)
//   pnpm fuzz -- --parser html --only 4217      re-run one input of the sequence (a slow or failing one);
//                                               MONO_AGENT_FUZZ_DUMP=<file> also writes its body there
//   MONO_AGENT_FUZZ_PAUSE=<file> pnpm fuzz      while <file> exists, no new input starts (those in flight
//                                               finish), so the machine can serve something else for a
//                                               while without that wait counting in any input's time
// HTML inputs are mutated real pages and windows of them: the article benchmark sets under ../shared/bench/ when present
// (MONO_AGENT_FUZZ_PAGES names another folder of .html or .html.gz files), else the fixture web's
// recorded pages.
import { existsSync, writeFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import { createExtractionPool } from '@mono-agent/extract';
import { input, loadPages, PARSERS, type Parser, seedInputs } from './fuzz-inputs.js';

/** An input slower than this counts as a failure of the run. */
const SLOW_INPUT_MS = 5_000;

const options = parseArguments(process.argv.slice(2));
seedInputs(options.seed);
const PAGES = await loadPages();
// --- run ------------------------------------------------------------------------------------------

interface Tally {
  inputs: number;
  documents: number;
  failures: Record<string, number>;
  internal: number;
  slow: number;
  maxMs: number;
  examples: string[];
  slowest: { ms: number; text: string }[];
  /** Indexes of inputs over the time bound (the first 50). */
  overBound: number[];
}

// Only HTML needs the HTML parsers loaded ahead; other parsers' workers (recycled every few hundred
// inputs) start without them.
const pools = new Map<boolean, ReturnType<typeof createExtractionPool>>();
const poolFor = (parser: Parser) => {
  const html = parser === 'html';
  let pool = pools.get(html);
  if (pool === undefined) {
    pool = createExtractionPool({ preloadHtmlParsers: html });
    pools.set(html, pool);
  }
  return pool;
};
const tallies = new Map<Parser, Tally>();
const started = performance.now();
for (const parser of options.parsers) {
  const tally: Tally = {
    inputs: 0,
    documents: 0,
    failures: {},
    internal: 0,
    slow: 0,
    maxMs: 0,
    examples: [],
    slowest: [],
    overBound: [],
  };
  tallies.set(parser, tally);
  const inFlight = new Set<Promise<void>>();
  for (let index = 0; index < options.count; index++) {
    const task = input(parser, PAGES);
    // Inputs come from one seeded sequence, so input N is made after inputs 0 to N - 1.
    if (options.only !== undefined && index !== options.only) continue;
    if (index < options.from) continue;
    if (options.only !== undefined && process.env.MONO_AGENT_FUZZ_DUMP) {
      writeFileSync(process.env.MONO_AGENT_FUZZ_DUMP, task.body);
    }
    await pausedWhileRequested(inFlight);
    const begin = performance.now();
    let outcome = 'document';
    const done = poolFor(parser)
      .extract(task, { deadlineAt: Date.now() + 45_000 })
      .then(
        () => {
          tally.documents++;
        },
        (error: unknown) => {
          const code = WebToolError.isInstance(error) ? error.code : 'uncaught';
          outcome = code;
          if (code === 'internal_error' || code === 'uncaught') {
            tally.internal++;
            if (tally.examples.length < 5)
              tally.examples.push(`${parser} #${index}: ${String((error as Error).message).slice(0, 160)}`);
          } else {
            tally.failures[code] = (tally.failures[code] ?? 0) + 1;
          }
        },
      )
      .finally(() => {
        const ms = performance.now() - begin;
        tally.inputs++;
        tally.maxMs = Math.max(tally.maxMs, ms);
        if (ms > SLOW_INPUT_MS) tally.slow++;
        if (ms > SLOW_INPUT_MS && tally.overBound.length < 50) tally.overBound.push(index);
        // The slowest inputs, kept to re-run with --only.
        tally.slowest.push({
          ms,
          text: `${parser} #${index}: ${Math.round(ms)} ms, ${Buffer.byteLength(task.body)} bytes, ${task.format ?? 'markdown'}, ${outcome}`,
        });
        tally.slowest.sort((left, right) => right.ms - left.ms);
        tally.slowest.length = Math.min(tally.slowest.length, 3);
        inFlight.delete(done);
      });
    inFlight.add(done);
    // Two in flight keep both workers busy without queueing (queue time would count as input time).
    if (inFlight.size >= 2) await Promise.race(inFlight);
    if ((index + 1) % 1000 === 0) console.error(`${parser}: ${index + 1}/${options.count}`);
  }
  await Promise.all(inFlight);
}
await Promise.all([...pools.values()].map((pool) => pool.close()));

console.log(
  `Fuzz run: seed ${options.seed}, ${options.count} inputs per parser, ${Math.round((performance.now() - started) / 1000)} s`,
);
console.table(
  [...tallies].map(([parser, tally]) => ({
    parser,
    inputs: tally.inputs,
    documents: tally.documents,
    'structured failures': Object.entries(tally.failures)
      .map(([code, count]) => `${code} ${count}`)
      .join(', '),
    'uncaught exceptions': tally.internal,
    [`over ${SLOW_INPUT_MS / 1000} s`]: tally.slow,
    'max ms': Math.round(tally.maxMs),
  })),
);
for (const tally of tallies.values()) {
  for (const example of tally.examples) console.log(`  ${example}`);
  for (const slow of tally.slowest) console.log(`  slowest: ${slow.text}`);
  if (tally.overBound.length > 0)
    console.log(`  over ${SLOW_INPUT_MS / 1000} s: #${tally.overBound.join(', #')}`);
}
const bad = [...tallies.values()].some((tally) => tally.internal > 0 || tally.slow > 0);
process.exitCode = bad ? 1 : 0;

/** Holds the next input back while the pause file exists, once the inputs in flight have ended. */
async function pausedWhileRequested(inFlight: Set<Promise<void>>): Promise<void> {
  const file = process.env.MONO_AGENT_FUZZ_PAUSE;
  if (!file || !existsSync(file)) return;
  await Promise.all(inFlight);
  console.error(`paused while ${file} exists`);
  while (existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 250));
  console.error('resumed');
}

function parseArguments(argv: string[]): {
  count: number;
  seed: number;
  parsers: readonly Parser[];
  only: number | undefined;
  from: number;
} {
  const value = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? undefined : argv[index + 1];
  };
  const count = Number(value('count') ?? 100_000);
  const seed = Number(value('seed') ?? 1);
  const parser = value('parser');
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('--count must be a positive integer');
  if (parser !== undefined && !(PARSERS as readonly string[]).includes(parser)) {
    throw new Error(`--parser must be one of ${PARSERS.join(', ')}`);
  }
  const only = value('only') === undefined ? undefined : Number(value('only'));
  if (only !== undefined && !(Number.isSafeInteger(only) && only >= 0)) {
    throw new Error('--only must be the index of an input (0 or more)');
  }
  const from = Number(value('from') ?? 0);
  if (!(Number.isSafeInteger(from) && from >= 0 && from < count)) {
    throw new Error('--from must be the index of an input below --count');
  }
  return {
    from,
    count: only === undefined ? count : only + 1,
    seed,
    parsers: parser === undefined ? PARSERS : [parser as Parser],
    only,
  };
}
