// The result-processing path of one search (normalize, fuse, filter, gate) for 3 providers × 10
// results, a cache hit through the chain, and 100 identical concurrent searches against one
// upstream, measured against baselines in the same run.

import { compareWithBaseline, formatTable } from '@mono-agent/bench';
import { createRunBudget, createRunDeferrals } from '@mono-agent/budget-policy';
import { startFixtureWeb } from '@mono-agent/fixture-web';
import { createCoordinator } from '@mono-agent/host-coordination';
import {
  applyRelevanceGate,
  createSearchCache,
  createSearchChain,
  createSearxngProvider,
  filterByDomains,
  normalizeResultUrl,
  reciprocalRankFusion,
  type SearchOutcome,
  type SearchResult,
} from '../src/index.js';

const query = '"rate limit" undici retry-after node';
const words = ['undici', 'rate', 'limit', 'retry', 'after', 'node', 'fetch', 'agent', 'pool', 'stream'];
const rawLists = ['searxng', 'duckduckgo', 'startpage'].map((source, providerIndex) => ({
  source,
  results: Array.from({ length: 10 }, (_, index) => ({
    url: `https://www.example${(index + providerIndex) % 13}.com/docs/page-${index}/?utm_source=feed&id=${index}#top`,
    title: `${words[index % words.length]} ${index % 2 === 0 ? 'rate limit' : 'limits'} guide ${index}`,
    snippet: `How ${words[(index + 3) % words.length]} handles the rate limit with Retry-After in Node ${index}.`,
  })),
}));

function processOnce() {
  const lists = rawLists.map((list) => {
    const normalized: SearchResult[] = [];
    for (const result of list.results) {
      const url = normalizeResultUrl(result.url);
      if (url !== undefined) normalized.push({ ...result, url });
    }
    const inDomain = filterByDomains(normalized, { domains: [], excludeDomains: ['example7.com'] });
    return { source: list.source, results: applyRelevanceGate(inDomain.kept, query).relevant };
  });
  return reciprocalRankFusion(lists).slice(0, 10);
}

function baselineOnce() {
  // The least any processing must do: parse each URL once and copy the results into one list.
  const all: SearchResult[] = [];
  for (const list of rawLists)
    for (const result of list.results) all.push({ ...result, url: new URL(result.url).href });
  return all;
}

if (processOnce().length === 0) throw new Error('the benchmark input must produce relevant results');

const processing = await compareWithBaseline({
  title: 'Result processing for 3 providers × 10 results (one search)',
  baseline: { name: 'parse URLs only', run: baselineOnce },
  candidates: [{ name: 'normalize + filter + gate + fuse', run: processOnce }],
});

const web = await startFixtureWeb();
try {
  const body = JSON.stringify({
    results: rawLists[0]!.results.map((result) => ({
      url: result.url,
      title: result.title,
      content: result.snippet,
    })),
    unresponsive_engines: [],
  });
  web.scenario('/search', { headers: { 'content-type': 'application/json' }, body, delayMs: 50 });
  const makeChain = () =>
    createSearchChain({
      backend: 'searxng',
      providers: { searxng: createSearxngProvider({ endpoint: web.baseUrl, policy: { mode: 'localhost' } }) },
      coordinator: createCoordinator({ mode: 'process' }),
      cache: createSearchCache<SearchOutcome>(),
    });
  const run = () => ({ budget: createRunBudget({ limit: 20 }), deferrals: createRunDeferrals() });

  const warmChain = makeChain();
  await warmChain.search({ query, limit: 10 }, run());
  const cacheHit = await compareWithBaseline({
    title: 'A repeated search served from the process cache',
    baseline: { name: 'result processing (above)', run: processOnce },
    candidates: [
      { name: 'chain.search, cache hit', run: () => warmChain.search({ query, limit: 10 }, run()) },
    ],
  });

  const sharingChain = makeChain();
  web.clearRequests();
  const outcomes = await Promise.all(
    Array.from({ length: 100 }, () => sharingChain.search({ query, limit: 10 }, run())),
  );
  const upstream = web.requestsTo('/search').length;
  console.log('\n100 identical concurrent searches');
  console.log(
    formatTable(
      ['searches', 'upstream requests', 'shared in flight', 'x baseline (1 request per search)'],
      [
        [
          '100',
          String(upstream),
          String(outcomes.filter((outcome) => outcome.sharedInFlight).length),
          (upstream / 100).toFixed(3),
        ],
      ],
    ),
  );
  const perSearchMs = processing[1]!.medianMs;
  console.log(
    `\nprocessing path: ${(perSearchMs * 1000).toFixed(1)} µs per search (target ≤ 1000 µs); ` +
      `cache hit: ${(cacheHit[1]!.medianMs * 1000).toFixed(1)} µs; upstream requests for 100 searches: ${upstream}`,
  );
} finally {
  await web.close();
}
