export {
  COORDINATION_MODES,
  type CoordinationMode,
  DEFAULT_BROWSER_COMMAND,
  DEFAULT_CODEX_MODEL,
  DEFAULT_COORDINATION,
  DEFAULT_NETWORK_MODE,
  DEFAULT_OLLAMA_BASE_URL,
  DEFAULT_RENDER_MODE,
  DEFAULT_SEARCH_BACKEND,
  ENV_NAME_PATTERN,
  MAX_CODEX_MODEL_LENGTH,
  OLLAMA_HOSTED_ORIGIN,
  RENDER_MODES,
  type RenderMode,
  SEARCH_BACKENDS,
  type SearchBackend,
} from './config-constants.js';
export {
  CONFIG_ENV_VARIABLES,
  type ConfigEnvName,
  type ConfigEnvVariable,
  type ConfigKey,
} from './config-env-variables.js';
export { CONFIG_RULES, type ConfigProblem, type ConfigRule } from './config-problem.js';
export {
  type ConfigEnvironment,
  describeConfigSources,
  type LoadWebConfigOptions,
  loadWebConfig,
  type ResolveWebConfigOptions,
  resolveWebConfig,
} from './load-web-config.js';
export { type JsonErrorLocation, locateJsonError } from './locate-json-error.js';
export { classifyOllamaOrigin, type OllamaOriginKind } from './ollama-origin.js';
export type { ConfigDocument } from './read-config-file.js';
export type {
  ConfigSource,
  FetchConfig,
  OllamaConfig,
  SearchConfig,
  SearxngConfig,
  WebConfig,
} from './web-config.js';
