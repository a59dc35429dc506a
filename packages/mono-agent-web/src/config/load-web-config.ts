import { resolve as resolvePath } from 'node:path';
import {
  DEFAULT_REQUESTS_PER_RUN,
  MAX_REQUESTS_PER_RUN,
  MIN_REQUESTS_PER_RUN,
  WebToolError,
} from '@mono-agent/budget-policy';
import { NETWORK_MODES, type NetworkMode, parseNetworkPolicy } from '@mono-agent/net';
import {
  COORDINATION_MODES,
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
  MAX_ARTIFACT_MAX_AGE_HOURS,
  MAX_ARTIFACT_MAX_RUNS,
  MAX_RUN_IDLE_SECONDS,
  MIN_ARTIFACT_MAX_AGE_HOURS,
  MIN_ARTIFACT_MAX_RUNS,
  MIN_RUN_IDLE_SECONDS,
  RENDER_MODES,
  SEARCH_BACKENDS,
} from './config-constants.js';
import {
  CONFIG_ENV_VARIABLES,
  type ConfigEnvName,
  type ConfigKey,
  envNameOf,
} from './config-env-variables.js';
import { type ConfigField, envField, fileField } from './config-field.js';
import { ConfigProblems } from './config-problem.js';
import {
  booleanReader,
  checkAllowEntry,
  checkBrowserCommand,
  checkCodexModel,
  checkDirectory,
  checkEnvName,
  integerReader,
  listReader,
  oneOfReader,
  type Slot,
  stringReader,
  type ValueReader,
} from './config-values.js';
import { checkOllamaBaseUrl, checkOllamaOriginRules } from './ollama-origin.js';
import { type ConfigDocument, readConfigFile } from './read-config-file.js';
import { type JsonObject, readSections } from './read-config-sections.js';
import { checkRedisUrl } from './redis-url.js';
import { checkSearxngEndpoint } from './searxng-endpoint.js';
import type { ConfigSource, OllamaConfig, SearxngConfig, WebConfig } from './web-config.js';

/** The environment the loader reads: only the variables of {@link CONFIG_ENV_VARIABLES}, by name. */
export type ConfigEnvironment = Readonly<Record<string, string | undefined>>;

/** Options of {@link loadWebConfig}. */
export interface LoadWebConfigOptions {
  /** A JSON agent config file (resolved against `cwd`), or an already-parsed document. */
  file?: string | ConfigDocument;
  /** The environment, e.g. `process.env`; an empty value counts as unset. */
  env: ConfigEnvironment;
  /** The directory relative paths (the file, `artifacts.dir`) resolve against; `process.cwd()` by default. */
  cwd?: string;
}

/** Options of {@link resolveWebConfig}: like {@link LoadWebConfigOptions} with the file already parsed. */
export interface ResolveWebConfigOptions {
  /** The parsed agent config, when there is one. */
  document?: ConfigDocument;
  /** The environment, e.g. `process.env`; an empty value counts as unset. */
  env: ConfigEnvironment;
  /** The directory `artifacts.dir` resolves against; `process.cwd()` by default. */
  cwd?: string;
}

/**
 * Loads the web configuration: defaults, then the agent config file (`tools.web.*`, `network`,
 * `artifacts.dir`), then the environment. Every value given anywhere is validated, even one the
 * environment overrides, and every problem is reported in one `validation_error` whose
 * `details.problems` lists `{ key, rule, message }`.
 */
export async function loadWebConfig(options: LoadWebConfigOptions): Promise<WebConfig> {
  const cwd = options.cwd ?? process.cwd();
  if (typeof options.file !== 'string') {
    return resolveWebConfig({ document: options.file, env: options.env, cwd });
  }
  const path = resolvePath(cwd, options.file);
  const problems = new ConfigProblems();
  const read = await readConfigFile(path, problems);
  return build(read.ok ? { value: read.value, source: path } : undefined, options.env, cwd, problems, path);
}

/** {@link loadWebConfig} for a config that is already parsed: synchronous, reads no file. */
export function resolveWebConfig(options: ResolveWebConfigOptions): WebConfig {
  const { document } = options;
  return build(document, options.env, options.cwd ?? process.cwd(), new ConfigProblems(), document?.source);
}

