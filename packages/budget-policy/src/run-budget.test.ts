import { describe, expect, it } from 'vitest';
import {
  createRunBudget,
  DEFAULT_REQUESTS_PER_RUN,
  MAX_REQUESTS_PER_RUN,
  MIN_REQUESTS_PER_RUN,
} from './run-budget.js';
import { WebToolError } from './web-tool-error.js';

function validationFailure(action: () => unknown): WebToolError {
  try {
    action();
  } catch (error) {
    if (WebToolError.isInstance(error, 'validation_error')) return error;
    throw error;
  }
  throw new Error('expected a validation_error');
}

describe('createRunBudget', () => {
  it('defaults to 4 requests', () => {
    const budget = createRunBudget();
    expect(DEFAULT_REQUESTS_PER_RUN).toBe(4);
    expect(budget.snapshot()).toEqual({ limit: 4, requestsUsed: 0, requestsRemaining: 4 });
  });

  it('accepts the bounds 1 and 20', () => {
    expect(createRunBudget({ limit: MIN_REQUESTS_PER_RUN }).limit).toBe(1);
    expect(createRunBudget({ limit: MAX_REQUESTS_PER_RUN }).limit).toBe(20);
  });

  it.each([0, 21, 2.5, Number.NaN, Number.POSITIVE_INFINITY, -1, '4', null])(
    'rejects the limit %s with a validation_error',
    (limit) => {
      const error = validationFailure(() => createRunBudget({ limit: limit as number }));
      expect(error.details['rule']).toBe('maxRequestsPerRun');
    },
  );

  it('charges one request at a time until the limit, then refuses', () => {
    const budget = createRunBudget({ limit: 2 });
    expect(budget.tryCharge()).toBe(true);
    expect(budget.tryCharge()).toBe(true);
    expect(budget.exhausted).toBe(true);
    expect(budget.tryCharge()).toBe(false);
    expect(budget.requestsUsed).toBe(2);
    expect(budget.requestsRemaining).toBe(0);
  });

  it('charges two requests atomically and never half-charges', () => {
    const budget = createRunBudget({ limit: 3 });
    expect(budget.tryCharge(2)).toBe(true);
    expect(budget.requestsRemaining).toBe(1);
    expect(budget.tryCharge(2)).toBe(false);
    expect(budget.requestsUsed).toBe(2);
    expect(budget.tryCharge(1)).toBe(true);
    expect(budget.exhausted).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects a charge of %s and leaves the counters alone', (count) => {
    const budget = createRunBudget({ limit: 4 });
    validationFailure(() => budget.tryCharge(count));
    expect(budget.requestsUsed).toBe(0);
  });

  it('gives the deterministic exhausted outcome', () => {
    const budget = createRunBudget({ limit: 1 });
    budget.tryCharge();
    expect(budget.exhaustedOutcome()).toEqual({
      code: 'search_budget_exhausted',
      requestsUsed: 1,
      requestsRemaining: 0,
      retryInRun: false,
      nextAction: 'use_available_evidence',
    });
    expect(budget.exhaustedOutcome()).toEqual(budget.exhaustedOutcome());
  });

  it('gives every run a fresh budget', () => {
    const first = createRunBudget({ limit: 1 });
    first.tryCharge();
    expect(createRunBudget({ limit: 1 }).requestsRemaining).toBe(1);
  });

  it('gives back a charge whose request was never sent, and never goes below zero', () => {
    const budget = createRunBudget({ limit: 2 });
    expect(budget.tryCharge()).toBe(true);
    expect(budget.tryCharge()).toBe(true);
    expect(budget.exhausted).toBe(true);
    budget.refund();
    expect(budget.snapshot()).toEqual({ limit: 2, requestsUsed: 1, requestsRemaining: 1 });
    expect(budget.tryCharge()).toBe(true);
    budget.refund();
    budget.refund();
    budget.refund();
    expect(budget.snapshot()).toEqual({ limit: 2, requestsUsed: 0, requestsRemaining: 2 });
  });
});
