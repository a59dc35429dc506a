import { existsSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchAdmissionOutcome } from '../src/codex-app-server-client.js';
import { KNOWN_SERVER_REQUEST_METHODS, refuseServerRequest } from '../src/server-request-refusal.js';
import { createFakeHarness, type FakeHarness, happyTurn, sampleResults, shapes } from './fake-app-server.js';

const harnesses: FakeHarness[] = [];
const harness = (...parameters: Parameters<typeof createFakeHarness>) => {
  const created = createFakeHarness(...parameters);
  harnesses.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((entry) => entry.dispose()));
});

// One fake process serves every scenario of a group (it re-reads its scenario per request), which
// keeps the suite from paying a process start per case.
let shared: FakeHarness;
beforeAll(() => {
  shared = createFakeHarness();
});
afterAll(() => shared.dispose());
const reuse = (scenario: Record<string, unknown>) => {
  shared.setScenario(scenario);
  return shared;
};

const s = shapes.schema;
const item = (
  method: 'item/started' | 'item/completed',
  value: Record<string, unknown>,
  thread = '$THREAD',
) => ({
  send: { method, params: { item: value, threadId: thread, turnId: '$TURN' } },
});

const rejection = async (promise: Promise<unknown>): Promise<WebToolError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
};

describe('a search against the scripted app-server', () => {
  it('returns the results of the one webSearch item and ignores the prose around it', async () => {
    const fake = harness({ results: sampleResults, on: { 'turn/start': happyTurn() } });
    const response = await fake.client.search({ query: 'rust async trait' });
    expect(response.results).toEqual([
      {
        title: 'Async functions in traits',
        url: 'https://blog.rust-lang.org/2023/12/21/async-fn-rpit-in-traits.html',
        snippet: 'Stabilized in Rust 1.75.',
      },
      { title: 'RFC 3185', url: 'https://rust-lang.github.io/rfcs/3185-static-async-fn-in-trait.html' },
    ]);
    expect(JSON.stringify(response)).not.toContain('prose.example');
    expect(fake.requests('thread/unsubscribe')).toHaveLength(1);
  });

  it('sends the exact thread/start and turn/start parameters, the query byte for byte', async () => {
    const query = '  "exact phrase" site:example.org café — 🦀\tweird\\ quoting \u200b ';
    const fake = harness({
      results: sampleResults,
      mcpServers: { docs: { command: 'docs-mcp' }, 'dotted.name': { url: 'http://127.0.0.1:9' } },
      on: { 'turn/start': happyTurn() },
    });
    await fake.client.search({ query, language: 'pt-BR', timeRange: 'month' });

    const [threadStart] = fake.requests('thread/start');
    const cwd = threadStart?.params?.cwd as string;
    expect(threadStart?.params).toEqual({
      model: 'gpt-5.6-luna',
      cwd,
      approvalPolicy: 'never',
      sandbox: 'read-only',
      ephemeral: true,
      config: {
        web_search: 'live',
        'features.apps': false,
        'features.plugins': false,
        mcp_servers: { docs: { enabled: false }, 'dotted.name': { enabled: false } },
      },
      environments: [],
      dynamicTools: [],
      selectedCapabilityRoots: [],
    });
    expect(cwd).toMatch(/mono-agent-codex-/);
    expect(existsSync(cwd)).toBe(false);
    const [configRead] = fake.requests('config/read');
    expect(configRead?.params).toEqual({ includeLayers: false, cwd });

    const [turnStart] = fake.requests('turn/start');
    expect(turnStart?.params).toEqual({
      threadId: 'thread-0001',
      input: [
        { type: 'text', text: query, text_elements: [] },
        {
          type: 'text',
          text: 'Search preferences (advisory): language=pt-BR; time range=past month',
          text_elements: [],
        },
      ],
      effort: 'low',
      summary: 'none',
    });
    const line = fake.written.find((entry) => entry.includes('"turn/start"'))!;
    expect(Buffer.from(line).includes(Buffer.from(JSON.stringify(query)))).toBe(true);
  });

  it('omits the preferences item and the MCP table when there are none', async () => {
    const fake = harness({ results: sampleResults, on: { 'turn/start': happyTurn() } });
    await fake.client.search({ query: 'q', model: 'gpt-6-luna' });
    expect(fake.requests('turn/start')[0]?.params?.input).toEqual([
      { type: 'text', text: 'q', text_elements: [] },
    ]);
    const params = fake.requests('thread/start')[0]?.params;
    expect(params?.model).toBe('gpt-6-luna');
    expect(params?.config).toEqual({ web_search: 'live', 'features.apps': false, 'features.plugins': false });
  });

  it('initializes with the experimental API and answers every request with params', async () => {
    const fake = harness({ results: sampleResults, on: { 'turn/start': happyTurn() } });
    await fake.client.search({ query: 'q' });
    const messages = fake.received();
    expect(messages[0]).toMatchObject({
      method: 'initialize',
      params: { capabilities: { experimentalApi: true } },
    });
    expect(messages[1]).toEqual({ method: 'initialized' });
    for (const message of messages.filter((entry) => entry.id !== undefined && entry.method !== undefined)) {
      expect(message.params).toBeTypeOf('object');
    }
  });

  it('accepts turn events that arrive before the turn/start answer', async () => {
    const fake = reuse({
      results: sampleResults,
      on: {
        'turn/start': [
          { send: s.turnStarted },
          { send: s.searchStarted },
          { send: s.searchCompleted },
          { respond: true },
          { send: s.turnCompleted },
        ],
      },
    });
    expect((await fake.client.search({ query: 'early' })).results).toHaveLength(2);
  });

  it('accepts item events that arrive before the turn id is known at all', async () => {
    const fake = reuse({
      results: sampleResults,
      on: {
        'turn/start': [
          { send: s.searchStarted },
          { send: s.searchCompleted },
          { respond: true },
          { send: s.turnCompleted },
        ],
      },
    });
    expect((await fake.client.search({ query: 'early' })).results).toHaveLength(2);
  });

  it('ignores garbage lines, stderr noise and unprompted notifications', async () => {
    const fake = harness({
      results: sampleResults,
      on: {
        initialize: [
          { line: 'Content-Length: 42' },
          { line: 'not json at all' },
          { line: '[1,2,3]' },
          { line: '{"id":999,"result":{}}' },
          { stderr: 'WARN codex_core_plugins::startup_sync: git sync failed' },
          { send: { method: 'warning', params: { message: 'Under-development features enabled' } } },
        ],
        'turn/start': [
          { send: { method: 'thread/tokenUsage/updated', params: { threadId: '$THREAD', turnId: '$TURN' } } },
          ...happyTurn(),
        ],
      },
    });
    expect((await fake.client.search({ query: 'noise' })).results).toHaveLength(2);
  });

  it('ignores the events of other threads and turns', async () => {
    const foreign = { type: 'commandExecution', id: 'x', command: 'rm -rf /' };
    const fake = reuse({
      results: sampleResults,
      on: {
        'turn/start': [
          { respond: true },
          item('item/started', foreign, 'other-thread'),
          item('item/started', { ...s.searchStarted.params.item, id: 'call_other' }, 'other-thread'),
          {
            send: {
              method: 'item/started',
              params: { item: foreign, threadId: '$THREAD', turnId: 'other-turn' },
            },
          },
          {
            send: {
              method: 'turn/completed',
              params: { threadId: 'other-thread', turn: { id: '$TURN', status: 'failed' } },
            },
          },
          ...happyTurn(),
        ],
      },
    });
    expect((await fake.client.search({ query: 'isolated' })).results).toHaveLength(2);
  });

  it('rejects and interrupts on a second webSearch item', async () => {
    const fake = reuse({
      results: sampleResults,
      on: {
        'turn/start': [
          { send: s.turnStarted },
          { send: s.searchStarted },
          { send: s.searchCompleted },
          item('item/started', { ...s.searchStarted.params.item, id: 'call_search_2' }),
        ],
      },
    });
    const error = await rejection(fake.client.search({ query: 'twice' }));
    expect(error.code).toBe('protocol_error');
    expect(error.message).toMatch(/second webSearch/);
    expect(fake.requests('turn/interrupt')[0]?.params).toEqual({
      threadId: fake.requests('turn/start')[0]?.params?.threadId,
      turnId: 'turn-0001',
    });
  });

  it.each([
    'commandExecution',
    'fileChange',
    'mcpToolCall',
    'dynamicToolCall',
    'collabAgentToolCall',
    'subAgentActivity',
    'imageView',
    'imageGeneration',
    'sleep',
    'functionCallOutput',
    'enteredReviewMode',
    'exitedReviewMode',
    'someFutureTool',
  ])('rejects and interrupts on a %s item', async (type) => {
    const fake = reuse({
      on: { 'turn/start': [{ send: s.turnStarted }, item('item/started', { type, id: 'item-tool' })] },
    });
    const error = await rejection(fake.client.search({ query: 'tool' }));
    expect(error.code).toBe('protocol_error');
    expect(error.details.itemType).toBe(type);
    expect(fake.requests('turn/interrupt')).toHaveLength(1);
  });

  it.each([...KNOWN_SERVER_REQUEST_METHODS, 'some/futureRequest'])(
    'refuses a %s server request, interrupts and rejects',
    async (method) => {
      const fake = reuse({
        on: {
          'turn/start': [
            { send: s.turnStarted },
            {
              send: { id: 'server-7', method, params: { threadId: '$THREAD', turnId: '$TURN', itemId: 'i' } },
            },
          ],
        },
      });
      const error = await rejection(fake.client.search({ query: 'interaction' }));
      expect(error.code).toBe('protocol_error');
      expect(error.details.serverRequest).toBe(method);
      const reply = fake.received().find((message) => message.id === 'server-7');
      const { id: _id, ...body } = reply!;
      expect(body).toEqual(refuseServerRequest({ id: 'server-7', method, params: {} }));
      expect(fake.requests('turn/interrupt')).toHaveLength(1);
    },
  );

  it('refuses, interrupts and rejects a server request that comes before the turn/start answer', async () => {
    const request = {
      id: 41,
      method: 'item/commandExecution/requestApproval',
      params: { threadId: '$THREAD', turnId: '$TURN', itemId: 'i', command: 'ls' },
    };
    const fake = reuse({ on: { 'turn/start': [{ send: request }, { respond: true }] } });
    const error = await rejection(fake.client.search({ query: 'early request' }));
    expect(error.details.serverRequest).toBe('item/commandExecution/requestApproval');
    expect(fake.received().find((message) => message.id === 41)).toEqual({
      id: 41,
      result: { decision: 'decline' },
    });
    expect(fake.requests('turn/interrupt')[0]?.params?.turnId).toBe('turn-0001');
  });

  it('declines approvals with decline, never accept', () => {
    expect(
      refuseServerRequest({ id: 1, method: 'item/commandExecution/requestApproval', params: {} }),
    ).toEqual({
      result: { decision: 'decline' },
    });
    expect(refuseServerRequest({ id: 1, method: 'item/permissions/requestApproval', params: {} })).toEqual({
      result: { permissions: {}, scope: 'turn' },
    });
  });

  it('rejects a webSearch item that completes with results null', async () => {
    const fake = reuse({ results: null, on: { 'turn/start': happyTurn() } });
    const error = await rejection(fake.client.search({ query: 'hosted tool' }));
    expect(error.code).toBe('protocol_error');
    expect(error.message).toMatch(/without structured results/);
    expect(fake.requests('turn/interrupt')).toHaveLength(1);
  });

  it('treats an empty results array as a real empty answer', async () => {
    const fake = reuse({ results: [], on: { 'turn/start': happyTurn() } });
    expect(await fake.client.search({ query: 'nothing matches' })).toEqual({ results: [] });
  });

  it('rejects a turn that completes without any webSearch item', async () => {
    const fake = reuse({
      on: {
        'turn/start': [{ send: s.turnStarted }, { send: s.agentMessageCompleted }, { send: s.turnCompleted }],
      },
    });
    const error = await rejection(fake.client.search({ query: 'prose only' }));
    expect(error.code).toBe('protocol_error');
    expect(error.message).toMatch(/without a webSearch item/);
  });

  it.each([
    ['usageLimitExceeded', 'rate_limited'],
    ['unauthorized', 'configuration_error'],
    [{ httpConnectionFailed: { httpStatusCode: 503 } }, 'backend_unavailable'],
  ] as const)('maps a failed turn with %j to %s', async (info, code) => {
    const failed = {
      method: 'turn/completed',
      params: {
        threadId: '$THREAD',
        turn: {
          id: '$TURN',
          status: 'failed',
          error: { message: 'boom', codexErrorInfo: info, additionalDetails: null },
        },
      },
    };
    const fake = reuse({ on: { 'turn/start': [{ send: s.turnStarted }, { send: failed }] } });
    expect((await rejection(fake.client.search({ query: 'fails' }))).code).toBe(code);
  });

  it('keeps waiting through an error notification that will be retried', async () => {
    const retried = {
      method: 'error',
      params: {
        error: { message: 'stream lost', codexErrorInfo: 'other' },
        willRetry: true,
        threadId: '$THREAD',
        turnId: '$TURN',
      },
    };
    const fake = reuse({ results: sampleResults, on: { 'turn/start': [{ send: retried }, ...happyTurn()] } });
    expect((await fake.client.search({ query: 'retry' })).results).toHaveLength(2);
  });

  it('rejects a turn the server interrupted', async () => {
    const interrupted = {
      method: 'turn/completed',
      params: { threadId: '$THREAD', turn: { id: '$TURN', status: 'interrupted', error: null } },
    };
    const fake = reuse({ on: { 'turn/start': [{ send: s.turnStarted }, { send: interrupted }] } });
    expect((await rejection(fake.client.search({ query: 'cut' }))).code).toBe('backend_unavailable');
  });

  it('interrupts and times out a turn that never ends', async () => {
    const fake = harness(
      { on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }] } },
      { turnTimeoutMs: 300 },
    );
    const error = await rejection(fake.client.search({ query: 'forever' }));
    expect(error.code).toBe('timeout');
    expect(fake.requests('turn/interrupt')).toHaveLength(1);
  });

  it('rejects when the process crashes mid-turn, then starts a fresh process', async () => {
    const fake = harness({
      on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }, { exit: 3 }] },
    });
    const error = await rejection(fake.client.search({ query: 'crash' }));
    expect(error.code).toBe('backend_unavailable');
    const firstPid = fake.childPid();
    await expect(fake.client.readiness()).resolves.toMatchObject({ ready: true });
    expect(fake.childPid()).not.toBe(firstPid);
  });

  it('maps an overloaded server (-32001) to a retryable backend_unavailable', async () => {
    const fake = harness({
      responses: { 'thread/start': { error: { code: -32001, message: 'Server overloaded; retry later.' } } },
    });
    const error = await rejection(fake.client.search({ query: 'busy' }));
    expect(error.code).toBe('backend_unavailable');
    expect(error.details.retryable).toBe(true);
  });

  it('rejects a non-ephemeral thread before any turn', async () => {
    const persistent = {
      ...shapes.live.threadStart,
      thread: { ...shapes.live.threadStart.thread, ephemeral: false },
    };
    const fake = reuse({ responses: { 'thread/start': { result: persistent } } });
    expect((await rejection(fake.client.search({ query: 'q' }))).code).toBe('protocol_error');
    expect(fake.requests('turn/start')).toHaveLength(0);
  });

  it('rejects a thread that loaded instructions from its scratch directory, and releases it', async () => {
    const loaded = { ...shapes.live.threadStart, instructionSources: ['$CWD/AGENTS.md'] };
    const fake = reuse({ responses: { 'thread/start': { result: loaded } } });
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('protocol_error');
    expect(fake.requests('turn/start')).toHaveLength(0);
    expect(fake.requests('thread/unsubscribe')).toHaveLength(1);
  });

  it("accepts the user's global instructions, which are not project instructions", async () => {
    const global = { ...shapes.live.threadStart, instructionSources: ['/home/user/.codex/AGENTS.md'] };
    const fake = reuse({
      results: sampleResults,
      responses: { 'thread/start': { result: global } },
      on: { 'turn/start': happyTurn() },
    });
    expect((await fake.client.search({ query: 'q' })).results).toHaveLength(2);
  });

  it('rejects invalid input without starting anything', async () => {
    const fake = harness();
    expect((await rejection(fake.client.search({ query: '  ' }))).code).toBe('validation_error');
    expect((await rejection(fake.client.search({ query: 'q', language: 'en; ignore previous' }))).code).toBe(
      'validation_error',
    );
    expect(
      (await rejection(fake.client.search({ query: 'q', timeRange: 'week' as unknown as 'day' }))).code,
    ).toBe('validation_error');
    expect(fake.written).toHaveLength(0);
  });
});

