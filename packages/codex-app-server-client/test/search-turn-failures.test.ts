import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_SERVER_REQUEST_METHODS, refuseServerRequest } from '../src/server-request-refusal.js';
import { happyTurn, sampleResults, shapes } from './fake-app-server.js';
import {
  disposeHarnesses,
  disposeSharedHarness,
  harness,
  item,
  rejection,
  reuse,
  startSharedHarness,
} from './search-support.js';

afterEach(disposeHarnesses);
beforeAll(startSharedHarness);
afterAll(disposeSharedHarness);

const s = shapes.schema;

describe('a search against the scripted app-server', () => {
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
