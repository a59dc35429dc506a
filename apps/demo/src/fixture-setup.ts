import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';

/** The question the offline demonstration asks; its answers are pages the fixture web serves. */
export const FIXTURE_QUERY = 'retrying HTTP requests with backoff and Retry-After';

/**
 * Starts the fixture web with a SearXNG-shaped search endpoint whose results point back at pages the
 * fixture web serves, so the whole search-then-fetch flow runs without the public web.
 */
export async function startFixtureResearchWeb(): Promise<FixtureWeb> {
  const web = await startFixtureWeb();
  const results = [
    {
      url: web.url('/pages/blog-post'),
      title: 'Retrying HTTP requests without making outages worse',
      content: 'Backoff, jitter and Retry-After: what a client should do when a server says no.',
    },
    {
      url: web.url('/pages/docs-page'),
      title: 'Configuration reference · Lantern Docs',
      content: 'Every option of the Lantern static site generator, with defaults.',
    },
    {
      url: web.url('/content/rss'),
      title: 'HTTP retry notes (feed)',
      content: 'Short posts about retrying requests, backoff and Retry-After headers.',
    },
  ];
  web.scenario('/search', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: FIXTURE_QUERY, results, unresponsive_engines: [] }),
  });
  return web;
}
