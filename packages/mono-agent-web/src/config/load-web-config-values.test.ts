import { MAX_ALLOW_ENTRIES } from '@mono-agent/net';
import { describe, expect, it } from 'vitest';
import { failure, load, problemsOf, useConfigDirectory, web } from '../../test/config-test-support.js';
import type { ConfigProblem, ConfigRule } from './config-problem.js';

useConfigDirectory();

describe('the Redis server URL', () => {
  it.each([
    ['http://127.0.0.1:6379', 'scheme'],
    ['redis://127.0.0.1:6379/cache', 'path'],
    ['redis://127.0.0.1:6379/0?timeout=1', 'query'],
    ['redis://127.0.0.1:6379/0#x', 'fragment'],
    ['not a url', 'url'],
  ])('refuses %s (%s) without echoing it', async (url, rule) => {
    const error = await failure(
      load(undefined, { MONO_AGENT_WEB_COORDINATION: 'redis', MONO_AGENT_WEB_REDIS_URL: url }),
    );
    expect(error.details).toMatchObject({ key: 'MONO_AGENT_WEB_REDIS_URL', rule });
    expect(error.message).not.toContain(url);
  });

  it('never echoes a password it refuses', async () => {
    const error = await failure(load(web({ redis: { url: 'redis://:hunter2-secret@127.0.0.1:6379/x' } })));
    expect(error.details).toMatchObject({ key: 'tools.web.redis.url', rule: 'path' });
    expect(JSON.stringify(error.details) + error.message).not.toContain('hunter2-secret');
  });
});

describe('the legacy SearXNG endpoint alias', () => {
  it('is used, and says so, when it is the only spelling', async () => {
    const config = await load(web({ search: { backend: 'searxng', endpoint: 'http://localhost:8088' } }));
    expect(config.search.searxng).toEqual({ endpoint: 'http://localhost:8088/', source: 'legacy endpoint' });
  });

  it('is accepted beside the new key when both name the same URL', async () => {
    const config = await load(
      web({ search: { endpoint: 'http://127.0.0.1:8088', searxng: { endpoint: 'http://127.0.0.1:8088/' } } }),
    );
    expect(config.search.searxng).toEqual({ endpoint: 'http://127.0.0.1:8088/', source: 'searxng.endpoint' });
  });

  it('refuses remote, https, credentials, query and fragment, each by name', async () => {
    const cases: [string, ConfigRule][] = [
      ['http://searx.example.org:8088', 'loopback'],
      ['https://127.0.0.1:8088', 'scheme'],
      ['http://operator:secret@127.0.0.1:8088', 'credentials'],
      ['http://127.0.0.1:8088/?format=json', 'query'],
      ['http://127.0.0.1:8088/#results', 'fragment'],
    ];
    for (const [endpoint, rule] of cases) {
      expect(await problemsOf(load(web({ search: { endpoint } })))).toEqual([
        ['tools.web.search.endpoint', rule],
      ]);
      expect(await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_ENDPOINT: endpoint }))).toEqual([
        ['MONO_AGENT_WEB_SEARCH_ENDPOINT', rule],
      ]);
    }
    const error = await failure(load(web({ search: { endpoint: 'http://operator:secret@127.0.0.1:8088' } })));
    expect(error.message).not.toContain('secret');
    expect(JSON.stringify(error.details)).not.toContain('secret');
  });

  it('conflicts with a different new key in the same layer', async () => {
    expect(
      await problemsOf(
        load(
          web({
            search: { endpoint: 'http://127.0.0.1:8088', searxng: { endpoint: 'http://127.0.0.1:9090' } },
          }),
        ),
      ),
    ).toEqual([['tools.web.search.endpoint', 'endpoint_conflict']]);
    const error = await failure(
      load(undefined, {
        MONO_AGENT_WEB_SEARCH_ENDPOINT: 'http://127.0.0.1:8088',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:9090',
      }),
    );
    expect(error.details).toMatchObject({ key: 'MONO_AGENT_WEB_SEARCH_ENDPOINT', rule: 'endpoint_conflict' });
    expect(error.message).toContain('MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT');
  });

  it('gives way to the new key set in the environment', async () => {
    const config = await load(web({ search: { endpoint: 'http://127.0.0.1:8088' } }), {
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:9090',
    });
    expect(config.search.searxng).toEqual({ endpoint: 'http://127.0.0.1:9090/', source: 'searxng.endpoint' });
    expect(config.sources['tools.web.search.searxng.endpoint']).toBe('env');
  });
});

