import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import {
  type AdmissionSkip,
  type CooldownCause,
  type Coordinator,
  HOST_SCOPE_LIMITS,
  type Permit,
  type ReleaseOptions,
} from '@mono-agent/host-coordination';
import type { AttemptInfo, AttemptOutcome } from '@mono-agent/net';

/**
 * Fetch origins in process mode: two requests in flight per origin, no start spacing. Process mode
 * records no verdicts, so it never opens an origin cooldown: the retries of one fetch are bounded by
 * the retry policy and the deadline alone.
 */
export const PROCESS_FETCH_ORIGIN_LIMITS = { kind: 'fetch', concurrency: 2, spacingMs: 0 } as const;

/**
 * A cooldown this close to its end is waited out rather than reported: a retry that slept a short
 * Retry-After can wake a few milliseconds before the cooldown that Retry-After opened ends.
 */
export const COOLDOWN_END_WAIT_MS = 250;

/** A cooldown as a fetch failure reports it: what opened it and when it ends. */
export interface OriginCooldown {
  /** Throttling (429, 503 with Retry-After) or repeated infrastructure failures; `unknown` for old state. */
  cause: CooldownCause | 'unknown';
  /** Epoch milliseconds the cooldown ends. */
  until: number;
}

/** The admission hooks of one fetch, handed to `fetchDocument`. */
export interface FetchAdmission {
  /** Admits one attempt for its origin; throws when the origin is cooling down (host mode). */
  beforeAttempt(attempt: AttemptInfo): Promise<void>;
  /** Releases the attempt's permit with how it ended. */
  afterAttempt(attempt: AttemptInfo, outcome: AttemptOutcome): Promise<void>;
  /** Releases whatever an interrupted fetch still holds. */
  releaseAll(): Promise<void>;
}

interface OriginAnswer {
  outcome: AttemptOutcome;
  cooldown: OriginCooldown | undefined;
}

/**
 * Admission hooks for one fetch: every attempt (first try, retry, redirect hop) is admitted for its
 * origin. In host mode each attempt is released with its verdict, so throttling or repeated failures
 * cool the origin down for every opted-in process and a retry cannot slip past the cooldown; in
 * process mode only the concurrency bound applies.
 */
export function createFetchAdmission(coordinator: Coordinator): FetchAdmission {
  const hostMode = coordinator.mode === 'host';
  const limits = hostMode ? HOST_SCOPE_LIMITS.fetchOrigin : PROCESS_FETCH_ORIGIN_LIMITS;
  const permits = new Map<number, Permit>();
  const answers = new Map<string, OriginAnswer>();
  return {
    async beforeAttempt(attempt) {
      const request = {
        scope: `fetch:${attempt.origin}`,
        kind: 'fetch',
        concurrency: limits.concurrency,
        spacingMs: limits.spacingMs,
      } as const;
      let admission = await coordinator.admit(request, { signal: attempt.signal });
      if (
        admission.status === 'skipped' &&
        admission.reason === 'cooldown' &&
        admission.retryAfterMs <= COOLDOWN_END_WAIT_MS
      ) {
        await process
          .getBuiltinModule('node:timers/promises')
          .setTimeout(admission.retryAfterMs + 1, undefined, { signal: attempt.signal });
        admission = await coordinator.admit(request, { signal: attempt.signal });
      }
      if (admission.status === 'skipped')
        throw skipError(attempt.origin, admission, answers.get(attempt.origin));
      permits.set(attempt.attempt, admission);
    },
    async afterAttempt(attempt, outcome) {
      const permit = permits.get(attempt.attempt);
      if (permit === undefined) return;
      permits.delete(attempt.attempt);
      const release = hostMode ? verdictFor(outcome) : ({ outcome: 'abandoned' } as const);
      const result = await permit.release(release);
      answers.set(attempt.origin, {
        outcome,
        cooldown:
          result.coolingDown && result.retryAt !== undefined
            ? { cause: result.cause ?? 'unknown', until: result.retryAt }
            : undefined,
      });
    },
    async releaseAll() {
      const held = [...permits.values()];
      permits.clear();
      await Promise.all(held.map((permit) => permit.release({ outcome: 'abandoned' })));
    },
  };
}

/** 429, and 503 with Retry-After, are throttling; other 5xx and transport failures are infrastructure. */
function verdictFor(outcome: AttemptOutcome): ReleaseOptions {
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

const CAUSE_WORDS: Record<OriginCooldown['cause'], string> = {
  throttled: 'throttling',
  infrastructure_failure: 'repeated failures',
  unknown: 'throttling or repeated failures',
};

/**
 * The failure for a refused attempt. When this fetch's own earlier answer from the origin opened the
 * cooldown (a retry after a 429 in host mode), the failure is that answer, with the cooldown attached;
 * otherwise it is a `cooldown` skip naming its cause and end.
 */
function skipError(origin: string, skip: AdmissionSkip, previous: OriginAnswer | undefined): WebToolError {
  const cooldown: OriginCooldown = {
    cause: skip.cause ?? previous?.cooldown?.cause ?? 'unknown',
    until: skip.retryAt,
  };
  const until = new Date(cooldown.until).toISOString();
  const hints = { retryAt: skip.retryAt, retryAfterMs: skip.retryAfterMs };
  if (previous?.cooldown !== undefined) {
    const { status, error } = previous.outcome;
    const code: FailureCode =
      status === 429
        ? 'rate_limited'
        : status !== undefined
          ? 'http_status'
          : (error ?? 'backend_unavailable');
    const answer =
      status === undefined ? `the request failed (${code})` : `the server answered HTTP ${status}`;
    return new WebToolError({
      code,
      message: `${answer}; ${origin} now cools down after ${CAUSE_WORDS[cooldown.cause]} until ${until}, so the retry was not sent`,
      details: { ...(status === undefined ? {} : { status }), cooldown },
      ...hints,
    });
  }
  return new WebToolError({
    code: 'cooldown',
    message: `${origin} is cooling down after ${CAUSE_WORDS[cooldown.cause]} until ${until}${skip.reason === 'probe_in_flight' ? ' (another request is probing it)' : ''}; no request was sent`,
    details: { rule: 'origin_cooldown', reason: skip.reason, cooldown },
    ...hints,
  });
}
