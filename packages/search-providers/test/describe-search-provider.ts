import { createRunBudget, createRunDeferrals, WebToolError } from '@mono-agent/budget-policy';
import { createCoordinator, MAX_SCOPE_CONCURRENCY, MAX_SPACING_MS } from '@mono-agent/host-coordination';
import type { NetworkPolicy } from '@mono-agent/net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSearchChain } from '../src/search-chain.js';
import type { ProviderCallContext, SearchProvider } from '../src/search-provider.js';
import { failureOf } from './failure-of.js';

/**
 * The backend a provider talks to in the suite (a loopback HTTP server, or a scripted process),
 * answering with replayed real replies as the suite tells it.
 */
export interface UpstreamUnderTest<Reply> {
  /** Answers every request with `reply`, holding the answer back `delayMs` first when given. */
  reply(reply: Reply, options?: { delayMs?: number }): void;
  /** Cuts the connection in the middle of every request. */
  breakConnection(): void;
  /** How many requests reached the backend: those a provider charges to the run's budget. */
  requestCount(): number;
  /** Forgets replies and requests, and ends whatever the previous test left running. */
  reset(): Promise<void>;
  /** Stops the upstream and everything still connected to it. */
  close(): Promise<void>;
}

/** The replies an upstream takes. */
export type ReplyOf<Upstream> = Upstream extends UpstreamUnderTest<infer Reply> ? Reply : never;

/** How one backend is set up and what its real answers look like, for the shared suite. */
export interface ProviderUnderTest<Upstream extends UpstreamUnderTest<unknown>> {
  /** The provider's expected id. */
  id: SearchProvider['id'];
  /** Starts the upstream, once for the whole suite. */
  start(): Promise<Upstream>;
  /** Builds the provider for the upstream under a policy. */
  create(options: { upstream: Upstream; policy: NetworkPolicy }): SearchProvider;
  /** The policy under which the upstream is reachable. */
  reachablePolicy(upstream: Upstream): NetworkPolicy;
  /** A real answer with results; `expectedUrl` is one URL the provider must report from it. */
  results: { reply: ReplyOf<Upstream>; expectedUrl: string };
  /** A real answer meaning "nothing matched". */
  empty: ReplyOf<Upstream>;
  /** Real answers meaning "you are throttled or blocked". */
  rateLimited: ReplyOf<Upstream>[];
  /** Real answers meaning "the backend is broken", not throttled. */
  unavailable: ReplyOf<Upstream>[];
}

/**
 * The behaviour every search provider shares: results, genuine emptiness, throttling, breakage,
 * transport failures, policy denials, deadlines, cancellation and the budget hook are classified the
 * same way by every backend, and the chain treats it as its declared limits say. What sets one
 * provider apart is read from its declarations, never from its name.
 */