describe('the Ollama block', () => {
  it('stays out of the config (and the auto chain) when absent', async () => {
    const config = await load(web({ search: { backend: 'auto' } }));
    expect(config.search.ollama).toBeUndefined();
    expect(Object.keys(config.sources).some((key) => key.includes('ollama'))).toBe(false);
  });

  it('joins with defaults when present in the file, even empty', async () => {
    const config = await load(web({ search: { ollama: {} } }));
    expect(config.search.ollama).toEqual({ baseUrl: 'http://127.0.0.1:11434', trustPublicUrl: false });
    expect(config.sources['tools.web.search.ollama.baseUrl']).toBe('default');
    expect(config.sources['tools.web.search.ollama.apiKeyEnv']).toBeUndefined();
  });

  it('joins when any MONO_AGENT_WEB_SEARCH_OLLAMA_* variable is set', async () => {
    for (const name of [
      'MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL',
      'MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL',
    ] as const) {
      const value = name.endsWith('BASE_URL') ? 'http://127.0.0.1:11500' : 'false';
      const config = await load(undefined, { [name]: value });
      expect(config.search.ollama?.baseUrl, name).toBe(
        name.endsWith('BASE_URL') ? 'http://127.0.0.1:11500' : 'http://127.0.0.1:11434',
      );
    }
    expect(
      await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: 'OLLAMA_API_KEY' })),
    ).toEqual([['MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV', 'api_key_env_origin']]);
  });

  it('gets the default local origin with backend ollama and no block', async () => {
    const config = await load(undefined, { MONO_AGENT_WEB_SEARCH_BACKEND: 'ollama' });
    expect(config.search).toMatchObject({
      backend: 'ollama',
      ollama: { baseUrl: 'http://127.0.0.1:11434', trustPublicUrl: false },
    });
  });

  it('checks origin rules against the merged file and env values', async () => {
    // The file names a hosted key; the environment moves the origin to a local one, where no key may go.
    expect(
      await problemsOf(
        load(web({ search: { ollama: { baseUrl: 'https://ollama.com', apiKeyEnv: 'OLLAMA_API_KEY' } } }), {
          MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
        }),
      ),
    ).toEqual([['tools.web.search.ollama.apiKeyEnv', 'api_key_env_origin']]);
    expect(
      await problemsOf(
        load(undefined, {
          MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://search.example.com',
          MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: 'false',
        }),
      ),
    ).toEqual([['MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL', 'trust_required']]);
  });

  it('never echoes an API key pasted where its variable name belongs', async () => {
    const error = await failure(
      load(
        web({ search: { ollama: { baseUrl: 'https://ollama.com', apiKeyEnv: 'sk-live-0123456789abcdef' } } }),
      ),
    );
    expect(error.details).toMatchObject({ key: 'tools.web.search.ollama.apiKeyEnv', rule: 'env_name' });
    expect(error.message).not.toContain('0123456789abcdef');
    expect(JSON.stringify(error.details)).not.toContain('0123456789abcdef');
  });
});

