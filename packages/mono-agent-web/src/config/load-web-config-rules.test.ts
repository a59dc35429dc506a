import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  counter,
  directory,
  failure,
  load,
  problemsOf,
  useConfigDirectory,
  web,
  writeConfig,
} from '../../test/config-test-support.js';
import { CONFIG_RULES, type ConfigRule } from './config-problem.js';
import { loadWebConfig, resolveWebConfig } from './load-web-config.js';

useConfigDirectory();

/** One case per rule: a config that breaks exactly that rule, and the key the problem is filed under. */
const RULE_CASES: {
  rule: ConfigRule;
  key: string | ((path: string) => string);
  run: () => Promise<unknown>;
}[] = [
  {
    rule: 'file_not_found',
    key: join('/nonexistent-mono-agent', 'agent.json'),
    run: () => loadWebConfig({ file: join('/nonexistent-mono-agent', 'agent.json'), env: {} }),
  },
  {
    rule: 'file_unreadable',
    key: () => join(directory, 'a-directory'),
    run: async () => {
      await mkdir(join(directory, 'a-directory'), { recursive: true });
      return loadWebConfig({ file: 'a-directory', env: {}, cwd: directory });
    },
  },
  { rule: 'json_syntax', key: (path) => path, run: () => load('{ "tools": { "web": } }') },
  {
    rule: 'unknown_key',
    key: 'tools.web.search.maxRequestPerRun',
    run: () => load(web({ search: { maxRequestPerRun: 4 } })),
  },
  { rule: 'type', key: 'tools.web.search', run: () => load(web({ search: 'auto' })) },
  { rule: 'one_of', key: 'tools.web.coordination', run: () => load(web({ coordination: 'hots' })) },
  {
    rule: 'integer',
    key: 'tools.web.search.maxRequestsPerRun',
    run: () => load(web({ search: { maxRequestsPerRun: 2.5 } })),
  },
  {
    rule: 'range',
    key: 'MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN',
    run: () => load(undefined, { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '21' }),
  },
  {
    rule: 'boolean',
    key: 'MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL',
    run: () => load(undefined, { MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: 'yes' }),
  },
  {
    rule: 'non_empty',
    key: 'tools.web.fetch.browserCommand',
    run: () => load(web({ fetch: { browserCommand: '  \t ' } })),
  },
  {
    rule: 'whitespace',
    key: 'MONO_AGENT_WEB_SEARCH_CODEX_MODEL',
    run: () => load(undefined, { MONO_AGENT_WEB_SEARCH_CODEX_MODEL: 'gpt 5.6' }),
  },
  {
    rule: 'control_character',
    key: 'tools.web.fetch.browserCommand',
    run: () => load(web({ fetch: { browserCommand: 'agent-browser\u0000' } })),
  },
  {
    rule: 'max_length',
    key: 'tools.web.search.codex.model',
    run: () => load(web({ search: { codex: { model: 'x'.repeat(101) } } })),
  },
  {
    rule: 'shell_metacharacter',
    key: 'MONO_AGENT_WEB_BROWSER_COMMAND',
    run: () => load(undefined, { MONO_AGENT_WEB_BROWSER_COMMAND: 'agent-browser;curl' }),
  },
  {
    rule: 'url',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { searxng: { endpoint: '127.0.0.1 8088' } } })),
  },
  {
    rule: 'scheme',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { searxng: { endpoint: 'https://127.0.0.1:8088' } } })),
  },
  {
    rule: 'credentials',
    key: 'MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT',
    run: () => load(undefined, { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://a:b@127.0.0.1:8088' }),
  },
  {
    rule: 'query',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { searxng: { endpoint: 'http://127.0.0.1:8088/search?q=' } } })),
  },
  {
    rule: 'fragment',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { searxng: { endpoint: 'http://127.0.0.1:8088#x' } } })),
  },
  {
    rule: 'path',
    key: 'tools.web.search.ollama.baseUrl',
    run: () => load(web({ search: { ollama: { baseUrl: 'http://127.0.0.1:11434/api' } } })),
  },
  {
    rule: 'loopback',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { searxng: { endpoint: 'http://10.0.0.8:8088' } } })),
  },
  {
    rule: 'endpoint_conflict',
    key: 'tools.web.search.endpoint',
    run: () =>
      load(web({ search: { endpoint: 'http://127.0.0.1:1', searxng: { endpoint: 'http://127.0.0.1:2' } } })),
  },
  {
    rule: 'redis_url_required',
    key: 'tools.web.redis.url',
    run: () => load(web({ coordination: 'redis' })),
  },
  {
    rule: 'endpoint_required',
    key: 'tools.web.search.searxng.endpoint',
    run: () => load(web({ search: { backend: 'searxng' } })),
  },
  {
    rule: 'https_required',
    key: 'tools.web.search.ollama.baseUrl',
    run: () =>
      load(web({ search: { ollama: { baseUrl: 'http://ollama.example.com', trustPublicUrl: true } } })),
  },
  {
    rule: 'trust_required',
    key: 'tools.web.search.ollama.trustPublicUrl',
    run: () => load(web({ search: { ollama: { baseUrl: 'https://ollama.example.com' } } })),
  },
  {
    rule: 'api_key_env_required',
    key: 'tools.web.search.ollama.apiKeyEnv',
    run: () => load(web({ search: { backend: 'ollama', ollama: { baseUrl: 'https://ollama.com' } } })),
  },
  {
    rule: 'api_key_env_origin',
    key: 'tools.web.search.ollama.apiKeyEnv',
    run: () =>
      load(web({ search: { ollama: { baseUrl: 'http://localhost:11434', apiKeyEnv: 'OLLAMA_API_KEY' } } })),
  },
  {
    rule: 'env_name',
    key: 'MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV',
    run: () =>
      load(undefined, {
        MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://ollama.com',
        MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: '1PASSWORD',
      }),
  },
  {
    rule: 'allow_entry',
    key: 'network.allow[1]',
    run: () => load({ network: { mode: 'all', allow: ['example.com', 'https://example.com/'] } }),
  },
  {
    rule: 'network_policy',
    key: 'network.allow',
    run: () => load({ network: { mode: 'none', allow: ['example.com'] } }),
  },
  {
    rule: 'allowlist_empty',
    key: 'network.allow',
    run: () => load(undefined, { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: '' }),
  },
];

