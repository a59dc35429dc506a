import { readFileSync } from 'node:fs';
import type { FixtureWeb } from '@mono-agent/fixture-web';
import { describeSearchProvider } from '../test/describe-search-provider.js';
import { createDuckDuckGoProvider, createStartpageProvider } from './keyless-provider.js';
import { createOllamaProvider } from './ollama-provider.js';
import { createSearxngProvider } from './searxng-provider.js';

const fixture = (path: string) => readFileSync(new URL(`./__fixtures__/${path}`, import.meta.url), 'utf8');
// The real DuckDuckGo and Startpage pages recorded once, in the package that parses them.
const keylessPage = (name: string) =>
  readFileSync(new URL(`../../keyless-html/src/__fixtures__/${name}`, import.meta.url), 'utf8');
const loopbackOnly = (web: FixtureWeb) => ({ mode: 'allowlist' as const, allow: [`127.0.0.1:${web.port}`] });
const html = { 'content-type': 'text/html; charset=utf-8' };
const json = { 'content-type': 'application/json' };

describeSearchProvider({
  id: 'searxng',
  path: '/search',
  create: ({ web, policy }) => createSearxngProvider({ endpoint: web.baseUrl, policy }),
  reachablePolicy: () => ({ mode: 'localhost' }),
  results: {
    headers: json,
    body: fixture('searx/searx-1.1.0_results-local-engines.json'),
    expectedUrl: 'https://example.com/html-one',
  },
  empty: { headers: json, body: fixture('searx/searx-1.1.0_empty.json') },
  rateLimited: [
    { headers: json, body: fixture('searx/searx-1.1.0_captcha-503.json') },
    { headers: json, body: fixture('searx/searx-1.1.0_http-429.json') },
    { status: 429, headers: { 'content-type': 'text/plain' }, body: 'Too Many Requests' },
  ],
  unavailable: [
    { headers: json, body: fixture('searx/searx-1.1.0_offline-real-engines.json') },
    { status: 500, headers: json, body: '{"error": "search error"}' },
    { status: 403, body: 'Forbidden' },
  ],
});

describeSearchProvider({
  id: 'ollama',
  path: '/api/experimental/web_search',
  create: ({ web, policy }) => createOllamaProvider({ baseUrl: web.baseUrl, policy }),
  reachablePolicy: () => ({ mode: 'localhost' }),
  results: {
    headers: json,
    body: JSON.stringify({
      results: [
        { title: 'Foo', url: 'https://en.wikipedia.org/wiki/Foo', content: 'Foo is a placeholder name.' },
        {
          title: 'Foobar',
          url: 'https://en.wikipedia.org/wiki/Foobar',
          content: 'Foobar is a placeholder term.',
        },
      ],
    }),
    expectedUrl: 'https://en.wikipedia.org/wiki/Foo',
  },
  empty: { headers: json, body: '{"results":[]}' },
  rateLimited: [{ status: 429, headers: json, body: '{"error":"rate limit exceeded"}' }],
  unavailable: [
    { status: 502, headers: json, body: '{"error":"dial tcp: lookup ollama.com: no such host"}' },
    { status: 401, headers: json, body: '{"error":"unauthorized"}' },
    { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>captive portal</html>' },
  ],
});

describeSearchProvider({
  id: 'duckduckgo',
  path: '/html/',
  create: ({ web, policy }) => createDuckDuckGoProvider({ endpoint: web.url('/html/'), policy }),
  reachablePolicy: loopbackOnly,
  results: {
    headers: html,
    body: keylessPage('lofi_duckduckgo-html-get-foo.html'),
    expectedUrl: 'https://en.wikipedia.org/wiki/Foo_Fighters',
  },
  // A real result page whose only item is an ad: nothing organic, no challenge.
  empty: { headers: html, body: keylessPage('clele_results-200.html') },
  rateLimited: [
    { status: 202, headers: html, body: keylessPage('clele_challenge-202.html') },
    { status: 200, headers: html, body: keylessPage('clele_challenge-202.html') },
    { status: 429, headers: html, body: '' },
    { status: 403, headers: html, body: '' },
  ],
  unavailable: [{ status: 500, headers: html, body: 'Internal Server Error' }],
});

describeSearchProvider({
  id: 'startpage',
  path: '/sp/search',
  create: ({ web, policy }) => createStartpageProvider({ endpoint: web.url('/sp/search'), policy }),
  reachablePolicy: loopbackOnly,
  results: {
    headers: html,
    body: keylessPage('websearchmcp_startpage-http.html'),
    expectedUrl: 'https://www.w3schools.com/js/',
  },
  // No real Startpage empty page or Anubis interstitial is recorded: these two bodies are derived,
  // minimal pages carrying the markers the notes describe.
  empty: { headers: html, body: '<!doctype html><html><body><div class="w-gl"></div></body></html>' },
  rateLimited: [
    { status: 302, headers: { location: 'https://www.startpage.com/sp/captcha?ref=search' }, body: '' },
    {
      status: 200,
      headers: html,
      body: '<!doctype html><html><head><title>Making sure you&#39;re not a bot!</title></head><body><div id="anubis_challenge"></div><p>Verifying your request…</p></body></html>',
    },
  ],
  unavailable: [{ status: 503, headers: html, body: 'Service Unavailable' }],
});