describe('booleans and integers at and past their bounds', () => {
  it('accepts true, false, 1 and 0 in any case for a boolean env variable', async () => {
    const cases: [string, boolean][] = [
      ['true', true],
      ['TRUE', true],
      ['True', true],
      ['1', true],
      ['false', false],
      ['FaLsE', false],
      ['0', false],
    ];
    for (const [text, expected] of cases) {
      const config = await load(undefined, { MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: text });
      expect(config.search.ollama?.trustPublicUrl, text).toBe(expected);
    }
  });

  it('refuses anything else as a boolean', async () => {
    for (const text of ['yes', 'no', 'on', '2', ' true', 'true ', 't']) {
      expect(
        await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: text })),
        text,
      ).toEqual([['MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL', 'boolean']]);
    }
    expect(await problemsOf(load(web({ search: { ollama: { trustPublicUrl: 'true' } } })))).toEqual([
      ['tools.web.search.ollama.trustPublicUrl', 'type'],
    ]);
  });

  it('accepts maxRequestsPerRun 1 and 20 from the file and the environment', async () => {
    for (const value of [1, 20]) {
      expect((await load(web({ search: { maxRequestsPerRun: value } }))).search.maxRequestsPerRun).toBe(
        value,
      );
      const fromEnv = await load(undefined, { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: String(value) });
      expect(fromEnv.search.maxRequestsPerRun).toBe(value);
    }
  });

  it('refuses maxRequestsPerRun 0 and 21', async () => {
    for (const value of [0, 21]) {
      expect(await problemsOf(load(web({ search: { maxRequestsPerRun: value } })))).toEqual([
        ['tools.web.search.maxRequestsPerRun', 'range'],
      ]);
      expect(
        await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: String(value) })),
      ).toEqual([['MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN', 'range']]);
    }
    const error = await failure(load(web({ search: { maxRequestsPerRun: 21 } })));
    expect(error.message).toContain('tools.web.search.maxRequestsPerRun must be from 1 through 20 (got 21)');
  });

  it('refuses non-integers', async () => {
    expect(await problemsOf(load(web({ search: { maxRequestsPerRun: 4.5 } })))).toEqual([
      ['tools.web.search.maxRequestsPerRun', 'integer'],
    ]);
    expect(await problemsOf(load(web({ search: { maxRequestsPerRun: '4' } })))).toEqual([
      ['tools.web.search.maxRequestsPerRun', 'type'],
    ]);
    for (const text of ['4.0', 'four', ' 4', '4 ', '0x4', '1e1']) {
      expect(
        await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: text })),
        text,
      ).toEqual([['MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN', 'integer']]);
    }
    expect(await problemsOf(load(undefined, { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '-3' }))).toEqual([
      ['MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN', 'range'],
    ]);
  });

  it('bounds the Codex model name at 100 characters', async () => {
    const at = 'm'.repeat(100);
    expect((await load(web({ search: { codex: { model: at } } }))).search.codex.model).toBe(at);
    expect(await problemsOf(load(web({ search: { codex: { model: `${at}m` } } })))).toEqual([
      ['tools.web.search.codex.model', 'max_length'],
    ]);
  });
});

describe('problems are reported together', () => {
  it('lists every problem from the file and the environment in one error', async () => {
    const error = await failure(
      load(
        web({
          coordination: 'hots',
          search: { maxRequestsPerRun: 0, searxng: { endpoint: 'https://searx.example.org' } },
          fetch: { render: 'sometimes', browserCommand: 'agent-browser | tee' },
        }),
        {
          MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: 'maybe',
          MONO_AGENT_NETWORK_ALLOW: 'example.com,,x.org',
        },
      ),
    );
    const problems = error.details.problems as ConfigProblem[];
    expect(problems.map((problem) => [problem.key, problem.rule])).toEqual([
      ['tools.web.coordination', 'one_of'],
      ['tools.web.search.maxRequestsPerRun', 'range'],
      ['tools.web.search.searxng.endpoint', 'scheme'],
      ['tools.web.search.searxng.endpoint', 'loopback'],
      ['MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL', 'boolean'],
      ['tools.web.fetch.render', 'one_of'],
      ['tools.web.fetch.browserCommand', 'shell_metacharacter'],
      ['MONO_AGENT_NETWORK_ALLOW', 'non_empty'],
    ]);
    expect(error.details).toMatchObject({ key: 'tools.web.coordination', rule: 'one_of' });
    expect(error.message).toMatch(/^invalid web configuration \(.+\), 8 problems: /);
    for (const problem of problems) expect(error.message).toContain(`${problem.message} [${problem.rule}]`);
    expect(problems[7]?.message).toContain('MONO_AGENT_NETWORK_ALLOW (network.allow) entry 2');
  });

  it('validates a file value even when the environment overrides it', async () => {
    expect(
      await problemsOf(load(web({ fetch: { render: 'static' } }), { MONO_AGENT_WEB_FETCH_RENDER: 'auto' })),
    ).toEqual([['tools.web.fetch.render', 'one_of']]);
  });
});

