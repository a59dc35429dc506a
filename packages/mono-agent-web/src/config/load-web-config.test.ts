import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { MAX_ALLOW_ENTRIES } from '@mono-agent/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV_VARIABLES, type ConfigKey } from './config-env-variables.js';
import { CONFIG_RULES, type ConfigProblem, type ConfigRule } from './config-problem.js';
import { describeConfigSources, loadWebConfig, resolveWebConfig } from './load-web-config.js';
import type { WebConfig } from './web-config.js';

let directory: string;
let counter = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mono-agent-web-config-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Writes an agent config (an object as JSON, or raw text) to a fresh temp file. */
async function writeConfig(content: unknown): Promise<string> {
  counter += 1;
  const path = join(directory, `agent-${counter}.json`);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** An agent config with `web` under `tools.web`. */
function web(settings: Record<string, unknown>, rest: Record<string, unknown> = {}) {
  return { tools: { web: settings }, ...rest };
}

/** Loads from a temp file holding `content` (no file when undefined) and `env`. */
async function load(content: unknown, env: Record<string, string | undefined> = {}): Promise<WebConfig> {
  const file = content === undefined ? undefined : await writeConfig(content);
  return loadWebConfig({ ...(file === undefined ? {} : { file }), env, cwd: directory });
}

/** The validation error a load ends in. */
async function failure(promise: Promise<unknown>): Promise<WebToolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(WebToolError.isInstance(error, 'validation_error'), String(error)).toBe(true);
  return error as WebToolError;
}

/** The problems a load ends in, as `[key, rule]` pairs. */
async function problemsOf(promise: Promise<unknown>): Promise<[string, ConfigRule][]> {
  const error = await failure(promise);
  return (error.details.problems as ConfigProblem[]).map((problem) => [problem.key, problem.rule]);
}

const DEFAULT_SOURCES = {
  'tools.web.coordination': 'default',
  'tools.web.search.backend': 'default',
  'tools.web.search.maxRequestsPerRun': 'default',
  'tools.web.search.codex.model': 'default',
  'tools.web.fetch.render': 'default',
  'tools.web.fetch.browserCommand': 'default',
  'tools.web.mcp.runIdleSeconds': 'default',
  'network.mode': 'default',
  'network.allow': 'default',
};

describe('loadWebConfig defaults', () => {
  it('resolves every default with no file and an empty environment', async () => {
    const config = await loadWebConfig({ env: {} });
    expect(config).toEqual({
      coordination: 'process',
      network: { mode: 'all', allow: [] },
      search: { backend: 'auto', maxRequestsPerRun: 4, codex: { model: 'gpt-5.6-luna' } },
      fetch: { render: 'never', browserCommand: 'agent-browser' },
      mcp: { runIdleSeconds: 300 },
      sources: DEFAULT_SOURCES,
    });
    expect(config.search.searxng).toBeUndefined();
    expect(config.search.ollama).toBeUndefined();
    expect(config.artifacts).toBeUndefined();
  });

  it('treats an empty env value as unset', async () => {
    const config = await load(undefined, { MONO_AGENT_WEB_SEARCH_BACKEND: '', MONO_AGENT_NETWORK_MODE: '' });
    expect(config.search.backend).toBe('auto');
    expect(config.sources['network.mode']).toBe('default');
  });

  it('returns a frozen config', async () => {
    const config = await load(web({ search: { searxng: { endpoint: 'http://127.0.0.1:8088' } } }));
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.search.searxng)).toBe(true);
    expect(Object.isFrozen(config.network.allow)).toBe(true);
    expect(Object.isFrozen(config.sources)).toBe(true);
  });
});

