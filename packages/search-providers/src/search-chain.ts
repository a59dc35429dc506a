import { WebToolError } from '@mono-agent/budget-policy';
import type { Coordinator } from '@mono-agent/host-coordination';
import { walkProviders } from './provider-walk.js';
import type { SearchCache } from './search-cache.js';
import type { SearchOutcome } from './search-outcome.js';
import type { ProviderId, SearchProvider } from './search-provider.js';
import { parseSearchRequest, type SearchRequestInput } from './search-request.js';
import type { SearchRunContext } from './search-run-context.js';
import { searchThroughCache } from './search-sharing.js';

/** The deadline of one whole search: admission, start-up and I/O of every provider. */
export const SEARCH_DEADLINE_MS = 60_000;

/** The search backends a configuration can select. */
export const SEARCH_BACKENDS = ['auto', 'searxng', 'ollama', 'codex', 'keyless'] as const;
/** One backend selection. */
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];

/** The order auto mode walks. */
const AUTO_ORDER: readonly ProviderId[] = ['ollama', 'searxng', 'codex', 'duckduckgo', 'startpage'];

/** The configured providers; absent ones are skipped (auto) or a configuration error (strict). */
export type ConfiguredProviders = Partial<Record<ProviderId, SearchProvider>>;

/** Options of {@link createSearchChain}. */
export interface SearchChainOptions {
  /** `auto` walks every configured provider; the others are strict and never fall back. */
  backend: SearchBackend;
  /** The providers to use. */
  providers: ConfiguredProviders;
  /** Admission and cooldowns (process or host mode). */
  coordinator: Coordinator;
  /** The process cache of successful searches (with in-flight sharing); none disables caching. */
  cache?: SearchCache<SearchOutcome>;
  /** Epoch milliseconds; injected by tests. */
  now?: () => number;
}

/** A configured search chain. */
export interface SearchChain {
  /** The backend selection. */
  readonly backend: SearchBackend;
  /** The providers in the order this chain asks them. */
  readonly order: readonly ProviderId[];
  /** Runs one search; never throws for backend failures (they are in the outcome), only for bad input. */
  search(input: SearchRequestInput, run: SearchRunContext): Promise<SearchOutcome>;
}

function chainOrder(backend: SearchBackend, providers: ConfiguredProviders): ProviderId[] {
  switch (backend) {
    case 'auto':
      return AUTO_ORDER.filter((id) => providers[id] !== undefined);
    case 'keyless':
      return (['duckduckgo', 'startpage'] as const).filter((id) => providers[id] !== undefined);
    default:
      return [backend];
  }
}

/** Builds a search chain; a strict backend whose provider is missing is a configuration error. */
export function createSearchChain(options: SearchChainOptions): SearchChain {
  const order = chainOrder(options.backend, options.providers);
  const strict = options.backend !== 'auto';
  for (const id of order) {
    if (options.providers[id] === undefined) {
      throw new WebToolError({
        code: 'configuration_error',
        message: `search backend '${options.backend}' needs its ${id} provider configured`,
        details: { backend: id },
      });
    }
  }
  if (order.length === 0) {
    throw new WebToolError({
      code: 'configuration_error',
      message: `search backend '${options.backend}' has no provider to ask`,
      details: { backend: options.backend },
    });
  }
  const now = options.now ?? Date.now;
  const providers = order.map((id) => options.providers[id]!);
  const configurationKey = JSON.stringify([options.backend, providers.map((provider) => provider.scope)]);

  return {
    backend: options.backend,
    order,
    async search(input, run) {
      const request = parseSearchRequest(input);
      return await searchThroughCache({
        request,
        key: JSON.stringify([configurationKey, request]),
        run,
        cache: options.cache,
        execute: () =>
          walkProviders({
            request,
            providers,
            strict,
            coordinator: options.coordinator,
            now,
            run,
            deadlineMs: SEARCH_DEADLINE_MS,
          }),
      });
    },
  };
}
