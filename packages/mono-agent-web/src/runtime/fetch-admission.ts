import { WebToolError } from '@mono-agent/budget-policy';
import {
  type Coordinator,
  HOST_SCOPE_LIMITS,
  type Permit,
  type ReleaseOptions,
} from '@mono-agent/host-coordination';
import type { AttemptInfo, AttemptOutcome } from '@mono-agent/net';

/** Fetch origins in process mode: two requests in flight per origin, no start spacing. */
export const PROCESS_FETCH_ORIGIN_LIMITS = { kind: 'fetch', concurrency: 2, spacingMs: 0 } as const;

/**
 * Admission hooks for one fetch: every attempt (first try, retry, redirect hop) is admitted for its
 * origin and released with how it ended, so a throttled origin cools down and a retry cannot slip
 * past the cooldown.
 */
export function createFetchAdmission(coordinator: Coordinator) {
  const limits = coordinator.mode === 'host' ? HOST_SCOPE_LIMITS.fetchOrigin : PROCESS_FETCH_ORIGIN_LIMITS;
  const permits = new Map<number, Permit>();
  return {
    async beforeAttempt(attempt: AttemptInfo): Promise<void> {
      const admission = await coordinator.admit(
        {
          scope: `fetch:${attempt.origin}`,
          kind: 'fetch',
          concurrency: limits.concurrency,
          spacingMs: limits.spacingMs,
        },
        { signal: attempt.signal },
      );
      if (admission.status === 'skipped') {
        throw new WebToolError({
          code: 'rate_limited',
          message: `${attempt.origin} is cooling down after throttling; no request was sent`,
          details: { rule: 'origin_cooldown', reason: admission.reason },
          retryAfterMs: admission.retryAfterMs,
          retryAt: admission.retryAt,
        });
      }
      permits.set(attempt.attempt, admission);
    },
    async afterAttempt(attempt: AttemptInfo, outcome: AttemptOutcome): Promise<void> {
      const permit = permits.get(attempt.attempt);
      if (permit === undefined) return;
      permits.delete(attempt.attempt);
      await permit.release(releaseFor(outcome));
    },
    /** Releases whatever an interrupted fetch still holds. */
    async releaseAll(): Promise<void> {
      const held = [...permits.values()];
      permits.clear();
      await Promise.all(held.map((permit) => permit.release({ outcome: 'abandoned' })));
    },
  };
}

/** 429, and 503 with Retry-After, are throttling; other 5xx and transport failures are infrastructure. */
function releaseFor(outcome: AttemptOutcome): ReleaseOptions {
  const throttled =
    outcome.status === 429 ||
    (outcome.status === 503 && outcome.retryAfterMs !== undefined) ||
    outcome.error === 'rate_limited';
  if (throttled) {
    return outcome.retryAfterMs === undefined
      ? { outcome: 'throttled' }
      : { outcome: 'throttled', retryAfterMs: outcome.retryAfterMs };
  }
  if (outcome.status !== undefined)
    return { outcome: outcome.status >= 500 ? 'infrastructure_failure' : 'success' };
  if (outcome.error === 'backend_unavailable' || outcome.error === 'timeout')
    return { outcome: 'infrastructure_failure' };
  return { outcome: 'abandoned' };
}
