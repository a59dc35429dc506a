import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCodexBinary } from '@mono-agent/test-services';
import { afterEach, describe, expect, it } from 'vitest';
import { happyTurn, isAlive, shapes } from '../test/codex-fake-app-server.js';
import {
  ask,
  cleanups,
  context,
  RESULTS,
  rejection,
  runCleanups,
  setup,
} from '../test/codex-provider-support.js';
import {
  CODEX_FILTER_SUPPORT,
  CODEX_SCOPE,
  createCodexProvider,
  DEFAULT_CODEX_SEARCH_MODEL,
} from './codex-provider.js';

const s = shapes.schema;
const signedOut = { result: shapes.live.accountSignedOut };

afterEach(runCleanups);

describe('the codex provider', () => {
  it('names the backend, one subscription scope and advisory filters', () => {
    const provider = createCodexProvider({ model: 'gpt-6-luna' });
    expect(provider.id).toBe('codex');
    expect(provider.scope).toBe(CODEX_SCOPE);
    expect(provider.scope).toBe('codex:subscription');
    expect(provider.filterSupport).toEqual({ language: 'advisory', timeRange: 'advisory' });
    expect(CODEX_FILTER_SUPPORT).toBe(provider.filterSupport);
    expect(DEFAULT_CODEX_SEARCH_MODEL).toBe('gpt-5.6-luna');
  });

  it('maps the results, charges exactly one request and sends the query and model unchanged', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    const query = '"async fn" site:blog.rust-lang.org -tokio café \\"x\' 🦀';
    const { answer, charges } = ask(provider, { query, language: 'de-CH', timeRange: 'year' });
    expect(await answer).toEqual({
      kind: 'results',
      results: [
        {
          title: 'Rust async traits stabilized',
          url: 'https://blog.rust-lang.org/2023/12/21/async-fn-rpit-in-traits.html',
          snippet: 'Async functions in traits are stable in Rust 1.75.',
        },
        {
          title: 'RFC 3185: static async fn in trait',
          url: 'https://rust-lang.github.io/rfcs/3185.html',
          snippet: '',
        },
      ],
      warnings: [],
    });
    expect(charges).toEqual([1]);
    const [turnStart] = fake.requests('turn/start');
    const input = turnStart?.params?.input as { text: string }[];
    expect(input[0]?.text).toBe(query);
    expect(input[1]?.text).toMatch(/language=de-CH; time range=past year/);
    expect(fake.requests('thread/start')[0]?.params?.model).toBe(DEFAULT_CODEX_SEARCH_MODEL);
  });

  it('keeps at most the requested number of results and answers no_results for an empty item', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    const limited = await ask(provider, { limit: 1 }).answer;
    expect(limited.kind === 'results' && limited.results.map((result) => result.title)).toEqual([
      'Rust async traits stabilized',
    ]);
    fake.setScenario({ results: [], on: { 'turn/start': happyTurn() } });
    const empty = ask(provider);
    expect(await empty.answer).toEqual({ kind: 'no_results', warnings: [] });
    expect(empty.charges).toEqual([1]);
  });

  it('starts nothing until a search reaches it, then checks readiness once in auto mode', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    await provider.close();
    expect(fake.pid()).toBeUndefined();
    await ask(provider).answer;
    await ask(provider, { query: 'second query' }).answer;
    expect(fake.starts()).toBe(1);
    expect(fake.requests('account/read')).toHaveLength(1);
    expect(fake.requests('modelProvider/capabilities/read')).toHaveLength(1);
    expect(fake.requests('turn/start')).toHaveLength(2);
  });

  it('remembers a not-ready answer in auto mode, so a signed-out machine pays the start once', async () => {
    const { fake, provider } = setup({ responses: { 'account/read': signedOut } });
    const first = ask(provider);
    const error = await rejection(first.answer);
    expect(error.code).toBe('configuration_error');
    expect(error.details).toMatchObject({ backend: 'codex', check: 'account' });
    expect(error.message).toMatch(/codex login/);
    expect(first.charges).toEqual([]);
    await provider.close();
    // Signing in meanwhile does not matter to auto mode: the answer is kept for the provider's life.
    fake.setScenario({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    expect((await rejection(ask(provider).answer)).details.check).toBe('account');
    expect(fake.starts()).toBe(1);
    expect(fake.requests('account/read')).toHaveLength(1);
  });

  it('checks readiness before every search in strict mode and never remembers a failure', async () => {
    const { fake, provider } = setup({ responses: { 'account/read': signedOut } }, { strict: true });
    expect((await rejection(ask(provider).answer)).details.check).toBe('account');
    fake.setScenario({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    expect((await ask(provider).answer).kind).toBe('results');
    expect((await ask(provider).answer).kind).toBe('results');
    expect(fake.requests('account/read')).toHaveLength(3);
    expect(fake.starts()).toBe(1);
  });

  it.each([
    ['webSearch', { responses: { 'modelProvider/capabilities/read': { result: { webSearch: false } } } }, {}],
    ['model', {}, { model: 'no-such-model' }],
  ] as const)('names the failed %s check and how to fix it', async (check, scenario, options) => {
    const { fake, provider } = setup(scenario, { strict: true, ...options });
    const error = await rejection(ask(provider).answer);
    expect(error.code).toBe('configuration_error');
    expect(error.details).toMatchObject({ backend: 'codex', check, failedChecks: [check] });
    expect(error.message).toMatch(check === 'model' ? /no-such-model.*model\/list/ : /web search/);
    expect(fake.requests('thread/start')).toEqual([]);
  });

  it('says the codex CLI is not installed when the binary is missing', async () => {
    const provider = createCodexProvider({ command: '/nonexistent/mono-agent/codex' });
    cleanups.push(() => provider.close());
    const call = ask(provider);
    const error = await rejection(call.answer);
    expect(error.code).toBe('configuration_error');
    expect(error.details).toMatchObject({ backend: 'codex', check: 'binary', errno: 'ENOENT' });
    expect(error.message).toMatch(/not installed.*npm install -g @openai\/codex/);
    expect(call.charges).toEqual([]);
  });

  it('skips for free with quota_unavailable and retryAt when a window is 90% used', async () => {
    const rateLimits = structuredClone(s.rateLimits) as { rateLimits: { primary: Record<string, number> } };
    rateLimits.rateLimits.primary.usedPercent = 90;
    const { fake, provider } = setup({
      responses: { 'account/rateLimits/read': { result: rateLimits } },
      on: { 'turn/start': happyTurn() },
    });
    const call = ask(provider);
    const error = await rejection(call.answer);
    expect(error.code).toBe('quota_unavailable');
    expect(error.details).toEqual({ backend: 'codex', reason: 'reserve' });
    expect(error.retryAt).toBe(rateLimits.rateLimits.primary.resetsAt! * 1000);
    expect(call.charges).toEqual([]);
    expect(fake.requests('thread/start')).toEqual([]);
  });

  it('skips for free when the quota cannot be read', async () => {
    const { provider } = setup({
      responses: { 'account/rateLimits/read': { error: shapes.live.rateLimitsSignedOut } },
    });
    const call = ask(provider);
    const error = await rejection(call.answer);
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('missing');
    expect(error.retryAt).toBeUndefined();
    expect(call.charges).toEqual([]);
  });

  const item = (value: Record<string, unknown>) => ({
    send: { method: 'item/completed', params: { item: value, threadId: '$THREAD', turnId: '$TURN' } },
  });
  it.each([
    ['a search item without results', { results: null, on: { 'turn/start': happyTurn() } }],
    [
      'a second search item',
      {
        results: RESULTS,
        on: {
          'turn/start': [
            { send: s.turnStarted },
            { send: s.searchCompleted },
            item({ type: 'webSearch', id: 'call_search_2', query: 'more', action: null, results: [] }),
            { send: s.turnCompleted },
          ],
        },
      },
    ],
    [
      'a server request',
      {
        on: {
          'turn/start': [
            { send: s.turnStarted },
            {
              send: {
                id: 'server-1',
                method: 'item/commandExecution/requestApproval',
                params: { threadId: '$THREAD', turnId: '$TURN', itemId: 'i', command: 'ls' },
              },
            },
          ],
        },
      },
    ],
  ])('lets the client reject %s unchanged, after charging the turn', async (_name, scenario) => {
    const { fake, provider } = setup(scenario);
    const call = ask(provider);
    const error = await rejection(call.answer);
    expect(error.code).toBe('protocol_error');
    expect(call.charges).toEqual([1]);
    expect(fake.requests('turn/interrupt')).toHaveLength(1);
  });

  it('passes a usage-limit turn failure through as rate_limited', async () => {
    const failed = {
      method: 'turn/completed',
      params: {
        threadId: '$THREAD',
        turn: {
          id: '$TURN',
          items: [],
          status: 'failed',
          error: { message: 'usage limit', codexErrorInfo: 'usageLimitExceeded' },
        },
      },
    };
    const { provider } = setup({ on: { 'turn/start': [{ send: s.turnStarted }, { send: failed }] } });
    expect((await rejection(ask(provider).answer)).code).toBe('rate_limited');
  });

  it('maps its own deadline to timeout, and rejects only after the process has ended', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    // A first search starts the process and passes readiness, so however slow the start, the deadline
    // below falls in the turn, after the charge.
    await ask(provider).answer;
    fake.setScenario({ on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }] } });
    const call = context({ timeoutMs: 400 });
    const error = await rejection(provider.search({ query: 'never ends', limit: 5 }, call.context));
    expect(error.code).toBe('timeout');
    expect(error.details).toMatchObject({ backend: 'codex', timeoutMs: 400 });
    expect(isAlive(fake.pid())).toBe(false);
    expect(call.charges).toEqual([1]);
  });

  it('rejects a cancelled search with cancelled only after the process has ended', async () => {
    const { fake, provider } = setup({
      on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }] },
    });
    const controller = new AbortController();
    const call = context({ signal: controller.signal });
    const search = provider.search({ query: 'cancel me', limit: 5 }, call.context);
    setTimeout(() => controller.abort(), 300);
    const error = await rejection(search);
    expect(error.code).toBe('cancelled');
    expect(isAlive(fake.pid())).toBe(false);
  });

  it('closes a readiness check that a cancellation interrupts, and asks again next time', async () => {
    const { fake, provider } = setup({ responses: { 'account/read': { noReply: true } } });
    const controller = new AbortController();
    const call = context({ signal: controller.signal });
    const search = provider.search({ query: 'rust async trait', limit: 5 }, call.context);
    setTimeout(() => controller.abort(), 300);
    expect((await rejection(search)).code).toBe('cancelled');
    expect(isAlive(fake.pid())).toBe(false);
    expect(call.charges).toEqual([]);
    fake.setScenario({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    expect((await ask(provider).answer).kind).toBe('results');
    expect(fake.starts()).toBe(2);
    expect(fake.requests('account/read')).toHaveLength(2);
  });

  it('stops a call whose readiness answers while the stop is closing the client, starting nothing more', async () => {
    // The start answers late, so the deadline closes the client while readiness is still on its way;
    // readiness then answers before the process is gone.
    const { fake, provider } = setup({
      results: RESULTS,
      on: { initialize: [{ delay: 500 }, { respond: true }], 'turn/start': happyTurn() },
    });
    const call = context({ timeoutMs: 200 });
    const error = await rejection(provider.search({ query: 'rust async trait', limit: 5 }, call.context));
    expect(error.code).toBe('timeout');
    expect(isAlive(fake.pid())).toBe(false);
    expect(fake.starts()).toBe(1);
    expect(call.charges).toEqual([]);
  });

  it('ends the child process on close()', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    await ask(provider).answer;
    const pid = fake.pid();
    expect(isAlive(pid)).toBe(true);
    await provider.close();
    expect(isAlive(pid)).toBe(false);
  });
});

const binary = findCodexBinary();
describe.skipIf(binary === undefined)('the codex provider over the real codex binary, signed out', () => {
  it('fails readiness on the account check without starting a turn', async () => {
    const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
    // The default client, started lazily from `command` and `env`, as a host configures it.
    const provider = createCodexProvider({
      strict: true,
      command: binary!,
      env: { ...process.env, CODEX_HOME: home, RUST_LOG: 'error' },
    });
    try {
      const call = ask(provider);
      const error = await rejection(call.answer);
      expect(error.code).toBe('configuration_error');
      expect(error.details).toMatchObject({ backend: 'codex', check: 'account', failedChecks: ['account'] });
      expect(error.message).toMatch(/codex login/);
      // Readiness failed first, so no quota read, no charge and no turn.
      expect(call.charges).toEqual([]);
    } finally {
      await provider.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 20_000);
});
