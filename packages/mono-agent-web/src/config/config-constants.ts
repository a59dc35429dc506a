import type { NetworkMode } from '@mono-agent/net';

/**
 * How per-process limits are shared: `process` keeps them in this process, `host` shares them per OS
 * user through a state file, `redis` shares them across machines through one Redis server.
 */
export const COORDINATION_MODES = ['process', 'host', 'redis'] as const;
/** One coordination mode. */
export type CoordinationMode = (typeof COORDINATION_MODES)[number];
/** The coordination mode used when none is configured. */
export const DEFAULT_COORDINATION: CoordinationMode = 'process';

/** The WebSearch backends an operator may select. */
export const SEARCH_BACKENDS = ['auto', 'searxng', 'ollama', 'codex', 'keyless'] as const;
/** One search backend. */
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];
/** The search backend used when none is configured. */
export const DEFAULT_SEARCH_BACKEND: SearchBackend = 'auto';

/**
 * The render ceilings an operator may set for WebFetch: `never` keeps every call static, `auto` lets
 * calls request rendering or have a sparse application shell rendered. There is no configured
 * `always`: browser-first is a per-call request.
 */
export const RENDER_MODES = ['never', 'auto'] as const;
/** One render ceiling. */
export type RenderMode = (typeof RENDER_MODES)[number];
/** The render ceiling used when none is configured: static extraction only. */
export const DEFAULT_RENDER_MODE: RenderMode = 'never';

/** The renderer executable used when none is configured (resolved through PATH, never a shell). */
export const DEFAULT_BROWSER_COMMAND = 'agent-browser';

/** The default `artifacts.retention.maxAgeHours`: an idle run folder is removed after seven days. */
export const DEFAULT_ARTIFACT_MAX_AGE_HOURS = 168;

/** The least `artifacts.retention.maxAgeHours` accepted (one sweep interval). */
export const MIN_ARTIFACT_MAX_AGE_HOURS = 1;

/** The most `artifacts.retention.maxAgeHours` accepted (ten years). */
export const MAX_ARTIFACT_MAX_AGE_HOURS = 87_600;

/** The default `artifacts.retention.maxRuns`: the newest hundred run folders are kept. */
export const DEFAULT_ARTIFACT_MAX_RUNS = 100;

/** The least `artifacts.retention.maxRuns` accepted. */
export const MIN_ARTIFACT_MAX_RUNS = 1;

/** The most `artifacts.retention.maxRuns` accepted. */
export const MAX_ARTIFACT_MAX_RUNS = 100_000;

/** The Codex model used when none is configured. */
export const DEFAULT_CODEX_MODEL = 'gpt-5.6-luna';
/** The longest accepted Codex model name. */
export const MAX_CODEX_MODEL_LENGTH = 100;

/** The Ollama origin used when `backend` is `ollama` and no origin is configured. */
/** The one origin treated as hosted Ollama, and the only one that may name an API key variable. */
export { DEFAULT_OLLAMA_BASE_URL, OLLAMA_HOSTED_ORIGIN } from '@mono-agent/search-providers/ollama-origins';
/** The idle gap that starts a fresh run in `mono-agent-web mcp`, and its bounds, in seconds. */
export {
  DEFAULT_RUN_IDLE_SECONDS,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from '../runtime/idle-run-rotation.js';

/** What an environment variable name must look like (`apiKeyEnv` names one; it never holds the key). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Characters a shell would interpret. `browserCommand` runs without a shell, so these can only be a
 * mistake (an attempt to pass arguments or chain commands) and are refused rather than passed along.
 */
export const SHELL_METACHARACTERS = /[;&|`$<>(){}[\]*?!~'"\\#]/;

/** The network mode used when none is configured: public egress allowed. */
export const DEFAULT_NETWORK_MODE: NetworkMode = 'all';
