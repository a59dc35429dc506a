import type { RunBudget, RunDeferrals } from '@mono-agent/budget-policy';

/** What one run lends a search. */
export interface SearchRunContext {
  /** The run's request budget. */
  budget: RunBudget;
  /** The run's deferred providers. */
  deferrals: RunDeferrals;
  /** Cancels the search. */
  signal?: AbortSignal;
}
