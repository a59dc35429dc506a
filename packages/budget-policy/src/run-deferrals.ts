import { WebToolError } from './web-tool-error.js';

/**
 * When a provider gave no Retry-After and the caller knows no cooldown end, `retryAt` is this far
 * ahead: the default throttle cooldown of a search scope.
 */
export const DEFAULT_DEFERRAL_RETRY_MS = 5 * 60_000;

/** Where deferrals read the time; tests pass a fixed clock. */
export interface DeferralClock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Options of {@link createRunDeferrals}. */
export interface RunDeferralsOptions {
  /** The time source (default `Date`). */
  clock?: DeferralClock;
}

/** What the caller knows about a rate limit. */
export interface DeferOptions {
  /** The provider's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs?: number;
  /** A known absolute end of the throttle (e.g. a host cooldown), epoch milliseconds. */
  retryAt?: number;
}

/** A provider set aside for the rest of the run. */
export interface RunDeferral {
  /** The provider's name. */
  provider: string;
  /** The provider's Retry-After in milliseconds, present only when known. */
  retryAfterMs?: number;
  /** Epoch milliseconds after which another attempt (in a later run) can help. */
  retryAt: number;
  /** Always false: a deferred provider is not asked again in this run. */
  retryInRun: false;
}

/** The providers a run has deferred after they answered with a rate limit. */
export interface RunDeferrals {
  /** Defers `provider` for the rest of the run; a second call keeps the later `retryAt`. */
  defer(provider: string, options?: DeferOptions): RunDeferral;
  /** Whether `provider` is deferred. */
  isDeferred(provider: string): boolean;
  /** The deferral of `provider`, if any. */
  get(provider: string): RunDeferral | undefined;
  /** Every deferral, in the order the providers were first deferred. */
  list(): RunDeferral[];
}

const systemClock: DeferralClock = { now: () => Date.now() };

function invalid(rule: string, message: string): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details: { rule } });
}

/** Creates the deferral table of one run. */
export function createRunDeferrals(options: RunDeferralsOptions = {}): RunDeferrals {
  const clock = options.clock ?? systemClock;
  const deferrals = new Map<string, RunDeferral>();
  return {
    defer(provider, deferOptions = {}) {
      if (typeof provider !== 'string' || provider.length === 0) {
        throw invalid('provider', 'a deferred provider needs a non-empty name');
      }
      const { retryAfterMs, retryAt } = deferOptions;
      if (retryAfterMs !== undefined && !(Number.isFinite(retryAfterMs) && retryAfterMs >= 0)) {
        throw invalid('retryAfterMs', 'retryAfterMs must be a finite number of milliseconds, 0 or more');
      }
      if (retryAt !== undefined && !Number.isFinite(retryAt)) {
        throw invalid('retryAt', 'retryAt must be finite epoch milliseconds');
      }
      const now = clock.now();
      const computed =
        retryAt ?? (retryAfterMs === undefined ? now + DEFAULT_DEFERRAL_RETRY_MS : now + retryAfterMs);
      const previous = deferrals.get(provider);
      const deferral: RunDeferral = {
        provider,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        retryAt: Math.max(computed, previous?.retryAt ?? computed),
        retryInRun: false,
      };
      deferrals.set(provider, deferral);
      return { ...deferral };
    },
    isDeferred(provider) {
      return deferrals.has(provider);
    },
    get(provider) {
      const deferral = deferrals.get(provider);
      return deferral === undefined ? undefined : { ...deferral };
    },
    list() {
      return [...deferrals.values()].map((deferral) => ({ ...deferral }));
    },
  };
}
