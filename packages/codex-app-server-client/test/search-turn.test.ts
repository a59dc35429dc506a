import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { happyTurn, sampleResults, shapes } from './fake-app-server.js';
import {
  disposeHarnesses,
  disposeSharedHarness,
  harness,
  item,
  reuse,
  startSharedHarness,
} from './search-support.js';

afterEach(disposeHarnesses);
beforeAll(startSharedHarness);
afterAll(disposeSharedHarness);

const s = shapes.schema;

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
