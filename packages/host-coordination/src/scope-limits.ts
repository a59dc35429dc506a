/** What a scope guards: a search backend or a fetch origin. It picks the default throttle cooldown. */
export type ScopeKind = 'search' | 'fetch';

/** The admission limits of one scope. */
export interface ScopeLimits {
  /** What the scope guards. */
  kind: ScopeKind;
  /** Requests allowed in flight at once. */
  concurrency: number;
  /** Minimum milliseconds between two starts. */
  spacingMs: number;
}

/**
 * Host-mode limits per backend scope, shared by every opted-in process of one OS user.
 * Codex is serialized: one turn at a time, no spacing beyond that.
 */
export const HOST_SCOPE_LIMITS = {
  /** One SearXNG endpoint. */
  searxng: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
  /** One Ollama origin. */
  ollama: { kind: 'search', concurrency: 1, spacingMs: 2_000 },
  /** DuckDuckGo HTML, its own scope. */
  duckduckgo: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
  /** Startpage, its own scope. */
  startpage: { kind: 'search', concurrency: 1, spacingMs: 3_000 },
  /** The ChatGPT-subscription Codex search. */
  codex: { kind: 'search', concurrency: 1, spacingMs: 0 },
  /** One fetch origin (HTTP and renderer admission together). */
  fetchOrigin: { kind: 'fetch', concurrency: 2, spacingMs: 500 },
} as const satisfies Record<string, ScopeLimits>;

/**
 * The process-mode bounds of the keyless engines (DuckDuckGo, Startpage): requests in flight across
 * both engines, spacing between starts to one engine, and the throttle cooldown. A caller admits a
 * shared `keyless` scope with `inFlight` concurrency, then the engine's scope with `startSpacingMs`.
 */
export const PROCESS_KEYLESS_LIMITS = {
  /** Keyless requests in flight in one process. */
  inFlight: 3,
  /** Milliseconds between starts to the same engine. */
  startSpacingMs: 1_500,
  /** Milliseconds a throttled engine cools down. */
  throttleCooldownMs: 5 * 60_000,
} as const;