/** One row per resolved key, in the order of {@link CONFIG_ENV_VARIABLES}: for help and `validate` output. */
export function describeConfigSources(
  config: Pick<WebConfig, 'sources'>,
): { key: string; env: ConfigEnvName; source: ConfigSource }[] {
  return CONFIG_ENV_VARIABLES.flatMap((row) => {
    const source = config.sources[row.key];
    return source === undefined ? [] : [{ key: row.key, env: row.env, source }];
  });
}

const OLLAMA_ENV_NAMES: readonly ConfigEnvName[] = [
  'MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL',
  'MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV',
  'MONO_AGENT_WEB_SEARCH_OLLAMA_TRUST_PUBLIC_URL',
];

/** A setting read from both layers, with the effective layer (env over file). */
interface Layered<T> {
  readonly key: ConfigKey;
  readonly file: Slot<T>;
  readonly env: Slot<T>;
}

function effective<T>(layered: Layered<T>): { slot: Slot<T>; source: 'file' | 'env' | undefined } {
  if (layered.env !== undefined) return { slot: layered.env, source: 'env' };
  if (layered.file !== undefined) return { slot: layered.file, source: 'file' };
  return { slot: undefined, source: undefined };
}

function fieldOf(layered: Layered<unknown>): ConfigField {
  return effective(layered).source === 'env'
    ? envField(envNameOf(layered.key), layered.key)
    : fileField(layered.key);
}

