import type { ScopeLimits } from '@mono-agent/host-coordination';
import type { SearchResult } from './search-result.js';
import type { EngineFailure } from './searxng-engine-health.js';

/** The time ranges a search may be limited to. */
export const TIME_RANGES = ['day', 'month', 'year'] as const;

/** A search's freshness limit. */
export type TimeRange = (typeof TIME_RANGES)[number];

/** What one provider is asked for one query. */
export interface ProviderSearchRequest {
  /** The query, exactly as the model wrote it: quotes and `site:` are never rewritten. */
  query: string;
  /** How many results the caller wants (1–10). */
  limit: number;
  /** A language code such as `en` or `de-CH`, when the caller asked for one. */
  language?: string;
  /** A freshness limit, when the caller asked for one. */
  timeRange?: TimeRange;
}

/**
 * How far a provider honours a filter: `supported` (the backend enforces it), `hint` (passed on,
 * the backend may weigh it), `advisory` (passed on or not, never guaranteed), `unsupported`.
 */
export type FilterSupportLevel = 'supported' | 'hint' | 'advisory' | 'unsupported';

/** Which filters a provider really applies, reported to the model instead of dropping one silently. */
export interface FilterSupport {
  /** Support for `language`. */
  language: FilterSupportLevel;
  /** Support for `time_range`. */
  timeRange: FilterSupportLevel;
}

/** The stable names of the backends. */
export const PROVIDER_IDS = ['ollama', 'searxng', 'codex', 'duckduckgo', 'startpage'] as const;

/** One backend's name. */
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** What the search chain lends a provider for one call. */
export interface ProviderCallContext {
  /** Cancels the call; providers pass it to every request they make. */
  signal?: AbortSignal;
  /** Milliseconds the provider may spend, including every request it sends. */
  timeoutMs: number;
  /**
   * Called right before each request that reaches the backend. It charges the run's budget and
   * throws `search_budget_exhausted` when none is left, so the request is never sent.
   */
  beforeRequest: () => void;
}

/** A provider's answer when it worked. Failures are thrown as `WebToolError`s. */
export type ProviderAnswer =
  | {
      /** The backend returned results. */
      kind: 'results';
      /** Results in the backend's order, URLs normalized, at most the requested limit. */
      results: SearchResult[];
      /** Non-fatal problems worth showing (e.g. some SearXNG engines failed). */
      warnings: string[];
      /** SearXNG engines that failed while others answered. */
      engineFailures?: EngineFailure[];
    }
  | {
      /** The backend worked and found nothing. */
      kind: 'no_results';
      /** Non-fatal problems worth showing. */
      warnings: string[];
    };

/** One admission a provider's request takes, in process mode, before it is sent. */
export interface ProviderAdmission extends ScopeLimits {
  /**
   * A scope shared with other providers; the provider's own `scope` when omitted. A shared scope bounds
   * their requests in flight together.
   */
  scope?: string;
  /**
   * `false` for an admission that records no verdict on release, so one provider's throttling cannot
   * cool down the others that share its scope.
   */
  recordsOutcome?: false;
}

/**
 * How the chain admits, asks and times one provider. The chain reads these instead of the provider's
 * name, so what sets a backend apart is stated beside the code that talks to it.
 */
export interface ProviderLimits {
  /** Host mode: the bounds of the provider's own scope, shared by every opted-in process of one OS user. */
  host: ScopeLimits;
  /** Process mode: the admissions taken in order before each request (and released in reverse). */
  process: readonly ProviderAdmission[];
  /** Whether the chain asks the request's alternate wordings after the main query. */
  alternateQueries: boolean;
  /**
   * In auto mode, the most its stage (admission and every request) may take before the chain moves on;
   * the rest of the search deadline when omitted.
   */
  autoStageMs?: number;
  /** In a strict chain (a named backend), the most one request may take; the rest of the stage when omitted. */
  strictRequestMs?: number;
}

/**
 * One search backend. A provider sends its own requests (through `@mono-agent/net`), classifies
 * every way its backend can fail into the shared failure codes (`rate_limited`,
 * `backend_unavailable`, `configuration_error`, `policy_denied`, `timeout`, `cancelled`), and never
 * retries on its own: retrying, falling back and cooling down are the chain's decisions.
 */
export interface SearchProvider {
  /** Which backend this is. */
  readonly id: ProviderId;
  /** The coordination scope its requests are admitted under (a backend key, never a query). */
  readonly scope: string;
  /** Which filters it really applies. */
  readonly filterSupport: FilterSupport;
  /** How the chain admits, asks and times it. */
  readonly limits: ProviderLimits;
  /**
   * Throws `policy_denied` when the network policy refuses this backend's destination. The chain asks
   * before admission and before any budget is charged; `search` asks again before it sends.
   */
  checkDestination?(): void;
  /** Runs one query. */
  search(request: ProviderSearchRequest, context: ProviderCallContext): Promise<ProviderAnswer>;
}
