// Fuzzes every parser that reads what a backend sends: DuckDuckGo and Startpage HTML, SearXNG JSON,
// Ollama JSON and `codex app-server` JSON-RPC lines. Inputs are random strings and mutations of the
// recorded answers (byte flips, cuts, splices, duplicated and inserted markup, JSON values swapped for
// values of other types), from a fixed seed, so every run sees the same 100,000 inputs per parser.
// A parser may classify (results, no results, a WebToolError with a code); anything else it throws is
// an uncaught exception and fails the run. `FUZZ_ITERATIONS` shortens a local run.
import { readdirSync, readFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import {
  createJsonRpcConnection,
  createLineDecoder,
  evaluateQuota,
  mergeRateLimitsUpdate,
  parseRateLimitsResult,
  parseSearchResults,
  refuseServerRequest,
} from '@mono-agent/codex-app-server-client/internals';
import { parseDuckDuckGoHtml, parseStartpageHtml } from '@mono-agent/keyless-html';
import { classifyOllamaResponse } from '../src/ollama-provider.js';
import { applyRelevanceGate } from '../src/relevance-gate.js';
import { classifySearxngResponse } from '../src/searxng-provider.js';

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 100_000);
const SEED = 0x5eed_2026;

/** mulberry32: small, fast and the same on every machine. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const integer = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[integer(items.length)]!;
  return { next, integer, pick };
}
type Random = ReturnType<typeof createRandom>;

const here = (path: string) => new URL(path, import.meta.url);
const read = (path: string) => readFileSync(here(path), 'utf8');
const keyless = (name: string) => read(`../../keyless-html/src/__fixtures__/${name}`);

const DUCKDUCKGO_SEEDS = [
  keyless('lofi_duckduckgo-html-get-foo.html'),
  keyless('clele_results-200.html'),
  keyless('clele_challenge-202.html'),
  keyless('derived/duckduckgo-no-results.html'),
];
const STARTPAGE_SEEDS = [
  keyless('websearchmcp_startpage-http.html'),
  keyless('websearchmcp_startpage-browser.html'),
  keyless('derived/startpage-captcha.html'),
  keyless('derived/anubis-challenge.html'),
  keyless('derived/verifying-interstitial.html'),
];
const searxDirectory = here('../src/__fixtures__/searx/');
const SEARXNG_SEEDS = readdirSync(searxDirectory)
  .filter((name) => name.endsWith('.json'))
  .map((name) => readFileSync(new URL(name, searxDirectory), 'utf8'));
// Ollama's web_search answer shape, as its provider tests replay it.
const OLLAMA_SEEDS = [
  JSON.stringify({
    results: [
      { title: 'Ollama', url: 'https://ollama.com/?utm_source=x', content: 'Get up and running.' },
      { title: 'No URL', content: 'dropped' },
      { title: 'Ollama on GitHub', url: 'https://github.com/ollama/ollama', content: 'Run models locally.' },
    ],
  }),
  JSON.stringify({ results: [] }),
  JSON.stringify({ error: 'unauthorized' }),
];
const shapes = JSON.parse(read('../../codex-app-server-client/test/__fixtures__/app-server-shapes.json')) as {
  live: Record<string, unknown>;
  schema: Record<string, unknown>;
};
const APP_SERVER_SEEDS = [...Object.values(shapes.live), ...Object.values(shapes.schema)].flatMap((value) =>
  (Array.isArray(value) ? value : [value]).map((message) =>
    JSON.stringify(message)
      .replaceAll('"$RESULTS"', JSON.stringify([{ title: 'Rust', url: 'https://rust-lang.org/' }]))
      .replaceAll('$QUERY', 'rust async trait')
      .replaceAll('$THREAD', 'thread-1')
      .replaceAll('$TURN', 'turn-1'),
  ),
);

// Pieces that parsers and decoders have to survive: markup, entities, escapes, odd code points.
const TOKENS = [
  '<',
  '>',
  '</',
  '<a href="',
  '"',
  "'",
  '</div>',
  '<div class="result">',
  '<a class="result__a" href="//duckduckgo.com/l/?uddg=',
  '&amp;',
  '&#x',
  '&#0;',
  '&nbsp;',
  '<!--',
  '-->',
  '<script>',
  '</script>',
  '<![CDATA[',
  '%',
  '%E0%A4%A',
  '%zz',
  '\u0000',
  '\uFFFD',
  '\uD800',
  '\u202E',
  '😀',
  '東京',
  'ไทย',
  'العربية',
  '\r\n',
  '\n',
  '\t',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  'null',
  'true',
  '-0',
  '1e309',
  '"url":',
  '"results":',
  '"unresponsive_engines":',
  '[["a","CAPTCHA"]]',
  '"id":',
  '"method":',
  '"params":',
  '"result":',
  '"error":',
  'javascript:',
  'http://',
  'https://[::1]/',
  'data:',
];

function randomString(random: Random, maxLength: number): string {
  const length = random.integer(maxLength);
  let text = '';
  while (text.length < length) {
    const choice = random.integer(4);
    if (choice === 0) text += random.pick(TOKENS);
    else if (choice === 1) text += String.fromCharCode(random.integer(0x80));
    else if (choice === 2) text += String.fromCodePoint(random.integer(0x10ffff + 1) & ~0x800);
    else text += 'foo bar fixture result '.slice(random.integer(10), 10 + random.integer(14));
  }
  return text;
}

function mutateText(random: Random, seed: string, maxWindow: number): string {
  // A window keeps inputs small enough that 100,000 parses take minutes, not hours; one input in
  // twenty keeps the whole recorded page.
  let text = seed;
  if (seed.length > maxWindow && random.integer(20) !== 0) {
    const start = random.integer(seed.length - maxWindow);
    text = seed.slice(start, start + 256 + random.integer(maxWindow - 256));
  }
  const rounds = 1 + random.integer(6);
  for (let round = 0; round < rounds; round += 1) {
    const at = random.integer(text.length + 1);
    switch (random.integer(6)) {
      case 0:
        text = text.slice(0, at) + random.pick(TOKENS) + text.slice(at);
        break;
      case 1:
        text = text.slice(0, at) + text.slice(at + random.integer(64));
        break;
      case 2: {
        const length = random.integer(128);
        text = text.slice(0, at) + text.slice(at, at + length).repeat(1 + random.integer(4)) + text.slice(at);
        break;
      }
      case 3:
        text = text.slice(0, at) + String.fromCharCode(random.integer(0x10000)) + text.slice(at + 1);
        break;
      case 4:
        text = text.slice(0, at);
        break;
      default:
        text = text.slice(0, at) + randomString(random, 32) + text.slice(at);
    }
  }
  return text;
}

function randomJsonValue(random: Random, depth: number): unknown {
  switch (random.integer(depth > 3 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, -0]);
    case 3:
      return randomString(random, 40);
    case 4:
      return random.pick([
        '',
        'https://example.com/a%',
        'CAPTCHA',
        'Suspended: too many requests',
        'webSearch',
      ]);
    case 5:
      return Array.from({ length: random.integer(4) }, () => randomJsonValue(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.integer(4) }, () => [
          random.pick(['url', 'title', 'content', 'results', 'type', 'id', 'method', 'params', 'item', 'x']),
          randomJsonValue(random, depth + 1),
        ]),
      );
  }
}

/** Replaces one node of a JSON document with a value of any type. */
function mutateJson(random: Random, seed: string): string {
  let document: unknown;
  try {
    document = JSON.parse(seed);
  } catch {
    return mutateText(random, seed, 4096);
  }
  const containers: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      node.forEach((child, index) => {
        containers.push({ parent: node, key: index });
        walk(child);
      });
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) {
        containers.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
  };
  walk(document);
  if (containers.length === 0) return JSON.stringify(randomJsonValue(random, 0));
  const rounds = 1 + random.integer(3);
  for (let round = 0; round < rounds; round += 1) {
    const { parent, key } = random.pick(containers);
    (parent as Record<string | number, unknown>)[key] = randomJsonValue(random, 0);
  }
  return JSON.stringify(document);
}

