import type { CodexSearchProvider } from '../src/codex-provider.js';
import { type CodexFake, createCodexFake, shapes } from './codex-fake-app-server.js';
import type { UpstreamUnderTest } from './describe-search-provider.js';

/** A scenario of the fake app-server: its replies and what it sends after them. */
export type CodexScenario = Record<string, unknown> & { on?: Record<string, unknown[]> };

/** The fake `codex app-server`, standing in for the subscription in the shared provider suite. */
export interface CodexUpstream extends UpstreamUnderTest<CodexScenario> {
  /** The current fake, whose clients the providers use. */
  readonly fake: CodexFake;
  /** Has a provider closed (its process ended) when the test is over. */
  track<T extends CodexSearchProvider>(provider: T): T;
}

/**
 * Starts a fake app-server scenario. A request that reaches the backend is a search turn: readiness
 * and quota reads are free, so they are not counted.
 */
export async function startCodexUpstream(): Promise<CodexUpstream> {
  let fake = createCodexFake();
  let providers: CodexSearchProvider[] = [];
  const closeProviders = async () => {
    await Promise.all(providers.splice(0).map((provider) => provider.close()));
  };
  return {
    get fake() {
      return fake;
    },
    track(provider) {
      providers.push(provider);
      return provider;
    },
    reply(scenario, options = {}) {
      const turn = scenario.on?.['turn/start'];
      // The turn is held open before its first notification, as a slow search would be.
      const held =
        options.delayMs === undefined || turn === undefined
          ? scenario
          : { ...scenario, on: { ...scenario.on, 'turn/start': [{ delay: options.delayMs }, ...turn] } };
      fake.setScenario(held);
    },
    breakConnection() {
      // The process dies once the turn has started, as a crashed app-server would.
      fake.setScenario({ on: { 'turn/start': [{ send: shapes.schema.turnStarted }, { exit: 1 }] } });
    },
    requestCount: () => fake.requests('turn/start').length,
    async reset() {
      await closeProviders();
      fake.dispose();
      fake = createCodexFake();
      providers = [];
    },
    async close() {
      await closeProviders();
      fake.dispose();
    },
  };
}
