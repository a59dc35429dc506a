import { WebToolError } from '@mono-agent/budget-policy';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { NetworkPolicy } from '@mono-agent/net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderCallContext, SearchProvider } from '../src/search-provider.js';
import { failureOf } from './failure-of.js';

/** A canned upstream answer, replaying what the real backend sends in that situation. */
export interface UpstreamReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

/** How one backend is set up and what its real answers look like, for the shared suite. */
export interface ProviderUnderTest {
  /** The provider's expected id. */
  id: SearchProvider['id'];
  /** The path the provider requests on its endpoint (where the suite installs replies). */
  path: string;
  /** Builds the provider for an endpoint on the fixture web under a policy. */
  create(options: { web: FixtureWeb; policy: NetworkPolicy }): SearchProvider;
  /** The policy under which the fixture endpoint is reachable. */
  reachablePolicy(web: FixtureWeb): NetworkPolicy;
  /** A real answer with results; `expectedUrl` is one URL the provider must report from it. */
  results: UpstreamReply & { expectedUrl: string };
  /** A real answer meaning "nothing matched". */
  empty: UpstreamReply;
  /** Real answers meaning "you are throttled or blocked". */
  rateLimited: UpstreamReply[];
  /** Real answers meaning "the backend is broken", not throttled. */
  unavailable: UpstreamReply[];
}

/**
 * The behaviour every search provider shares: results, genuine emptiness, throttling, breakage,
 * transport failures, policy denials, deadlines, cancellation and the budget hook are classified the
 * same way by every backend.
 */
export function describeSearchProvider(subject: ProviderUnderTest): void {
  describe(`${subject.id} provider (shared behaviour)`, () => {
    let web: FixtureWeb;
    beforeAll(async () => {
      web = await startFixtureWeb();
    });
    afterAll(async () => {
      await web.close();
    });
    beforeEach(() => web.reset());

    const reply = (answer: UpstreamReply) =>
      web.scenario(subject.path, {
        status: answer.status ?? 200,
        headers: answer.headers ?? {},
        body: answer.body ?? '',
      });
    const provider = (policy?: NetworkPolicy) =>
      subject.create({ web, policy: policy ?? subject.reachablePolicy(web) });
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

    it('returns normalized results within the limit and charges before sending', async () => {
      reply(subject.results);
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
      reply(subject.empty);
      expect((await provider().search({ query: 'nothing matches', limit: 5 }, context())).kind).toBe(
        'no_results',
      );
    });

    it('classifies every throttling or block signal as rate_limited', async () => {
      for (const answer of subject.rateLimited) {
        reply(answer);
        const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
        expect(error.code, `${answer.status} ${answer.body?.slice(0, 60)}`).toBe('rate_limited');
      }
    });

    it('classifies a broken backend as backend_unavailable (or configuration_error), never as no results', async () => {
      for (const answer of subject.unavailable) {
        reply(answer);
        const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
        expect(['backend_unavailable', 'configuration_error'], `${answer.status}`).toContain(error.code);
      }
    });

    it('turns a transport failure into backend_unavailable', async () => {
      web.scenario(subject.path, (request) => {
        request.socket.destroy();
      });
      const error = await failureOf(provider().search({ query: 'foo', limit: 5 }, context()));
      expect(error.code).toBe('backend_unavailable');
    });

    it('stops at its deadline with timeout', async () => {
      reply({ ...subject.results });
      web.scenario(subject.path, { delayMs: 3000, body: subject.results.body ?? '' });
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ timeoutMs: 300 })),
      );
      expect(error.code).toBe('timeout');
    });

    it('stops when cancelled', async () => {
      web.scenario(subject.path, { delayMs: 3000, body: subject.results.body ?? '' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ signal: controller.signal })),
      );
      expect(error.code).toBe('cancelled');
    });

    it('makes no request under network mode none', async () => {
      reply(subject.results);
      const error = await failureOf(provider({ mode: 'none' }).search({ query: 'foo', limit: 5 }, context()));
      expect(error.code).toBe('policy_denied');
      expect(web.requests).toHaveLength(0);
    });

    it('sends nothing when the budget hook refuses', async () => {
      reply(subject.results);
      const refuse = () => {
        throw new WebToolError({ code: 'search_budget_exhausted', message: 'no budget left' });
      };
      const error = await failureOf(
        provider().search({ query: 'foo', limit: 5 }, context({ beforeRequest: refuse })),
      );
      expect(error.code).toBe('search_budget_exhausted');
      expect(web.requests).toHaveLength(0);
    });
  });
}