function build(
  document: ConfigDocument | undefined,
  env: ConfigEnvironment,
  cwd: string,
  problems: ConfigProblems,
  source: string | undefined,
): WebConfig {
  const sections = readSections(document, problems);
  const envText = (name: ConfigEnvName): string | undefined => {
    const text = env[name];
    return text === undefined || text === '' ? undefined : text;
  };
  const read = <T>(
    key: ConfigKey,
    section: JsonObject | undefined,
    name: string,
    reader: ValueReader<T>,
  ): Layered<T> => {
    const fileSlot =
      section !== undefined && Object.hasOwn(section, name)
        ? reader.fromFile(section[name], fileField(key), problems)
        : undefined;
    const envName = envNameOf(key);
    const text = envText(envName);
    const envSlot = text === undefined ? undefined : reader.fromEnv(text, envField(envName, key), problems);
    return { key, file: fileSlot, env: envSlot };
  };

  const { web, redis, search, searxng, ollama, codex, fetch, mcp, network, artifacts, retention } = sections;
  const coordination = read('tools.web.coordination', web, 'coordination', oneOfReader(COORDINATION_MODES));
  const redisUrl = read('tools.web.redis.url', redis, 'url', stringReader(checkRedisUrl));
  const backend = read('tools.web.search.backend', search, 'backend', oneOfReader(SEARCH_BACKENDS));
  const maxRequests = read(
    'tools.web.search.maxRequestsPerRun',
    search,
    'maxRequestsPerRun',
    integerReader(MIN_REQUESTS_PER_RUN, MAX_REQUESTS_PER_RUN),
  );
  const searxngReader = stringReader(checkSearxngEndpoint);
  const endpoint = read('tools.web.search.searxng.endpoint', searxng, 'endpoint', searxngReader);
  const legacyEndpoint = read('tools.web.search.endpoint', search, 'endpoint', searxngReader);
  const baseUrl = read(
    'tools.web.search.ollama.baseUrl',
    ollama,
    'baseUrl',
    stringReader(checkOllamaBaseUrl),
  );
  const apiKeyEnv = read(
    'tools.web.search.ollama.apiKeyEnv',
    ollama,
    'apiKeyEnv',
    stringReader(checkEnvName),
  );
  const trustPublicUrl = read(
    'tools.web.search.ollama.trustPublicUrl',
    ollama,
    'trustPublicUrl',
    booleanReader,
  );
  const model = read('tools.web.search.codex.model', codex, 'model', stringReader(checkCodexModel));
  const render = read('tools.web.fetch.render', fetch, 'render', oneOfReader(RENDER_MODES));
  const browserCommand = read(
    'tools.web.fetch.browserCommand',
    fetch,
    'browserCommand',
    stringReader(checkBrowserCommand),
  );
  const runIdleSeconds = read(
    'tools.web.mcp.runIdleSeconds',
    mcp,
    'runIdleSeconds',
    integerReader(MIN_RUN_IDLE_SECONDS, MAX_RUN_IDLE_SECONDS),
  );
  const networkMode = read('network.mode', network, 'mode', oneOfReader(NETWORK_MODES));
  const networkAllow = read('network.allow', network, 'allow', listReader(checkAllowEntry));
  const artifactDir = read('artifacts.dir', artifacts, 'dir', stringReader(checkDirectory));
  const retentionAge = read(
    'artifacts.retention.maxAgeHours',
    retention,
    'maxAgeHours',
    integerReader(MIN_ARTIFACT_MAX_AGE_HOURS, MAX_ARTIFACT_MAX_AGE_HOURS),
  );
  const retentionRuns = read(
    'artifacts.retention.maxRuns',
    retention,
    'maxRuns',
    integerReader(MIN_ARTIFACT_MAX_RUNS, MAX_ARTIFACT_MAX_RUNS),
  );
  const retentionDryRun = read('artifacts.retention.dryRun', retention, 'dryRun', booleanReader);

  const sources: Record<string, ConfigSource> = {};
  const pick = <T>(layered: Layered<T>, fallback: T): T => {
    const { slot, source: from } = effective(layered);
    sources[layered.key] = from ?? 'default';
    return slot?.ok === true ? slot.value : fallback;
  };

  const coordinationValue = pick(coordination, DEFAULT_COORDINATION);
  let redisValue: { url: string } | undefined;
  if (effective(redisUrl).source !== undefined) {
    const url = pick(redisUrl, '');
    if (url !== '') redisValue = { url };
  }
  if (
    coordinationValue === 'redis' &&
    effective(coordination).slot?.ok === true &&
    effective(redisUrl).source === undefined
  ) {
    problems.add(
      'tools.web.redis.url',
      'redis_url_required',
      `must be set when coordination is redis (or set ${envNameOf('tools.web.redis.url')})`,
    );
  }
  const networkValue = resolveNetwork(
    pick(networkMode, DEFAULT_NETWORK_MODE),
    pick(networkAllow, [] as string[]),
    networkMode,
    networkAllow,
    problems,
  );
  const backendValue = pick(backend, DEFAULT_SEARCH_BACKEND);
  const maxRequestsValue = pick(maxRequests, DEFAULT_REQUESTS_PER_RUN);

  const searxngValue = resolveSearxng(endpoint, legacyEndpoint, problems);
  if (searxngValue !== undefined) sources['tools.web.search.searxng.endpoint'] = searxngValue.layer;
  const searxngGiven = [endpoint.file, endpoint.env, legacyEndpoint.file, legacyEndpoint.env].some(
    (slot) => slot !== undefined,
  );
  if (backendValue === 'searxng' && effective(backend).slot?.ok === true && !searxngGiven) {
    problems.add(
      'tools.web.search.searxng.endpoint',
      'endpoint_required',
      `must be set when the search backend is searxng (or set ${envNameOf('tools.web.search.searxng.endpoint')})`,
    );
  }

  const ollamaPresent =
    (search !== undefined && Object.hasOwn(search, 'ollama')) ||
    OLLAMA_ENV_NAMES.some((name) => envText(name) !== undefined) ||
    backendValue === 'ollama';
  let ollamaValue: OllamaConfig | undefined;
  if (ollamaPresent) {
    const origin = pick(baseUrl, DEFAULT_OLLAMA_BASE_URL);
    // An unset key name is not a setting with a default, so it gets no `sources` entry.
    const keyName =
      effective(apiKeyEnv).source === undefined ? undefined : pick<string | undefined>(apiKeyEnv, undefined);
    const trusted = pick(trustPublicUrl, false);
    const shapesValid = [baseUrl, apiKeyEnv, trustPublicUrl].every(
      (layered) => effective(layered as Layered<unknown>).slot?.ok !== false,
    );
    if (shapesValid) {
      checkOllamaOriginRules(
        {
          baseUrl: { value: origin, field: fieldOf(baseUrl) },
          apiKeyEnv: { value: keyName, field: fieldOf(apiKeyEnv) },
          trustPublicUrl: { value: trusted, field: fieldOf(trustPublicUrl) },
        },
        problems,
      );
    }
    ollamaValue = {
      baseUrl: origin,
      ...(keyName === undefined ? {} : { apiKeyEnv: keyName }),
      trustPublicUrl: trusted,
    };
  }

  const modelValue = pick(model, DEFAULT_CODEX_MODEL);
  const renderValue = pick(render, DEFAULT_RENDER_MODE);
  const browserCommandValue = pick(browserCommand, DEFAULT_BROWSER_COMMAND);
  const runIdleSecondsValue = pick(runIdleSeconds, DEFAULT_RUN_IDLE_SECONDS);
  let artifactsValue: WebConfig['artifacts'];
  if (effective(artifactDir).source !== undefined) {
    const dir = pick(artifactDir, '');
    // The retention policy belongs to an artifact folder: without one it is not resolved (nor listed).
    if (dir !== '') {
      artifactsValue = {
        dir: resolvePath(cwd, dir),
        retention: {
          maxAgeHours: pick(retentionAge, DEFAULT_ARTIFACT_MAX_AGE_HOURS),
          maxRuns: pick(retentionRuns, DEFAULT_ARTIFACT_MAX_RUNS),
          dryRun: pick(retentionDryRun, false),
        },
      };
    }
  }

  problems.throwIfAny(source);
  return deepFreeze({
    coordination: coordinationValue,
    ...(redisValue === undefined ? {} : { redis: redisValue }),
    network: networkValue,
    search: {
      backend: backendValue,
      maxRequestsPerRun: maxRequestsValue,
      ...(searxngValue === undefined ? {} : { searxng: searxngValue.config }),
      ...(ollamaValue === undefined ? {} : { ollama: ollamaValue }),
      codex: { model: modelValue },
    },
    fetch: { render: renderValue, browserCommand: browserCommandValue },
    mcp: { runIdleSeconds: runIdleSecondsValue },
    ...(artifactsValue === undefined ? {} : { artifacts: artifactsValue }),
    sources: orderSources(sources),
  });
}

