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
 * Host-mode limits of the scopes this package's callers share that are no search backend's: a search
 * provider declares its own limits beside the code that talks to its backend.
 */
export const HOST_SCOPE_LIMITS = {
  /** One fetch origin (HTTP and renderer admission together). */
  fetchOrigin: { kind: 'fetch', concurrency: 2, spacingMs: 500 },
} as const satisfies Record<string, ScopeLimits>;