export function describeSearchProvider<Upstream extends UpstreamUnderTest<unknown>>(
  subject: ProviderUnderTest<Upstream>,
): void {
  describe(`${subject.id} provider (shared behaviour)`, () => {
    let upstream: Upstream;
    beforeAll(async () => {
      upstream = await subject.start();
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => upstream.reset());

    const provider = (policy?: NetworkPolicy) =>
      subject.create({ upstream, policy: policy ?? subject.reachablePolicy(upstream) });
    const context = (overrides: Partial<ProviderCallContext> = {}) => {
      const state = {
        charged: 0,
        timeoutMs: 5000,
        beforeRequest() {
          state.charged += 1;
        },
        ...overrides,
      };
      return state;
    };

    it('has its id, a scope without query text, and declares its filter support', () => {
      const instance = provider();
      expect(instance.id).toBe(subject.id);
      expect(instance.scope.startsWith(`${subject.id}:`)).toBe(true);
      expect(['supported', 'hint', 'advisory', 'unsupported']).toContain(instance.filterSupport.language);
      expect(['supported', 'hint', 'advisory', 'unsupported']).toContain(instance.filterSupport.timeRange);
    });

    it('declares admission limits the coordinator accepts, with one scope of its own that keeps verdicts', () => {
      const { limits } = provider();
      for (const admission of [limits.host, ...limits.process]) {
        expect(admission.kind).toBe('search');
        expect(admission.concurrency).toBeGreaterThanOrEqual(1);
        expect(admission.concurrency).toBeLessThanOrEqual(MAX_SCOPE_CONCURRENCY);
        expect(admission.spacingMs).toBeGreaterThanOrEqual(0);
        expect(admission.spacingMs).toBeLessThanOrEqual(MAX_SPACING_MS);
      }
      // Its own scope is where a throttle opens a cooldown, so exactly one admission records verdicts.
      const own = limits.process.filter((admission) => admission.scope === undefined);
      expect(own).toHaveLength(1);
      expect(own[0]?.recordsOutcome).toBeUndefined();
      for (const shared of limits.process.filter((admission) => admission.scope !== undefined))
        expect(shared.recordsOutcome).toBe(false);
    });

    it('returns normalized results within the limit and charges before sending', async () => {
      upstream.reply(subject.results.reply);
      const call = context();
      const answer = await provider().search({ query: 'foo', limit: 10 }, call);
      expect(answer.kind).toBe('results');
      if (answer.kind !== 'results') return;
      expect(answer.results.map((result) => result.url)).toContain(subject.results.expectedUrl);
      for (const result of answer.results) expect(result.url).toMatch(/^https?:\/\/[^#]*$/);
      expect(call.charged).toBeGreaterThanOrEqual(1);
      const limited = await provider().search({ query: 'foo', limit: 1 }, context());
      expect(limited.kind === 'results' && limited.results.length).toBe(1);
    });

    it('reports a genuine empty answer as no results', async () => {
      upstream.reply(subject.empty);
      expect((await provider().search({ query: 'nothing matches', limit: 5 }, context())).kind).toBe(
        'no_results',
      );
    });

    it('classifies every throttling or block signal as rate_limited', async () => {
      for (const [index, answer] of subject.rateLimited.entries()) {
        upstream.reply(answer);
        const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
        expect(error.code, `rate-limited reply ${index}: ${error.message}`).toBe('rate_limited');
      }
    });

    it('classifies a broken backend as backend_unavailable (or configuration_error), never as no results', async () => {
      for (const [index, answer] of subject.unavailable.entries()) {
        upstream.reply(answer);
        const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
        expect(['backend_unavailable', 'configuration_error'], `unavailable reply ${index}`).toContain(
          error.code,
        );
      }
    });

    it('turns a transport failure into backend_unavailable', async () => {
      upstream.breakConnection();
      const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
      expect(error.code).toBe('backend_unavailable');
    });

    it('stops at its deadline with timeout', async () => {
      upstream.reply(subject.results.reply, { delayMs: 3000 });
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ timeoutMs: 300 })),
      );
      expect(error.code).toBe('timeout');
    });

    it('stops when cancelled', async () => {
      upstream.reply(subject.results.reply, { delayMs: 3000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ signal: controller.signal })),
      );
      expect(error.code).toBe('cancelled');
    });

    it('makes no request under network mode none', async () => {
      upstream.reply(subject.results.reply);
      const error = await failureOf(provider({ mode: 'none' }).search({ query: 'foo', limit: 5 }, context()));
      expect(error.code).toBe('policy_denied');
      expect(upstream.requestCount()).toBe(0);
    });

    it('sends nothing when the budget hook refuses', async () => {
      upstream.reply(subject.results.reply);
      const refuse = () => {
        throw new WebToolError({ code: 'search_budget_exhausted', message: 'no budget left' });
      };
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ beforeRequest: refuse })),
      );
      expect(error.code).toBe('search_budget_exhausted');
      expect(upstream.requestCount()).toBe(0);
    });

    it('is asked the alternate wordings in the chain only when it declares it takes them', async () => {
      upstream.reply(subject.empty);
      const instance = provider();
      const chain = createSearchChain({
        backend: 'auto',
        providers: { [subject.id]: instance },
        coordinator: createCoordinator({ mode: 'process' }),
      });
      const outcome = await chain.search(
        { query: 'nothing matches', alternateQueries: ['nothing at all'] },
        { budget: createRunBudget({ limit: 4 }), deferrals: createRunDeferrals() },
      );
      const asked = instance.limits.alternateQueries ? 2 : 1;
      expect(outcome.providers).toMatchObject([
        { backend: subject.id, disposition: 'no_results', queries: asked, requests: asked },
      ]);
      expect(upstream.requestCount()).toBe(asked);
    });
  });
}
