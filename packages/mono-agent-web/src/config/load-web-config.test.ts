import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directory, load, useConfigDirectory, web } from '../../test/config-test-support.js';
import { CONFIG_ENV_VARIABLES } from './config-env-variables.js';
import { describeConfigSources, loadWebConfig } from './load-web-config.js';

useConfigDirectory();

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