describe('every rejection rule', () => {
  it('has a case for every rule', () => {
    expect(new Set(RULE_CASES.map((entry) => entry.rule))).toEqual(new Set(CONFIG_RULES));
  });

  for (const entry of RULE_CASES) {
    it(`${entry.rule} is reported alone, naming its key and rule`, async () => {
      const lastFile = join(directory, `agent-${counter + 1}.json`);
      const error = await failure(entry.run());
      const key = typeof entry.key === 'string' ? entry.key : entry.key(lastFile);
      expect(error.details.problems).toEqual([
        { key, rule: entry.rule, message: expect.stringContaining(key) },
      ]);
      expect(error.details).toMatchObject({ key, rule: entry.rule });
      expect(error.message).toContain(key);
      expect(error.message).toContain(`[${entry.rule}]`);
    });
  }
});

describe('the config file', () => {
  it('reports malformed JSON with its line and column, without quoting it', async () => {
    const path = await writeConfig(
      '{\n  "tools": {\n    "web": { "coordination": "host", }\n  },\n  "key": "sk-x"\n}',
    );
    const error = await failure(loadWebConfig({ file: path, env: {} }));
    expect(error.details).toMatchObject({ key: path, rule: 'json_syntax', source: path });
    expect(error.message).toContain('line 3, column 38');
    expect(error.message).toContain('expected a double-quoted property name');
    expect(error.message).not.toContain('sk-x');
  });

  it('resolves a relative path against cwd and accepts a byte-order mark', async () => {
    await writeFile(join(directory, 'bom.json'), `\uFEFF${JSON.stringify(web({ coordination: 'host' }))}`);
    const config = await loadWebConfig({ file: 'bom.json', env: {}, cwd: directory });
    expect(config.coordination).toBe('host');
  });

  it('refuses a file that is not a JSON object', async () => {
    const path = await writeConfig('[1, 2]');
    expect(await problemsOf(loadWebConfig({ file: path, env: {} }))).toEqual([[path, 'type']]);
  });

  it('still checks the environment when the file cannot be read', async () => {
    const problems = await problemsOf(
      loadWebConfig({
        file: join(directory, 'missing.json'),
        env: { MONO_AGENT_WEB_COORDINATION: 'shared' },
        cwd: directory,
      }),
    );
    expect(problems).toEqual([
      [join(directory, 'missing.json'), 'file_not_found'],
      ['MONO_AGENT_WEB_COORDINATION', 'one_of'],
    ]);
  });

  it('suggests the key a typo under tools.web meant', async () => {
    const error = await failure(load(web({ search: { maxRequestPerRun: 4 }, Fetch: {} })));
    expect(error.details.problems).toEqual([
      {
        key: 'tools.web.Fetch',
        rule: 'unknown_key',
        message: expect.stringContaining('did you mean tools.web.fetch?'),
      },
      {
        key: 'tools.web.search.maxRequestPerRun',
        rule: 'unknown_key',
        message: expect.stringContaining('did you mean tools.web.search.maxRequestsPerRun?'),
      },
    ]);
  });

  it('refuses unknown keys in every tools.web section', async () => {
    expect(
      await problemsOf(
        load(
          web({
            search: {
              searxng: { endpoint: 'http://127.0.0.1:8088', timeout: 5 },
              ollama: { baseURL: 'http://127.0.0.1:11434' },
              codex: { effort: 'low' },
            },
            fetch: { renderer: 'auto' },
          }),
        ),
      ),
    ).toEqual([
      ['tools.web.search.searxng.timeout', 'unknown_key'],
      ['tools.web.search.ollama.baseURL', 'unknown_key'],
      ['tools.web.search.codex.effort', 'unknown_key'],
      ['tools.web.fetch.renderer', 'unknown_key'],
    ]);
  });

  it('ignores unknown keys outside tools.web', async () => {
    const config = await load({
      model: 'x',
      tools: { shell: {}, web: { coordination: 'host' } },
      network: { mode: 'localhost', proxy: 'none' },
      artifacts: { dir: 'art', retentionDays: 3 },
    });
    expect(config.coordination).toBe('host');
    expect(config.network).toEqual({ mode: 'localhost', allow: [] });
  });

  it('accepts an already-parsed document and names its source in errors', async () => {
    const config = await loadWebConfig({
      file: { value: web({ coordination: 'host' }), source: 'inline' },
      env: {},
    });
    expect(config.coordination).toBe('host');
    const error = await failure(
      loadWebConfig({
        file: { value: web({ coordination: 1 }), source: 'agent config from the host' },
        env: {},
      }),
    );
    expect(error.message).toContain('(agent config from the host)');
    expect(error.details.source).toBe('agent config from the host');
    expect(() =>
      resolveWebConfig({ document: { value: web({ render: 'x' }), source: 's' }, env: {} }),
    ).toThrow(/tools\.web\.render/);
  });
});
