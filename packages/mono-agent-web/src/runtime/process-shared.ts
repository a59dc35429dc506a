import { createHash } from 'node:crypto';
import { type Coordinator, createCoordinator } from '@mono-agent/host-coordination';
import { createSearchCache, type SearchCache, type SearchOutcome } from '@mono-agent/search-providers';
import type { WebConfig } from '../config/index.js';

// Module-level state, one per loaded copy of this package: every runtime of the process reads it, so
// a host that builds one runtime per agent still sends what one runtime would. Nothing here touches
// a global of the host process.
let sharedCoordinator: Coordinator | undefined;
let sharedCache: SearchCache<SearchOutcome> | undefined;

/**
 * The `process`-mode coordinator shared by every runtime of this process: the keyless bounds (three in
 * flight, start spacing per engine, throttle cooldowns), Codex serialization and fetch-origin admission
 * live in its one in-memory table. No runtime closes it (its store holds no connection).
 */
export function processCoordinator(): Coordinator {
  sharedCoordinator ??= createCoordinator({ mode: 'process' });
  return sharedCoordinator;
}

/**
 * Forgets the process-wide coordinator and cache, so the next runtime starts from nothing. For test
 * suites that build many runtimes in one process and need each test to start clean; runtimes built
 * before keep the state they hold.
 */
export function resetProcessSharedState(): void {
  sharedCoordinator = undefined;
  sharedCache = undefined;
}

/** What of a runtime decides which backends a search reaches and what they may answer. */
export interface SearchConfigurationKey {
  /** The resolved configuration. */
  config: Pick<WebConfig, 'search' | 'network'>;
  /** Keyless endpoint overrides. */
  keylessEndpoints?: { duckduckgo?: string; startpage?: string };
  /** The `codex` executable. */
  codexCommand?: string;
  /** The Ollama key in force (hashed here, never kept), when one is configured. */
  ollamaKey?: string;
}

/**
 * The process cache of successful searches, seen through a namespace of the backend configuration:
 * runtimes configured alike share entries and in-flight work, runtimes configured differently (other
 * backends, endpoints, network policy, Codex model or Ollama key) never see each other's entries.
 */
export function processSearchCache(key: SearchConfigurationKey): SearchCache<SearchOutcome> {
  sharedCache ??= createSearchCache<SearchOutcome>();
  const { search, network } = key.config;
  const configuration = JSON.stringify({
    backend: search.backend,
    searxng: search.searxng?.endpoint ?? null,
    ollama:
      search.ollama === undefined
        ? null
        : {
            baseUrl: search.ollama.baseUrl,
            apiKeyEnv: search.ollama.apiKeyEnv ?? null,
            trustPublicUrl: search.ollama.trustPublicUrl,
            key: key.ollamaKey === undefined ? null : digest(key.ollamaKey),
          },
    codex: { model: search.codex.model, command: key.codexCommand ?? null },
    keyless: {
      duckduckgo: key.keylessEndpoints?.duckduckgo ?? null,
      startpage: key.keylessEndpoints?.startpage ?? null,
    },
    network: { mode: network.mode, allow: [...network.allow].sort() },
  });
  return sharedCache.scoped(digest(configuration));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