describe('loadWebConfig with the recommended configuration', () => {
  it('loads the example agent config as written', async () => {
    const config = await load({
      model: 'something else entirely',
      tools: {
        shell: { enabled: true },
        web: {
          coordination: 'host',
          search: {
            backend: 'auto',
            maxRequestsPerRun: 4,
            ollama: { baseUrl: 'http://127.0.0.1:11434' },
            searxng: { endpoint: 'http://127.0.0.1:8088' },
            codex: { model: 'gpt-5.6-luna' },
          },
          fetch: { render: 'never', browserCommand: 'agent-browser' },
        },
      },
    });
    expect(config).toEqual({
      coordination: 'host',
      network: { mode: 'all', allow: [] },
      search: {
        backend: 'auto',
        maxRequestsPerRun: 4,
        searxng: { endpoint: 'http://127.0.0.1:8088/', source: 'searxng.endpoint' },
        ollama: { baseUrl: 'http://127.0.0.1:11434', trustPublicUrl: false },
        codex: { model: 'gpt-5.6-luna' },
      },
      fetch: { render: 'never', browserCommand: 'agent-browser' },
      mcp: { runIdleSeconds: 300 },
      sources: {
        'tools.web.coordination': 'file',
        'tools.web.search.backend': 'file',
        'tools.web.search.maxRequestsPerRun': 'file',
        'tools.web.search.searxng.endpoint': 'file',
        'tools.web.search.ollama.baseUrl': 'file',
        'tools.web.search.ollama.trustPublicUrl': 'default',
        'tools.web.search.codex.model': 'file',
        'tools.web.fetch.render': 'file',
        'tools.web.mcp.runIdleSeconds': 'default',
        'tools.web.fetch.browserCommand': 'file',
        'network.mode': 'default',
        'network.allow': 'default',
      },
    });
  });

  it('loads the hosted Ollama example without reading the key', async () => {
    const read: string[] = [];
    const env = new Proxy({ OLLAMA_API_KEY: 'sk-never-read' } as Record<string, string | undefined>, {
      get(target, name) {
        if (typeof name === 'string') read.push(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
    const config = await load(
      web({
        search: { backend: 'ollama', ollama: { baseUrl: 'https://ollama.com', apiKeyEnv: 'OLLAMA_API_KEY' } },
      }),
      env,
    );
    expect(config.search.ollama).toEqual({
      baseUrl: 'https://ollama.com',
      apiKeyEnv: 'OLLAMA_API_KEY',
      trustPublicUrl: false,
    });
    expect(read).not.toContain('OLLAMA_API_KEY');
    const names = new Set<string>(CONFIG_ENV_VARIABLES.map((row) => row.env));
    expect(read.every((name) => names.has(name))).toBe(true);
    expect(JSON.stringify(config)).not.toContain('sk-never-read');
  });
});

/** One row of the table: a value from the file, one from the env, and how each lands in the config. */
interface KeyCase {
  key: ConfigKey;
  file: unknown;
  fileExpected: unknown;
  env: Record<string, string>;
  envExpected: unknown;
  /** Env set on top of `file`; `env` when absent. */
  override?: Record<string, string>;
  /** What `override` resolves to; `envExpected` when absent. */
  overrideExpected?: unknown;
  read: (config: WebConfig) => unknown;
  /** The `sources` key, when it is not `key` (the legacy alias reports under the new key). */
  sourceKey?: string;
}

const KEY_CASES: KeyCase[] = [
  {
    key: 'tools.web.coordination',
    file: web({ coordination: 'host' }),
    fileExpected: 'host',
    env: { MONO_AGENT_WEB_COORDINATION: 'host' },
    envExpected: 'host',
    override: { MONO_AGENT_WEB_COORDINATION: 'process' },
    overrideExpected: 'process',
    read: (config) => config.coordination,
  },
  {
    key: 'tools.web.redis.url',
    file: web({ coordination: 'redis', redis: { url: 'redis://10.0.0.5:6379/2' } }),
    fileExpected: 'redis://10.0.0.5:6379/2',
    env: { MONO_AGENT_WEB_REDIS_URL: 'rediss://:fleet-password@redis.example:6380' },
    envExpected: 'rediss://:fleet-password@redis.example:6380',
    read: (config) => config.redis?.url,
  },
  {
    key: 'tools.web.search.backend',
    file: web({ search: { backend: 'keyless' } }),
    fileExpected: 'keyless',
    env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'codex' },
    envExpected: 'codex',
    read: (config) => config.search.backend,
  },
  {
    key: 'tools.web.search.maxRequestsPerRun',
    file: web({ search: { maxRequestsPerRun: 7 } }),
    fileExpected: 7,
    env: { MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN: '12' },
    envExpected: 12,
    read: (config) => config.search.maxRequestsPerRun,
  },
  {
    key: 'tools.web.search.searxng.endpoint',
    file: web({ search: { searxng: { endpoint: 'http://127.0.0.1:8088' } } }),
    fileExpected: { endpoint: 'http://127.0.0.1:8088/', source: 'searxng.endpoint' },
    env: { MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://localhost:9090' },
    envExpected: { endpoint: 'http://localhost:9090/', source: 'searxng.endpoint' },
    read: (config) => config.search.searxng,
  },
  {
    key: 'tools.web.search.endpoint',
    file: web({ search: { endpoint: 'http://127.0.0.1:8888' } }),
    fileExpected: { endpoint: 'http://127.0.0.1:8888/', source: 'legacy endpoint' },
    env: { MONO_AGENT_WEB_SEARCH_ENDPOINT: 'http://[::1]:8888' },
    envExpected: { endpoint: 'http://[::1]:8888/', source: 'legacy endpoint' },
    read: (config) => config.search.searxng,
    sourceKey: 'tools.web.search.searxng.endpoint',
  },
  {
    key: 'tools.web.search.ollama.baseUrl',
    file: web({ search: { ollama: { baseUrl: 'http://192.168.1.5:11434/' } } }),
    fileExpected: 'http://192.168.1.5:11434',
    env: { MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'http://localhost:11434' },
    envExpected: 'http://localhost:11434',
    read: (config) => config.search.ollama?.baseUrl,
  },
  {
    key: 'tools.web.search.ollama.apiKeyEnv',
    file: web({ search: { ollama: { baseUrl: 'https://ollama.com', apiKeyEnv: 'OLLAMA_API_KEY' } } }),
    fileExpected: 'OLLAMA_API_KEY',
    env: {
      MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://ollama.com',
      MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: 'TEAM_OLLAMA_KEY',
    },
    envExpected: 'TEAM_OLLAMA_KEY',
    override: { MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: 'TEAM_OLLAMA_KEY' },
    read: (config) => config.search.ollama?.apiKeyEnv,
  },
  {
    key: 'tools.web.search.ollama.trustPublicUrl',
    file: web({ search: { ollama: { baseUrl: 'https://search.example.com', trustPublicUrl: true } } }),
    fileExpected: true,
    env: {
      MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://search.example.com',
      MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: 'TRUE',
    },
    envExpected: true,
    // Moving to a local origin through the environment makes trust unnecessary.
    override: {
      MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
      MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL: '0',
    },
    overrideExpected: false,
    read: (config) => config.search.ollama?.trustPublicUrl,
  },
  {
    key: 'tools.web.search.codex.model',
    file: web({ search: { codex: { model: 'gpt-5.6-mini' } } }),
    fileExpected: 'gpt-5.6-mini',
    env: { MONO_AGENT_WEB_SEARCH_CODEX_MODEL: 'o9-search' },
    envExpected: 'o9-search',
    read: (config) => config.search.codex.model,
  },
  {
    key: 'tools.web.fetch.render',
    file: web({ fetch: { render: 'auto' } }),
    fileExpected: 'auto',
    env: { MONO_AGENT_WEB_FETCH_RENDER: 'never' },
    envExpected: 'never',
    read: (config) => config.fetch.render,
  },
  {
    key: 'tools.web.fetch.browserCommand',
    file: web({ fetch: { browserCommand: '/opt/agent browser/bin/agent-browser' } }),
    fileExpected: '/opt/agent browser/bin/agent-browser',
    env: { MONO_AGENT_WEB_BROWSER_COMMAND: 'agent-browser-0.34' },
    envExpected: 'agent-browser-0.34',
    read: (config) => config.fetch.browserCommand,
  },
  {
    key: 'tools.web.mcp.runIdleSeconds',
    file: web({ mcp: { runIdleSeconds: 60 } }),
    fileExpected: 60,
    env: { MONO_AGENT_WEB_MCP_RUN_IDLE_SECONDS: '900' },
    envExpected: 900,
    read: (config) => config.mcp.runIdleSeconds,
  },
  {
    key: 'network.mode',
    file: { network: { mode: 'localhost' } },
    fileExpected: 'localhost',
    env: { MONO_AGENT_NETWORK_MODE: 'none' },
    envExpected: 'none',
    read: (config) => config.network.mode,
  },
  {
    key: 'network.allow',
    file: { network: { mode: 'allowlist', allow: ['Example.COM', '10.0.0.0/8', 'chatgpt.com:443'] } },
    fileExpected: ['example.com', '10.0.0.0/8', 'chatgpt.com:443'],
    env: { MONO_AGENT_NETWORK_ALLOW: ' docs.example.org , 192.168.0.1:8080' },
    envExpected: ['docs.example.org', '192.168.0.1:8080'],
    read: (config) => config.network.allow,
  },
  {
    key: 'artifacts.dir',
    file: { artifacts: { dir: 'out/artifacts' } },
    fileExpected: 'out/artifacts',
    env: { MONO_AGENT_ARTIFACT_DIR: '/var/tmp/web-artifacts' },
    envExpected: '/var/tmp/web-artifacts',
    // Relative directories resolve against cwd (the temp directory), so compare the tail.
    read: (config) => config.artifacts?.dir.replace(`${directory}/`, ''),
  },
  {
    key: 'artifacts.retention.maxAgeHours',
    file: { artifacts: { dir: 'out', retention: { maxAgeHours: 24 } } },
    fileExpected: 24,
    env: { MONO_AGENT_ARTIFACT_DIR: 'out', MONO_AGENT_ARTIFACT_RETENTION_MAX_AGE_HOURS: '72' },
    envExpected: 72,
    read: (config) => config.artifacts?.retention.maxAgeHours,
  },
  {
    key: 'artifacts.retention.maxRuns',
    file: { artifacts: { dir: 'out', retention: { maxRuns: 10 } } },
    fileExpected: 10,
    env: { MONO_AGENT_ARTIFACT_DIR: 'out', MONO_AGENT_ARTIFACT_RETENTION_MAX_RUNS: '500' },
    envExpected: 500,
    read: (config) => config.artifacts?.retention.maxRuns,
  },
  {
    key: 'artifacts.retention.dryRun',
    file: { artifacts: { dir: 'out', retention: { dryRun: true } } },
    fileExpected: true,
    env: { MONO_AGENT_ARTIFACT_DIR: 'out', MONO_AGENT_ARTIFACT_RETENTION_DRY_RUN: 'true' },
    envExpected: true,
    read: (config) => config.artifacts?.retention.dryRun,
  },
];

describe('every key and env variable of the table', () => {
  it('has a case for every row', () => {
    expect(KEY_CASES.map((entry) => entry.key)).toEqual(CONFIG_ENV_VARIABLES.map((row) => row.key));
    for (const [index, row] of CONFIG_ENV_VARIABLES.entries()) {
      expect(Object.keys(KEY_CASES[index]?.env ?? {})).toContain(row.env);
    }
  });

  for (const entry of KEY_CASES) {
    const sourceKey = entry.sourceKey ?? entry.key;
    it(`${entry.key} from the file`, async () => {
      const config = await load(entry.file);
      expect(entry.read(config)).toEqual(entry.fileExpected);
      expect(config.sources[sourceKey]).toBe('file');
    });

    it(`${entry.key} from the environment`, async () => {
      const config = await load(undefined, entry.env);
      expect(entry.read(config)).toEqual(entry.envExpected);
      expect(config.sources[sourceKey]).toBe('env');
    });

    it(`${entry.key}: the environment overrides the file`, async () => {
      const config = await load(entry.file, entry.override ?? entry.env);
      expect(entry.read(config)).toEqual(entry.overrideExpected ?? entry.envExpected);
      expect(config.sources[sourceKey]).toBe('env');
    });
  }
});

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

describe('describeConfigSources', () => {
  it('lists resolved keys with their env variable and source, in table order', async () => {
    const config = await load(web({ search: { backend: 'searxng', endpoint: 'http://127.0.0.1:8088' } }), {
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_ARTIFACT_DIR: 'artifacts',
    });
    expect(describeConfigSources(config)).toEqual([
      { key: 'tools.web.coordination', env: 'MONO_AGENT_WEB_COORDINATION', source: 'default' },
      { key: 'tools.web.search.backend', env: 'MONO_AGENT_WEB_SEARCH_BACKEND', source: 'file' },
      {
        key: 'tools.web.search.maxRequestsPerRun',
        env: 'MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN',
        source: 'default',
      },
      {
        key: 'tools.web.search.searxng.endpoint',
        env: 'MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT',
        source: 'file',
      },
      { key: 'tools.web.search.codex.model', env: 'MONO_AGENT_WEB_SEARCH_CODEX_MODEL', source: 'default' },
      { key: 'tools.web.fetch.render', env: 'MONO_AGENT_WEB_FETCH_RENDER', source: 'env' },
      { key: 'tools.web.fetch.browserCommand', env: 'MONO_AGENT_WEB_BROWSER_COMMAND', source: 'default' },
      { key: 'tools.web.mcp.runIdleSeconds', env: 'MONO_AGENT_WEB_MCP_RUN_IDLE_SECONDS', source: 'default' },
      { key: 'network.mode', env: 'MONO_AGENT_NETWORK_MODE', source: 'default' },
      { key: 'network.allow', env: 'MONO_AGENT_NETWORK_ALLOW', source: 'default' },
      { key: 'artifacts.dir', env: 'MONO_AGENT_ARTIFACT_DIR', source: 'env' },
      {
        key: 'artifacts.retention.maxAgeHours',
        env: 'MONO_AGENT_ARTIFACT_RETENTION_MAX_AGE_HOURS',
        source: 'default',
      },
      {
        key: 'artifacts.retention.maxRuns',
        env: 'MONO_AGENT_ARTIFACT_RETENTION_MAX_RUNS',
        source: 'default',
      },
      { key: 'artifacts.retention.dryRun', env: 'MONO_AGENT_ARTIFACT_RETENTION_DRY_RUN', source: 'default' },
    ]);
    expect(config.artifacts?.dir).toBe(join(directory, 'artifacts'));
  });
});

describe('CONFIG_ENV_VARIABLES', () => {
  it('matches the specification table and the extra sandbox variables', () => {
    expect(CONFIG_ENV_VARIABLES.map((row) => [row.key, row.env, row.default])).toEqual([
      ['tools.web.coordination', 'MONO_AGENT_WEB_COORDINATION', 'process'],
      ['tools.web.redis.url', 'MONO_AGENT_WEB_REDIS_URL', 'unset (required when coordination is redis)'],
      ['tools.web.search.backend', 'MONO_AGENT_WEB_SEARCH_BACKEND', 'auto'],
      ['tools.web.search.maxRequestsPerRun', 'MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN', '4'],
      ['tools.web.search.searxng.endpoint', 'MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT', 'unset'],
      ['tools.web.search.endpoint', 'MONO_AGENT_WEB_SEARCH_ENDPOINT', 'unset'],
      [
        'tools.web.search.ollama.baseUrl',
        'MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL',
        'http://127.0.0.1:11434 (when the ollama block is present or backend is ollama)',
      ],
      ['tools.web.search.ollama.apiKeyEnv', 'MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV', 'unset'],
      ['tools.web.search.ollama.trustPublicUrl', 'MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL', 'false'],
      ['tools.web.search.codex.model', 'MONO_AGENT_WEB_SEARCH_CODEX_MODEL', 'gpt-5.6-luna'],
      ['tools.web.fetch.render', 'MONO_AGENT_WEB_FETCH_RENDER', 'never'],
      ['tools.web.fetch.browserCommand', 'MONO_AGENT_WEB_BROWSER_COMMAND', 'agent-browser'],
      ['tools.web.mcp.runIdleSeconds', 'MONO_AGENT_WEB_MCP_RUN_IDLE_SECONDS', '300'],
      ['network.mode', 'MONO_AGENT_NETWORK_MODE', 'all'],
      ['network.allow', 'MONO_AGENT_NETWORK_ALLOW', 'empty'],
      ['artifacts.dir', 'MONO_AGENT_ARTIFACT_DIR', 'unset'],
      ['artifacts.retention.maxAgeHours', 'MONO_AGENT_ARTIFACT_RETENTION_MAX_AGE_HOURS', '168'],
      ['artifacts.retention.maxRuns', 'MONO_AGENT_ARTIFACT_RETENTION_MAX_RUNS', '100'],
      ['artifacts.retention.dryRun', 'MONO_AGENT_ARTIFACT_RETENTION_DRY_RUN', 'false'],
    ]);
    expect(CONFIG_ENV_VARIABLES.filter((row) => 'legacy' in row).map((row) => row.key)).toEqual([
      'tools.web.search.endpoint',
    ]);
  });
});
