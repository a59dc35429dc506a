import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { type SearxProcess, searxInstalled, startSearx } from './searx-process.js';

/** Queries the console suggests offline: one that finds fixture pages, one whose engines are blocked. */
export const OFFLINE_QUERIES = {
  /** Matches the fixture pages' titles. */
  found: 'retrying HTTP requests with backoff',
  /** Selects searx's throttled and CAPTCHA'd fixture engines, so SearXNG answers blocked. */
  blocked: '!fx429 !fxcap retrying HTTP requests',
} as const;

/** The stand-in for the public web that every console panel works against. */
export interface OfflineWeb {
  /** The loopback fixture web (pages, feeds, JSON, PDF, flaky and slow routes). */
  fixture: FixtureWeb;
  /** The SearXNG endpoint: the real searx when installed, else the fixture web's SearXNG-shaped replay. */
  searxngEndpoint: string;
  /** Whether `searxngEndpoint` is the real searx. */
  realSearx: boolean;
  /** One line for the operator on what is being served. */
  description: string;
  /** The environment that configures the console's runtime for this web. */
  env: Record<string, string>;
  /** Stops searx and the fixture web. */
  close(): Promise<void>;
}

/** Search results whose URLs are pages the fixture web serves, as a SearXNG upstream would list them. */
function fixtureResults(web: FixtureWeb) {
  return [
    {
      url: web.url('/pages/blog-post'),
      title: 'Retrying HTTP requests without making outages worse',
      content: 'Backoff, jitter and Retry-After: what a client should do when a server says no.',
    },
    {
      url: web.url('/pages/docs-page'),
      title: 'Configuration reference: retries, backoff and timeouts',
      content:
        'Every option of the Lantern static site generator, with defaults, including HTTP retry settings.',
    },
    {
      url: web.url('/content/rss'),
      title: 'HTTP retry notes (feed)',
      content: 'Short posts about retrying requests, backoff and Retry-After headers.',
    },
    {
      url: web.url('/content/json'),
      title: 'Retry policy as JSON: HTTP requests and backoff',
      content: 'A machine-readable description of retry limits for HTTP requests.',
    },
    {
      url: web.url('/content/pdf'),
      title: 'Retrying HTTP requests (PDF handout)',
      content: 'A one-page handout on backoff with Retry-After.',
    },
    {
      url: web.url('/pages/news-article'),
      title: 'City council approves night bus pilot for the harbour district',
      content: 'Local news: a night bus pilot starts next spring.',
    },
  ];
}

function resultsHtml(results: ReturnType<typeof fixtureResults>): string {
  const escapeHtml = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const items = results
    .map(
      (result) =>
        `<li class="result"><a href="${escapeHtml(result.url)}">${escapeHtml(result.title)}</a><p>${escapeHtml(result.content)}</p></li>`,
    )
    .join('\n');
  return `<!doctype html><html><body><ul>\n${items}\n</ul></body></html>\n`;
}

/**
 * Starts the fixture web and, when Debian's searx is installed, a real searx whose engines list the
 * fixture web's pages. Without searx, the fixture web itself answers SearXNG's JSON shape, including a
 * blocked answer for the blocked query, replayed from searx's real output.
 */
export async function startOfflineWeb(): Promise<OfflineWeb> {
  const fixture = await startFixtureWeb();
  const results = fixtureResults(fixture);
  let searx: SearxProcess | undefined;
  let site: string | undefined;
  let note: string;
  if (await searxInstalled()) {
    site = mkdtempSync(join(tmpdir(), 'mono-agent-console-site-'));
    writeFileSync(join(site, 'results.json'), JSON.stringify({ results }, null, 2));
    writeFileSync(join(site, 'results.html'), resultsHtml(results));
    try {
      searx = await startSearx(site);
      note = `a local searx at ${searx.url}`;
    } catch (error) {
      note = `the fixture web's SearXNG replay (searx failed to start: ${(error as Error).message})`;
    }
  } else {
    note = "the fixture web's SearXNG replay (searx is not installed; `pnpm setup:system` installs it)";
  }
  if (searx === undefined) {
    fixture.scenario('/search', (_request, response, context) => {
      const query = context.url.searchParams.get('q') ?? '';
      const blocked = query.includes('!fx429') || query.includes('!fxcap');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          blocked
            ? {
                query,
                number_of_results: 0,
                results: [],
                unresponsive_engines: [
                  ['fixture-429', 'too many requests'],
                  ['fixture-captcha', 'CAPTCHA required'],
                ],
              }
            : { query, number_of_results: results.length, results, unresponsive_engines: [] },
        ),
      );
    });
  }
  const searxngEndpoint = searx?.url ?? fixture.baseUrl;
  const fixtureHost = `127.0.0.1:${fixture.port}`;
  const searxHost = searx === undefined ? undefined : new URL(searx.url).host;
  return {
    fixture,
    searxngEndpoint,
    realSearx: searx !== undefined,
    description: `the loopback fixture web at ${fixture.baseUrl} and ${note}`,
    env: {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: [fixtureHost, ...(searxHost === undefined ? [] : [searxHost])].join(','),
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: searxngEndpoint,
      // Offline, the local searx is the only backend that can answer: in auto mode Codex and the
      // keyless engines would be tried after it and each spend a request of the run's budget for
      // nothing, so one blocked search would use most of the budget on its own.
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
    },
    async close() {
      await searx?.stop();
      if (site !== undefined) rmSync(site, { recursive: true, force: true });
      await fixture.close();
    },
  };
}
