export { FAILURE_CODES, type FailureCode, isFailureCode } from './failure-code.js';
export {
  type BudgetExhaustedOutcome,
  createRunBudget,
  DEFAULT_REQUESTS_PER_RUN,
  MAX_REQUESTS_PER_RUN,
  MIN_REQUESTS_PER_RUN,
  type RunBudget,
  type RunBudgetOptions,
  type RunBudgetSnapshot,
} from './run-budget.js';
export {
  createRunDeferrals,
  DEFAULT_DEFERRAL_RETRY_MS,
  type DeferOptions,
  type DeferralClock,
  type RunDeferral,
  type RunDeferrals,
  type RunDeferralsOptions,
} from './run-deferrals.js';
export { WebToolError, type WebToolErrorOptions } from './web-tool-error.js';
