import { DEFAULT_REQUESTS_PER_RUN } from '@mono-agent/budget-policy';
import {
  DEFAULT_ARTIFACT_MAX_AGE_HOURS,
  DEFAULT_ARTIFACT_MAX_RUNS,
  DEFAULT_BROWSER_COMMAND,
  DEFAULT_CODEX_MODEL,
  DEFAULT_COORDINATION,
  DEFAULT_NETWORK_MODE,
  DEFAULT_OLLAMA_BASE_URL,
  DEFAULT_RENDER_MODE,
  DEFAULT_RUN_IDLE_SECONDS,
  DEFAULT_SEARCH_BACKEND,
} from './config-constants.js';

/** One configurable setting: its config key, the env variable that overrides it, and its default. */
export interface ConfigEnvVariable {
  /** The config key, dotted from the root of the agent config. */
  readonly key: string;
  /** The environment variable that overrides the key. */
  readonly env: string;
  /** The default, as text for help output (`unset` when there is none). */
  readonly default: string;
  /** Whether the key is a migration alias kept for old configs. */
  readonly legacy?: true;
}

/** The config keys, each with its environment variable and default: the source of help and docs. */
export const CONFIG_ENV_VARIABLES = [
  { key: 'tools.web.coordination', env: 'MONO_AGENT_WEB_COORDINATION', default: DEFAULT_COORDINATION },
  {
    key: 'tools.web.redis.url',
    env: 'MONO_AGENT_WEB_REDIS_URL',
    default: 'unset (required when coordination is redis)',
  },
  { key: 'tools.web.search.backend', env: 'MONO_AGENT_WEB_SEARCH_BACKEND', default: DEFAULT_SEARCH_BACKEND },
  {
    key: 'tools.web.search.maxRequestsPerRun',
    env: 'MONO_AGENT_WEB_SEARCH_MAX_REQUESTS_PER_RUN',
    default: String(DEFAULT_REQUESTS_PER_RUN),
  },
  {
    key: 'tools.web.search.searxng.endpoint',
    env: 'MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT',
    default: 'unset',
  },
  {
    key: 'tools.web.search.endpoint',
    env: 'MONO_AGENT_WEB_SEARCH_ENDPOINT',
    default: 'unset',
    legacy: true,
  },
  {
    key: 'tools.web.search.ollama.baseUrl',
    env: 'MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL',
    default: `${DEFAULT_OLLAMA_BASE_URL} (when the ollama block is present or backend is ollama)`,
  },
  {
    key: 'tools.web.search.ollama.apiKeyEnv',
    env: 'MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV',
    default: 'unset',
  },
  {
    key: 'tools.web.search.ollama.trustPublicUrl',
    env: 'MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL',
    default: 'false',
  },
  {
    key: 'tools.web.search.codex.model',
    env: 'MONO_AGENT_WEB_SEARCH_CODEX_MODEL',
    default: DEFAULT_CODEX_MODEL,
  },
  { key: 'tools.web.fetch.render', env: 'MONO_AGENT_WEB_FETCH_RENDER', default: DEFAULT_RENDER_MODE },
  {
    key: 'tools.web.fetch.browserCommand',
    env: 'MONO_AGENT_WEB_BROWSER_COMMAND',
    default: DEFAULT_BROWSER_COMMAND,
  },
  {
    key: 'tools.web.mcp.runIdleSeconds',
    env: 'MONO_AGENT_WEB_MCP_RUN_IDLE_SECONDS',
    default: String(DEFAULT_RUN_IDLE_SECONDS),
  },
  { key: 'network.mode', env: 'MONO_AGENT_NETWORK_MODE', default: DEFAULT_NETWORK_MODE },
  { key: 'network.allow', env: 'MONO_AGENT_NETWORK_ALLOW', default: 'empty' },
  { key: 'artifacts.dir', env: 'MONO_AGENT_ARTIFACT_DIR', default: 'unset' },
  {
    key: 'artifacts.retention.maxAgeHours',
    env: 'MONO_AGENT_ARTIFACT_RETENTION_MAX_AGE_HOURS',
    default: String(DEFAULT_ARTIFACT_MAX_AGE_HOURS),
  },
  {
    key: 'artifacts.retention.maxRuns',
    env: 'MONO_AGENT_ARTIFACT_RETENTION_MAX_RUNS',
    default: String(DEFAULT_ARTIFACT_MAX_RUNS),
  },
  { key: 'artifacts.retention.dryRun', env: 'MONO_AGENT_ARTIFACT_RETENTION_DRY_RUN', default: 'false' },
] as const satisfies readonly ConfigEnvVariable[];

/** One config key of {@link CONFIG_ENV_VARIABLES}. */
export type ConfigKey = (typeof CONFIG_ENV_VARIABLES)[number]['key'];

/** One environment variable of {@link CONFIG_ENV_VARIABLES}. */
export type ConfigEnvName = (typeof CONFIG_ENV_VARIABLES)[number]['env'];

const envByKey = new Map<string, ConfigEnvName>(CONFIG_ENV_VARIABLES.map((row) => [row.key, row.env]));

/** The environment variable that overrides `key`. */
export function envNameOf(key: ConfigKey): ConfigEnvName {
  return envByKey.get(key) as ConfigEnvName;
}