/**
 * The SearXNG endpoint from its two spellings. Within one layer both spellings must agree; across
 * layers the environment wins. Returns nothing when neither is set or a given value is broken.
 */
function resolveSearxng(
  endpoint: Layered<string>,
  legacy: Layered<string>,
  problems: ConfigProblems,
): { config: SearxngConfig; layer: 'file' | 'env' } | undefined {
  let chosen: { config: SearxngConfig; layer: 'file' | 'env' } | undefined;
  let broken = false;
  for (const layer of ['file', 'env'] as const) {
    const current = endpoint[layer];
    const old = legacy[layer];
    if (current === undefined && old === undefined) continue;
    if (current?.ok === false || old?.ok === false) {
      broken = true;
      continue;
    }
    if (current !== undefined && old !== undefined && current.value !== old.value) {
      const field = layer === 'env' ? envField(envNameOf(legacy.key), legacy.key) : fileField(legacy.key);
      const other = layer === 'env' ? envNameOf(endpoint.key) : endpoint.key;
      problems.add(
        field.key,
        'endpoint_conflict',
        `(legacy alias) and ${other} are both set to different URLs; keep only ${other}`,
        field.label,
      );
      broken = true;
      continue;
    }
    chosen =
      current !== undefined
        ? { config: { endpoint: current.value, source: 'searxng.endpoint' }, layer }
        : old !== undefined
          ? { config: { endpoint: old.value, source: 'legacy endpoint' }, layer }
          : chosen;
  }
  return broken ? undefined : chosen;
}

function resolveNetwork(
  mode: NetworkMode,
  allow: string[],
  modeLayered: Layered<NetworkMode>,
  allowLayered: Layered<string[]>,
  problems: ConfigProblems,
): WebConfig['network'] {
  const modeSlot = effective(modeLayered).slot;
  const allowSlot = effective(allowLayered).slot;
  if (modeSlot?.ok === false || allowSlot?.ok === false) return { mode, allow };
  const field = fieldOf(allowLayered);
  if (mode === 'allowlist' && allow.length === 0) {
    problems.add(
      field.key,
      'allowlist_empty',
      `must list at least one destination when ${fieldOf(modeLayered).label} is allowlist (an empty allowlist admits nothing; use mode none for that)`,
      field.label,
    );
    return { mode, allow };
  }
  try {
    const policy = parseNetworkPolicy({ mode, allow });
    return { mode: policy.mode, allow: [...(policy.allow ?? [])] };
  } catch (error) {
    if (!WebToolError.isInstance(error, 'validation_error')) throw error;
    problems.add(field.key, 'network_policy', `is refused: ${error.message}`, field.label);
    return { mode, allow };
  }
}

function orderSources(sources: Record<string, ConfigSource>): Record<string, ConfigSource> {
  const ordered: Record<string, ConfigSource> = {};
  for (const row of CONFIG_ENV_VARIABLES) {
    const source = sources[row.key];
    if (source !== undefined) ordered[row.key] = source;
  }
  return ordered;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
