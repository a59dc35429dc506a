// The attempts at one URL: each announced to the admission hooks, and transient failures retried after
// a backoff or the server's Retry-After, while the deadline allows.
import { WebToolError } from '@mono-agent/budget-policy';
import type { Agent } from 'undici';
import type { Deadline } from './deadline.js';
import { type Exchange, exchangeOnce } from './exchange.js';
import type { PreparedRequest } from './prepare-request.js';
import type { AttemptInfo, AttemptOutcome, HttpRequestOptions } from './request-options.js';
import {
  backoffDelay,
  isRetryableError,
  isRetryableStatus,
  MAX_RETRY_AFTER_WAIT_MS,
  parseRetryAfter,
} from './retry-policy.js';

/** What a request has done so far, counted across redirect hops. */
export interface Progress {
  attempts: number;
}

/**
 * Sends to `target` until an exchange is final: a response that is not retried, or a failure that is
 * thrown. Retries go to the same URL; every attempt counts in `progress`.
 */
export async function sendWithRetries(
  target: URL,
  method: 'GET' | 'POST',
  body: string | Uint8Array | undefined,
  prepared: PreparedRequest,
  options: HttpRequestOptions,
  deadline: Deadline,
  agent: Agent,
  progress: Progress,
): Promise<Exchange> {
  for (let retry = 0; ; retry += 1) {
    const result = await attemptOnce(target, method, body, prepared, options, deadline, agent, progress);
    const canRetry = retry < prepared.retries && !deadline.signal.aborted;
    if (!result.ok) {
      const wait = backoffDelay(retry);
      if (!canRetry || !isRetryableError(result.error) || wait >= deadline.remaining()) throw result.error;
      await prepared.sleep(wait, deadline.signal);
      continue;
    }
    const exchange = result.exchange;
    if (!canRetry || !isRetryableStatus(exchange.status)) return exchange;
    const retryAfterMs = parseRetryAfter(exchange.headers['retry-after'], prepared.clock());
    // A long Retry-After is reported to the caller rather than slept through.
    if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_WAIT_MS) return exchange;
    const wait = retryAfterMs ?? backoffDelay(retry);
    if (wait >= deadline.remaining()) return exchange;
    await prepared.sleep(wait, deadline.signal);
  }
}

type AttemptResult =
  | { readonly ok: true; readonly exchange: Exchange }
  | { readonly ok: false; readonly error: unknown };

/** Makes one attempt between the admission hooks; a failure that is not transport trouble is thrown. */
async function attemptOnce(
  target: URL,
  method: 'GET' | 'POST',
  body: string | Uint8Array | undefined,
  prepared: PreparedRequest,
  options: HttpRequestOptions,
  deadline: Deadline,
  agent: Agent,
  progress: Progress,
): Promise<AttemptResult> {
  progress.attempts += 1;
  const info: AttemptInfo = { origin: target.origin, attempt: progress.attempts, signal: deadline.signal };
  // A hook handed an already-fired signal would wait for an abort event that never comes.
  deadline.signal.throwIfAborted();
  await options.beforeAttempt?.(info);
  let outcome: AttemptOutcome;
  let result: AttemptResult;
  try {
    deadline.signal.throwIfAborted();
    const exchange = await exchangeOnce(target, method, body, prepared, deadline, agent);
    const retryAfterMs = parseRetryAfter(exchange.headers['retry-after'], prepared.clock());
    outcome = { status: exchange.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    result = { ok: true, exchange };
  } catch (error) {
    const explained = deadline.explain(error);
    outcome = { error: WebToolError.isInstance(explained) ? explained.code : 'backend_unavailable' };
    result = { ok: false, error: explained };
  }
  await options.afterAttempt?.(info, outcome);
  // Failures that are not transport trouble (policy, size, decoding) end the request here.
  if (!result.ok && WebToolError.isInstance(result.error)) throw result.error;
  return result;
}
