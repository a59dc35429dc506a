import { describe, expect, it } from 'vitest';
import { directory, load, useConfigDirectory, web } from '../../test/config-test-support.js';
import { CONFIG_ENV_VARIABLES, type ConfigKey } from './config-env-variables.js';
import type { WebConfig } from './web-config.js';

useConfigDirectory();

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
