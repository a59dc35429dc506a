import { WebToolError } from './web-tool-error.js';

/** The smallest accepted `maxRequestsPerRun`. */
export const MIN_REQUESTS_PER_RUN = 1;
/** The largest accepted `maxRequestsPerRun`. */
export const MAX_REQUESTS_PER_RUN = 20;
/** The `maxRequestsPerRun` used when none is configured. */
export const DEFAULT_REQUESTS_PER_RUN = 4;

/** Options of {@link createRunBudget}. */
export interface RunBudgetOptions {
  /** Provider search requests allowed in the run: an integer from 1 through 20 (default 4). */
  limit?: number;
}

/** The deterministic outcome of a search attempted after the budget ran out. */
export interface BudgetExhaustedOutcome {
  /** Always `search_budget_exhausted`. */
  code: 'search_budget_exhausted';
  /** Requests charged in this run. */
  requestsUsed: number;
  /** Always 0. */
  requestsRemaining: 0;
  /** Always false: nothing later in this run can add budget. */
  retryInRun: false;
  /** Always `use_available_evidence`. */
  nextAction: 'use_available_evidence';
}

/** A plain view of a budget for outcomes and logs. */
export interface RunBudgetSnapshot {
  /** The configured limit. */
  limit: number;
  /** Requests charged so far. */
  requestsUsed: number;
  /** Requests still allowed. */
  requestsRemaining: number;
}

/**
 * The request budget of one logical run. Only requests that reach a provider are charged; cache hits,
 * in-flight followers, cooldown skips and quota skips never call {@link RunBudget.tryCharge}.
 */
export interface RunBudget {
  /** The configured limit. */
  readonly limit: number;
  /** Requests charged so far. */
  readonly requestsUsed: number;
  /** Requests still allowed. */
  readonly requestsRemaining: number;
  /** Whether no request is left. */
  readonly exhausted: boolean;
  /**
   * Charges `count` requests (default 1) all at once, or nothing when fewer remain. Check the result
   * before sending: false means the request must not be sent.
   */
  tryCharge(count?: number): boolean;
  /**
   * Gives back one charged request that was never sent after all: the network policy refused its
   * destination only once DNS had answered. Never goes below zero used.
   */
  refund(): void;
  /** The outcome to return instead of sending a request once the budget is spent. */
  exhaustedOutcome(): BudgetExhaustedOutcome;
  /** A plain copy of the counters. */
  snapshot(): RunBudgetSnapshot;
}

function validateLimit(limit: unknown): number {
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < MIN_REQUESTS_PER_RUN ||
    limit > MAX_REQUESTS_PER_RUN
  ) {
    throw new WebToolError({
      code: 'validation_error',
      message: `maxRequestsPerRun must be an integer from ${MIN_REQUESTS_PER_RUN} through ${MAX_REQUESTS_PER_RUN}`,
      details: { rule: 'maxRequestsPerRun', received: typeof limit === 'number' ? limit : typeof limit },
    });
  }
  return limit;
}

/** Creates the request budget of one run; each run (and each child agent) gets a fresh one. */
export function createRunBudget(options: RunBudgetOptions = {}): RunBudget {
  const limit = validateLimit(options.limit === undefined ? DEFAULT_REQUESTS_PER_RUN : options.limit);
  let used = 0;
  return {
    limit,
    get requestsUsed() {
      return used;
    },
    get requestsRemaining() {
      return limit - used;
    },
    get exhausted() {
      return used >= limit;
    },
    tryCharge(count = 1) {
      // A charge of 2 (the Ollama compatibility retry) reaches the provider twice, so it is all or nothing.
      if (!Number.isInteger(count) || count < 1) {
        throw new WebToolError({
          code: 'validation_error',
          message: 'a budget charge must be a positive integer',
          details: { rule: 'chargeCount', received: count },
        });
      }
      if (used + count > limit) return false;
      used += count;
      return true;
    },
    refund() {
      if (used > 0) used -= 1;
    },
    exhaustedOutcome() {
      return {
        code: 'search_budget_exhausted',
        requestsUsed: used,
        requestsRemaining: 0,
        retryInRun: false,
        nextAction: 'use_available_evidence',
      };
    },
    snapshot() {
      return { limit, requestsUsed: used, requestsRemaining: limit - used };
    },
  };
}
