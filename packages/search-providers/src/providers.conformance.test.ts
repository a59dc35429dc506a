import { readFileSync } from 'node:fs';
import { happyTurn, shapes } from '../test/codex-fake-app-server.js';
import { startCodexUpstream } from '../test/codex-upstream.js';
import { describeSearchProvider } from '../test/describe-search-provider.js';
import { type HttpUpstream, startHttpUpstream } from '../test/http-upstream.js';
import { createCodexProvider } from './codex-provider.js';
import { createDuckDuckGoProvider, createStartpageProvider } from './keyless-provider.js';
import { createOllamaProvider } from './ollama-provider.js';
import { createSearxngProvider } from './searxng-provider.js';

const fixture = (path: string) => readFileSync(new URL(`./__fixtures__/${path}`, import.meta.url), 'utf8');
// The real DuckDuckGo and Startpage pages recorded once, in the package that parses them.
const keylessPage = (name: string) =>
  readFileSync(new URL(`../../keyless-html/src/__fixtures__/${name}`, import.meta.url), 'utf8');
const loopbackOnly = ({ web }: HttpUpstream) => ({
  mode: 'allowlist' as const,
  allow: [`127.0.0.1:${web.port}`],
});
const html = { 'content-type': 'text/html; charset=utf-8' };
const json = { 'content-type': 'application/json' };

describeSearchProvider({
  id: 'searxng',
  start: () => startHttpUpstream('/search'),
  create: ({ upstream: { web }, policy }) => createSearxngProvider({ endpoint: web.baseUrl, policy }),
  reachablePolicy: () => ({ mode: 'localhost' }),
  results: {
    reply: {
      headers: json,
      body: fixture('searx/searx-1.1.0_results-local-engines.json'),
    },
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
  start: () => startHttpUpstream('/api/experimental/web_search'),
  create: ({ upstream: { web }, policy }) => createOllamaProvider({ baseUrl: web.baseUrl, policy }),
  reachablePolicy: () => ({ mode: 'localhost' }),
  results: {
    reply: {
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
    },
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
  start: () => startHttpUpstream('/html/'),
  create: ({ upstream: { web }, policy }) =>
    createDuckDuckGoProvider({ endpoint: web.url('/html/'), policy }),
  reachablePolicy: loopbackOnly,
  results: {
    reply: {
      headers: html,
      body: keylessPage('lofi_duckduckgo-html-get-foo.html'),
    },
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
  start: () => startHttpUpstream('/sp/search'),
  create: ({ upstream: { web }, policy }) =>
    createStartpageProvider({ endpoint: web.url('/sp/search'), policy }),
  reachablePolicy: loopbackOnly,
  results: {
    reply: {
      headers: html,
      body: keylessPage('websearchmcp_startpage-http.html'),
    },
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

// Codex talks to a `codex app-server` process, not to an HTTP endpoint: the fake app-server replays
// the shapes recorded from the real one, and a request that reaches the backend is a search turn.
const failedTurn = (codexErrorInfo: unknown) => ({
  on: {
    'turn/start': [
      { send: shapes.schema.turnStarted },
      {
        send: {
          method: 'turn/completed',
          params: {
            threadId: '$THREAD',
            turn: {
              id: '$TURN',
              items: [],
              status: 'failed',
              error: { message: 'turn failed', codexErrorInfo },
            },
          },
        },
      },
    ],
  },
});

describeSearchProvider({
  id: 'codex',
  start: startCodexUpstream,
  create: ({ upstream, policy }) =>
    upstream.track(createCodexProvider({ client: () => upstream.fake.createClient(), policy })),
  // The fake never leaves the machine, but the provider asks the policy about chatgpt.com all the same.
  reachablePolicy: () => ({ mode: 'allowlist', allow: ['chatgpt.com'] }),
  results: {
    reply: {
      results: [
        {
          title: 'Rust async traits stabilized',
          url: 'https://blog.rust-lang.org/2023/12/21/async-fn-rpit-in-traits.html?utm_source=codex#top',
          snippet: 'Async functions in traits are stable in Rust 1.75.',
        },
        { title: 'RFC 3185: static async fn in trait', url: 'https://rust-lang.github.io/rfcs/3185.html' },
      ],
      on: { 'turn/start': happyTurn() },
    },
    expectedUrl: 'https://rust-lang.github.io/rfcs/3185.html',
  },
  empty: { results: [], on: { 'turn/start': happyTurn() } },
  rateLimited: [failedTurn('usageLimitExceeded'), failedTurn('rateLimitExceeded')],
  unavailable: [
    { responses: { 'account/read': { result: shapes.live.accountSignedOut } } },
    failedTurn('serverOverloaded'),
    failedTurn({ httpConnectionFailed: { httpStatusCode: 502 } }),
  ],
});