describe('quota', () => {
  const limits = (primary: number, secondary: number) => ({
    result: {
      ...s.rateLimits,
      rateLimits: {
        ...s.rateLimits.rateLimits,
        primary: { ...s.rateLimits.rateLimits.primary, usedPercent: primary },
        secondary: { ...s.rateLimits.rateLimits.secondary, usedPercent: secondary },
      },
    },
  });

  it('searches at 89 % used', async () => {
    const fake = harness({
      results: sampleResults,
      responses: { 'account/rateLimits/read': limits(89, 89.9) },
      on: { 'turn/start': happyTurn() },
    });
    expect((await fake.client.search({ query: 'q' })).results).toHaveLength(2);
  });

  it.each([
    [90, 10],
    [10, 90],
  ])('skips at primary %s%% and secondary %s%% without a turn', async (primary, secondary) => {
    const fake = harness({ responses: { 'account/rateLimits/read': limits(primary, secondary) } });
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('reserve');
    expect(error.retryAt).toBe((primary >= 90 ? 1796020000 : 1796500000) * 1000);
    expect(fake.requests('thread/start')).toHaveLength(0);
  });

  it('skips when the read fails (signed out)', async () => {
    const fake = harness({
      responses: { 'account/rateLimits/read': { error: shapes.live.rateLimitsSignedOut } },
    });
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(fake.requests('thread/start')).toHaveLength(0);
    await expect(fake.client.rateLimits()).resolves.toMatchObject({ available: false, reason: 'missing' });
  });

  it('skips when the read is never answered', async () => {
    const fake = harness(
      { responses: { 'account/rateLimits/read': { noReply: true } } },
      { requestTimeoutMs: 1_000 },
    );
    await fake.client.readiness();
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('missing');
  });

  it('skips when the snapshot is invalid', async () => {
    const fake = harness({
      responses: { 'account/rateLimits/read': limits('high' as unknown as number, 5) },
    });
    expect((await rejection(fake.client.search({ query: 'q' }))).details.reason).toBe('invalid');
  });

  it('reuses the snapshot for 60 s, re-reads after, and skips when that read fails', async () => {
    let clock = 1_000_000;
    const fake = harness(
      {
        results: sampleResults,
        responses: {
          'account/rateLimits/read': [limits(10, 10), { error: shapes.live.rateLimitsSignedOut }],
        },
        on: { 'turn/start': happyTurn() },
      },
      { now: () => clock },
    );
    await fake.client.search({ query: 'first' });
    clock += 60_000;
    await fake.client.search({ query: 'at the bound' });
    expect(fake.requests('account/rateLimits/read')).toHaveLength(1);
    clock += 1;
    const error = await rejection(fake.client.search({ query: 'past the bound' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('stale');
    expect(fake.requests('account/rateLimits/read')).toHaveLength(2);
    expect(fake.requests('turn/start')).toHaveLength(2);
  });

  it('merges an update notification into the cached snapshot', async () => {
    const update = {
      ...s.rateLimitsUpdated,
      params: {
        rateLimits: {
          ...s.rateLimitsUpdated.params.rateLimits,
          primary: { usedPercent: 90, windowDurationMins: 300, resetsAt: 1796020000 },
        },
      },
    };
    const fake = harness(
      // Sent inside the turn, so it is read before the search resolves.
      {
        results: sampleResults,
        on: { 'turn/start': [...happyTurn().slice(0, -1), { send: update }, ...happyTurn().slice(-1)] },
      },
      { now: () => 5_000 },
    );
    await fake.client.search({ query: 'first' });
    const status = await fake.client.rateLimits();
    expect(status).toMatchObject({ available: false, reason: 'reserve' });
    expect(status.snapshot?.secondary?.usedPercent).toBe(12);
    expect((await rejection(fake.client.search({ query: 'second' }))).code).toBe('quota_unavailable');
    expect(fake.requests('account/rateLimits/read')).toHaveLength(1);
  });
});

describe('serialization and cancellation', () => {
  it('never overlaps two searches in one process, even from two clients', async () => {
    const slow = [
      { send: s.turnStarted },
      { send: s.searchStarted },
      { delay: 150 },
      { send: s.searchCompleted },
      { send: s.turnCompleted },
    ];
    const events: string[] = [];
    const make = (name: string) =>
      harness(
        { results: sampleResults, on: { 'turn/start': slow } },
        { onWrite: (line) => line.includes('"turn/start"') && events.push(`${name}:start`) },
      );
    const first = make('a');
    const second = make('b');
    const searches = [first, second, first].map((entry, index) =>
      entry.client
        .search({ query: `q${index}` })
        .then(() => events.push(`${entry === first ? 'a' : 'b'}:done`)),
    );
    await Promise.all(searches);
    expect(events).toHaveLength(6);
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index]).toMatch(/:start$/);
      expect(events[index + 1]).toBe(events[index]!.replace('start', 'done'));
    }
  });

  it('closes the transport before releasing the admission on cancel', async () => {
    const outcomes: { outcome: SearchAdmissionOutcome; alive: boolean }[] = [];
    const fake = harness(
      { on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }] } },
      {
        admit: async () => ({
          release: (outcome) => {
            let alive = true;
            try {
              process.kill(fake.childPid(), 0);
            } catch {
              alive = false;
            }
            outcomes.push({ outcome, alive });
          },
        }),
        onWrite: (line) => {
          if (line.includes('"turn/start"')) setTimeout(() => controller.abort(), 50);
        },
      },
    );
    const controller = new AbortController();
    const search = fake.client.search({ query: 'cancel me', signal: controller.signal });
    const error = await rejection(search);
    expect(error.code).toBe('cancelled');
    expect(outcomes).toEqual([{ outcome: { status: 'cancelled' }, alive: false }]);
  });

  it('reports skips and failures to the admission hook', async () => {
    const outcomes: SearchAdmissionOutcome[] = [];
    const fake = harness(
      { responses: { 'account/rateLimits/read': { error: shapes.live.rateLimitsSignedOut } } },
      { admit: async () => ({ release: (outcome) => outcomes.push(outcome) }) },
    );
    await rejection(fake.client.search({ query: 'q' }));
    expect(outcomes).toEqual([{ status: 'skipped', code: 'quota_unavailable' }]);
  });

  it('cancels a search still waiting in the queue without touching the running one', async () => {
    const slow = [
      { send: s.turnStarted },
      { send: s.searchStarted },
      { delay: 200 },
      { send: s.searchCompleted },
      { send: s.turnCompleted },
    ];
    const fake = harness({ results: sampleResults, on: { 'turn/start': slow } });
    const running = fake.client.search({ query: 'running' });
    const controller = new AbortController();
    const waiting = fake.client.search({ query: 'waiting', signal: controller.signal });
    controller.abort();
    expect((await rejection(waiting)).code).toBe('cancelled');
    expect((await running).results).toHaveLength(2);
    expect((await fake.client.search({ query: 'after' })).results).toHaveLength(2);
    expect(
      fake
        .requests('turn/start')
        .map((message) => (message.params?.input as { text: string }[] | undefined)?.[0]?.text),
    ).toEqual(['running', 'after']);
  });
});

