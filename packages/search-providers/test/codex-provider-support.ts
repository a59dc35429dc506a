// What the Codex provider's tests share: sample results, a provider over a fresh fake app-server,
// a call context that records charges, and the cleanups a test leaves behind. Each test file runs
// `afterEach(runCleanups)` itself.
import {
  type CodexProviderOptions,
  type CodexSearchProvider,
  createCodexProvider,
} from '../src/codex-provider.js';
import type { ProviderCallContext, ProviderSearchRequest } from '../src/search-provider.js';
import { createCodexFake } from './codex-fake-app-server.js';

export { failureOf as rejection } from './failure-of.js';

export const RESULTS = [
  {
    title: 'Rust async traits stabilized',
    url: 'https://blog.rust-lang.org/2023/12/21/async-fn-rpit-in-traits.html?utm_source=codex#top',
    snippet: 'Async functions in traits are stable in Rust 1.75.',
  },
  { title: 'No URL scheme we fetch', url: 'https://user:secret@example.com/private' },
  { title: 'RFC 3185: static async fn in trait', url: 'https://rust-lang.github.io/rfcs/3185.html' },
];

/** What a test started and must stop; {@link runCleanups} runs them after each test, newest first. */
export const cleanups: (() => Promise<void> | void)[] = [];

export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** A provider over a fresh fake; the fake starts only when the provider first needs its client. */
export function setup(scenario: Record<string, unknown>, options: CodexProviderOptions = {}) {
  const fake = createCodexFake(scenario);
  const provider = createCodexProvider({ client: () => fake.createClient(), ...options });
  cleanups.push(
    () => fake.dispose(),
    () => provider.close(),
  );
  return { fake, provider };
}

export function context(overrides: Partial<ProviderCallContext> = {}) {
  const charges: number[] = [];
  return {
    charges,
    context: {
      timeoutMs: 10_000,
      beforeRequest: () => charges.push(1),
      ...overrides,
    } satisfies ProviderCallContext,
  };
}

export const ask = (provider: CodexSearchProvider, request: Partial<ProviderSearchRequest> = {}) => {
  const call = context();
  return {
    charges: call.charges,
    answer: provider.search({ query: 'rust async trait', limit: 5, ...request }, call.context),
  };
};
