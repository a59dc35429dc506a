import type { NetworkMode } from '@mono-agent/net';
import type { CoordinationMode, RenderMode, SearchBackend } from './config-constants.js';

/** Where a resolved setting came from. */
export type ConfigSource = 'default' | 'file' | 'env';

/** The loopback SearXNG endpoint and which spelling supplied it. */
export interface SearxngConfig {
  /** The endpoint URL as written (validated: loopback `http://`, no credentials, query or fragment). */
  readonly endpoint: string;
  /** `searxng.endpoint`, or `legacy endpoint` when only the migration alias was set. */
  readonly source: 'searxng.endpoint' | 'legacy endpoint';
}

/** The Ollama Web Search origin; present only when configured or when `backend` is `ollama`. */
export interface OllamaConfig {
  /** The origin, normalised (`http://127.0.0.1:11434`, `https://ollama.com`). */
  readonly baseUrl: string;
  /** The name of the variable holding the hosted key (only with `https://ollama.com`); never the key. */
  readonly apiKeyEnv?: string;
  /** Whether a custom public https origin was trusted explicitly. */
  readonly trustPublicUrl: boolean;
}

/** The WebSearch settings. */
export interface SearchConfig {
  /** The backend selection: `auto` chains the configured providers, the others are strict. */
  readonly backend: SearchBackend;
  /** Provider requests allowed per run, an integer from 1 through 20. */
  readonly maxRequestsPerRun: number;
  /** The SearXNG endpoint, when one is configured. */
  readonly searxng?: SearxngConfig;
  /** The Ollama origin, when configured (or defaulted by `backend: ollama`). */
  readonly ollama?: OllamaConfig;
  /** The Codex subscription search settings. */
  readonly codex: {
    /** The model of the search turn. */
    readonly model: string;
  };
}

/** The WebFetch settings. */
export interface FetchConfig {
  /** The render ceiling: `never` keeps every call static. */
  readonly render: RenderMode;
  /** The renderer executable, run directly (never through a shell). */
  readonly browserCommand: string;
}

/** The settings of the `mono-agent-web mcp` server. */
export interface McpConfig {
  /** Seconds without a tool call after which the next call starts a fresh run (fresh budget). */
  readonly runIdleSeconds: number;
}

/** The resolved, validated web configuration of one agent. */
export interface WebConfig {
  /**
   * Whether limits stay in this process, are shared by every opted-in process of the OS user (`host`),
   * or by every machine reaching one Redis server (`redis`).
   */
  readonly coordination: CoordinationMode;
  /** The Redis server of `coordination: "redis"`, present when a URL is configured. */
  readonly redis?: {
    /** `redis://` or `rediss://` URL; it may hold a password, so it is never printed whole. */
    readonly url: string;
  };
  /** The sandbox network policy (entries normalised by `parseNetworkPolicy`). */
  readonly network: {
    /** The network mode. */
    readonly mode: NetworkMode;
    /** Destinations admitted besides what the mode admits. */
    readonly allow: readonly string[];
  };
  /** The WebSearch settings. */
  readonly search: SearchConfig;
  /** The WebFetch settings. */
  readonly fetch: FetchConfig;
  /** The MCP server settings. */
  readonly mcp: McpConfig;
  /** Where saved output artifacts go, when configured (an absolute path). */
  readonly artifacts?: {
    /** The directory, resolved against `cwd`. */
    readonly dir: string;
    /** How long and how many run folders under `tool-output/` are kept (`artifacts.retention`). */
    readonly retention: {
      /** Idle run folders older than this many hours are removed. */
      readonly maxAgeHours: number;
      /** Beyond this many run folders, the oldest idle ones are removed. */
      readonly maxRuns: number;
      /** Report what would be removed and remove nothing. */
      readonly dryRun: boolean;
    };
  };
  /** Where each resolved setting came from, by config key; names only, never values. */
  readonly sources: Readonly<Record<string, ConfigSource>>;
}