describe('credentials', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('never passes credential variables to the child or writes them to it', async () => {
    const secrets = {
      OPENAI_API_KEY: 'sk-proj-FAKEfakeFAKEfake0123456789',
      CODEX_API_KEY: 'sk-codex-FAKE-0123456789',
      AZURE_OPENAI_API_KEY: 'azure-FAKE-0123456789',
      GITHUB_TOKEN: 'ghp_FAKEfakeFAKEfake0123456789',
      CHATGPT_ACCESS_TOKEN: 'eyJhbGciOiJSUzI1NiJ9.FAKE.FAKE',
      OPENAI_BASE_URL: 'https://api.openai.example/v1',
    };
    // Set in this process's own environment: the client inherits it by default.
    for (const [name, value] of Object.entries({ ...secrets, CODEX_HOME: '/tmp/codex-home-kept' })) {
      vi.stubEnv(name, value);
    }
    const fake = harness({ results: sampleResults, on: { 'turn/start': happyTurn() } });
    await fake.client.readiness();
    await fake.client.rateLimits();
    await fake.client.search({ query: 'no secrets here' });
    const child = fake.childEnvironment();
    expect(child.CODEX_HOME).toBe('/tmp/codex-home-kept');
    const everything = `${JSON.stringify(child)}\n${fake.written.join('\n')}\n${JSON.stringify(fake.received())}`;
    for (const [name, value] of Object.entries(secrets)) {
      expect(child[name]).toBeUndefined();
      expect(everything).not.toContain(value);
    }
    expect(fake.written.join('\n')).not.toMatch(
      /sk-[A-Za-z0-9-]{8,}|ghp_|eyJhbGci|Bearer|refresh_token|access_token/,
    );
  });
});