describe('network', () => {
  it('collects every bad allow entry', async () => {
    expect(await problemsOf(load({ network: { allow: ['*.example.com', 42, '', 'ok.example'] } }))).toEqual([
      ['network.allow[0]', 'allow_entry'],
      ['network.allow[1]', 'type'],
      ['network.allow[2]', 'non_empty'],
    ]);
  });

  it('accepts MAX_ALLOW_ENTRIES entries and refuses one more', async () => {
    const entries = Array.from({ length: MAX_ALLOW_ENTRIES + 1 }, (_, index) => `host-${index}.example`);
    const config = await load({ network: { allow: entries.slice(0, MAX_ALLOW_ENTRIES) } });
    expect(config.network.allow).toHaveLength(MAX_ALLOW_ENTRIES);
    expect(await problemsOf(load({ network: { allow: entries } }))).toEqual([
      ['network.allow', 'network_policy'],
    ]);
  });

  it('takes an allowlist from the environment', async () => {
    const config = await load(
      { network: { mode: 'all', allow: ['a.example'] } },
      { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: '127.0.0.1:8088,chatgpt.com' },
    );
    expect(config.network).toEqual({ mode: 'allowlist', allow: ['127.0.0.1:8088', 'chatgpt.com'] });
    expect(config.sources).toMatchObject({ 'network.mode': 'env', 'network.allow': 'env' });
  });

  it('refuses an empty allowlist, naming where the mode came from', async () => {
    expect(await problemsOf(load({ network: { mode: 'allowlist', allow: [] } }))).toEqual([
      ['network.allow', 'allowlist_empty'],
    ]);
    const error = await failure(load(undefined, { MONO_AGENT_NETWORK_MODE: 'allowlist' }));
    expect(error.message).toContain('when MONO_AGENT_NETWORK_MODE (network.mode) is allowlist');
  });
});

describe('browserCommand', () => {
  it('refuses newlines, NUL, surrounding whitespace and shell syntax', async () => {
    const cases: [string, ConfigRule[]][] = [
      ['agent-browser\n--remote-debugging', ['control_character']],
      ['agent-browser\u0000', ['control_character']],
      [' agent-browser', ['whitespace']],
      ['agent-browser ', ['whitespace']],
      ['', ['non_empty']],
      ['$(agent-browser)', ['shell_metacharacter']],
      ['agent-browser && rm -rf ~', ['shell_metacharacter']],
      ['`agent-browser`', ['shell_metacharacter']],
      ['agent-browser > /tmp/x', ['shell_metacharacter']],
    ];
    for (const [browserCommand, rules] of cases) {
      const problems = await problemsOf(load(web({ fetch: { browserCommand } })));
      expect(problems, JSON.stringify(browserCommand)).toEqual(
        rules.map((rule) => ['tools.web.fetch.browserCommand', rule]),
      );
    }
  });

  it('accepts a program name or an absolute path', async () => {
    for (const browserCommand of [
      'agent-browser',
      '/usr/local/bin/agent-browser',
      './node_modules/.bin/agent-browser',
    ]) {
      expect((await load(web({ fetch: { browserCommand } }))).fetch.browserCommand).toBe(browserCommand);
    }
  });
});
