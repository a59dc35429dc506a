import type {} from '@mono-agent/test-services/searx-global-setup';
import { describe, expect, inject, it } from 'vitest';
import { failureOf } from '../test/failure-of.js';
import type { ProviderCallContext } from './search-provider.js';
import { createSearxngProvider } from './searxng-provider.js';

// Against the real searx server the global setup started (fixture engines on loopback; the stock
// engines fail for real because the machine has no route to them).
const endpoint = inject('searxUrl');

function context(): ProviderCallContext & { requests: number } {
  const state = {
    requests: 0,
    timeoutMs: 15_000,
    beforeRequest() {
      state.requests += 1;
    },
  };
  return state;
}

describe('SearXNG provider against a real searx', () => {
  it('returns normalized results from working engines and charges one request', async () => {
    const provider = createSearxngProvider({ endpoint, policy: { mode: 'localhost' } });
    const call = context();
    const answer = await provider.search({ query: 'test', limit: 10 }, call);
    expect(answer.kind).toBe('results');
    if (answer.kind !== 'results') return;
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.map((result) => result.url)).toContain('https://example.com/html-one');
    expect(call.requests).toBe(1);
  });

  it('names every failed engine when all of them are unresponsive', async () => {
    // searx's bang syntax sends the query to the stock engines only, which cannot reach the internet.
    const provider = createSearxngProvider({ endpoint, policy: { mode: 'localhost' } });
    const error = await failureOf(
      provider.search({ query: '!ddg !wp offline engines', limit: 5 }, context()),
    );
    expect(error.code).toBe('backend_unavailable');
    expect(error.message).toMatch(/duckduckgo: [^;]+/);
    expect(error.message).toMatch(/wikipedia: [^;]+/);
  });

  it('is reachable under all (operator-chosen) but never under none', async () => {
    const underAll = createSearxngProvider({ endpoint, policy: { mode: 'all' } });
    expect((await underAll.search({ query: 'test', limit: 3 }, context())).kind).toBe('results');
    const underNone = createSearxngProvider({ endpoint, policy: { mode: 'none' } });
    expect((await failureOf(underNone.search({ query: 'test', limit: 3 }, context()))).code).toBe(
      'policy_denied',
    );
    const unlisted = createSearxngProvider({
      endpoint,
      policy: { mode: 'allowlist', allow: ['example.com'] },
    });
    expect((await failureOf(unlisted.search({ query: 'test', limit: 3 }, context()))).code).toBe(
      'policy_denied',
    );
    const port = new URL(endpoint).port;
    const listed = createSearxngProvider({
      endpoint,
      policy: { mode: 'allowlist', allow: [`127.0.0.1:${port}`] },
    });
    expect((await listed.search({ query: 'test', limit: 3 }, context())).kind).toBe('results');
  });
});