function input(random: Random, seeds: readonly string[], json: boolean): string {
  const choice = random.integer(10);
  if (choice === 0) return randomString(random, 2048);
  if (choice === 1) {
    const left = random.pick(seeds);
    const right = random.pick(seeds);
    return left.slice(0, random.integer(left.length + 1)) + right.slice(random.integer(right.length + 1));
  }
  if (json && choice < 6) return mutateJson(random, random.pick(seeds));
  return mutateText(random, random.pick(seeds), 6144);
}

const encoder = new TextEncoder();
const STATUSES = [202, 301, 302, 403, 404, 405, 429, 500, 503];
// Most inputs arrive as 200, so the body parsers see them; the rest exercise status classification.
const status = (random: Random) => (random.next() < 0.75 ? 200 : random.pick(STATUSES));

interface Tally {
  inputs: number;
  uncaught: number;
  outcomes: Map<string, number>;
  firstUncaught?: string;
}

function count(tally: Tally, label: string) {
  tally.outcomes.set(label, (tally.outcomes.get(label) ?? 0) + 1);
}

function fuzz(
  name: string,
  produce: (random: Random) => string,
  parse: (text: string, random: Random) => string,
): Tally {
  const random = createRandom(
    SEED ^ [...name].reduce((hash, character) => hash * 31 + character.charCodeAt(0), 7),
  );
  const tally: Tally = { inputs: 0, uncaught: 0, outcomes: new Map() };
  const started = performance.now();
  for (let index = 0; index < ITERATIONS; index += 1) {
    const text = produce(random);
    tally.inputs += 1;
    try {
      count(tally, parse(text, random));
    } catch (error) {
      if (WebToolError.isInstance(error)) count(tally, `error:${error.code}`);
      else {
        tally.uncaught += 1;
        tally.firstUncaught ??= `${(error as Error)?.stack ?? String(error)}\ninput: ${JSON.stringify(text.slice(0, 300))}`;
      }
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const outcomes = [...tally.outcomes]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([label, n]) => `${label} ${n}`);
  console.log(
    `${name.padEnd(18)} inputs ${tally.inputs}  uncaught ${tally.uncaught}  (${seconds} s)  ${outcomes.join(', ')}`,
  );
  if (tally.firstUncaught) console.log(`  first uncaught: ${tally.firstUncaught}`);
  return tally;
}

function keylessParse(parse: typeof parseDuckDuckGoHtml) {
  return (text: string, random: Random) => {
    const code = status(random);
    const outcome = parse(
      {
        status: code,
        headers:
          code >= 300 && code < 400 ? { location: random.pick(['/sp/captcha', text.slice(0, 80), '']) } : {},
        body: text,
        url: 'https://html.duckduckgo.com/html/',
      },
      { limit: 1 + random.integer(10) },
    );
    if (outcome.kind === 'results')
      applyRelevanceGate(
        outcome.results.map((r) => ({ ...r, snippet: r.snippet })),
        'foo "bar baz" -qux 東京',
      );
    return outcome.kind;
  };
}

function jsonParse(classify: typeof classifySearxngResponse) {
  return (text: string, random: Random) => {
    const answer = classify(
      {
        status: random.pick(STATUSES),
        url: 'http://127.0.0.1/',
        headers: {},
        body: encoder.encode(text),
        redirects: 0,
        attempts: 1,
      } as never,
      1 + random.integer(10),
    );
    if (answer.kind === 'results')
      applyRelevanceGate(
        answer.results,
        random.pick(['fixture result', '"東京タワー"', 'foo -bar site:example.com']),
      );
    return answer.kind;
  };
}

function appServerParse() {
  return (text: string, random: Random) => {
    let lines = 0;
    const connection = createJsonRpcConnection({
      write: () => undefined,
      answer: refuseServerRequest,
      requestTimeoutMs: 60_000,
    });
    for (let id = 1; id <= 3; id += 1) connection.request('model/list', {}).catch(() => undefined);
    connection.onNotification((notification) => {
      const params = notification.params as
        | { item?: { results?: unknown }; rateLimits?: unknown }
        | undefined;
      if (Array.isArray(params?.item?.results)) parseSearchResults(params.item.results);
      const snapshot = parseRateLimitsResult(notification.params);
      const merged = mergeRateLimitsUpdate(snapshot, notification.params);
      evaluateQuota(merged ?? snapshot, Date.now(), Date.now());
    });
    const decoder = createLineDecoder(
      {
        line: (line) => {
          lines += 1;
          connection.receive(line);
        },
        oversized: () => undefined,
      },
      64 * 1024,
    );
    const bytes = encoder.encode(`${text}\n${random.pick(APP_SERVER_SEEDS)}\n`);
    for (let offset = 0; offset < bytes.length; ) {
      const size = 1 + random.integer(512);
      decoder.push(bytes.subarray(offset, offset + size));
      offset += size;
    }
    connection.close(new WebToolError({ code: 'cancelled', message: 'fuzz input done' }));
    return lines > 1 ? 'lines' : 'line';
  };
}

console.log(`fuzzing the backend parsers: ${ITERATIONS} inputs each, seed ${SEED.toString(16)}`);
const tallies = [
  fuzz(
    'duckduckgo html',
    (random) => input(random, DUCKDUCKGO_SEEDS, false),
    keylessParse(parseDuckDuckGoHtml),
  ),
  fuzz('startpage html', (random) => input(random, STARTPAGE_SEEDS, false), keylessParse(parseStartpageHtml)),
  fuzz('searxng json', (random) => input(random, SEARXNG_SEEDS, true), jsonParse(classifySearxngResponse)),
  fuzz('ollama json', (random) => input(random, OLLAMA_SEEDS, true), jsonParse(classifyOllamaResponse)),
  fuzz('app-server lines', (random) => input(random, APP_SERVER_SEEDS, true), appServerParse()),
];
const uncaught = tallies.reduce((sum, tally) => sum + tally.uncaught, 0);
console.log(`uncaught exceptions: ${uncaught}`);
if (uncaught > 0) process.exitCode = 1;
