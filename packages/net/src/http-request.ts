import { WebToolError } from '@mono-agent/budget-policy';
import { startDeadline } from './deadline.js';
import { followRedirects } from './follow-redirects.js';
import { createGuardedConnector } from './guarded-connector.js';
import { loadUndici, type UndiciParts } from './load-undici.js';
import { prepareRequest } from './prepare-request.js';
import type { HttpRequestOptions, HttpResponse } from './request-options.js';
import type { Progress } from './send-with-retries.js';

export { MAX_REDIRECTS } from './follow-redirects.js';
export type {
  AttemptInfo,
  AttemptOutcome,
  HttpRequestOptions,
  HttpResponse,
  RedirectMode,
  SleepFunction,
} from './request-options.js';

/**
 * Sends one HTTP(S) request through the network policy: every connection (first request, retries,
 * redirect hops) goes to an address the policy admits, the body is capped on the wire and after
 * decoding while it streams, transient failures are retried, and one deadline bounds it all. Any
 * status comes back as a response; failures without a response throw a {@link WebToolError}.
 */
export async function httpRequest(url: string | URL, options: HttpRequestOptions): Promise<HttpResponse> {
  const prepared = prepareRequest(url, options);
  const deadline = startDeadline(prepared.deadlineMs, options.signal, prepared.clock);
  const caList = options.ca === undefined ? undefined : [options.ca].flat().map((ca) => Buffer.from(ca));
  let undici: UndiciParts;
  try {
    undici = await loadUndici();
  } catch (error) {
    deadline.dispose();
    throw error;
  }
  const agent = new undici.Agent({
    connect: createGuardedConnector({
      policy: prepared.policy,
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      ...(caList === undefined ? {} : { tls: { ca: caList } }),
    }),
    headersTimeout: prepared.deadlineMs,
    bodyTimeout: prepared.deadlineMs,
  });
  const progress: Progress = { attempts: 0 };
  try {
    return await followRedirects(prepared, options, deadline, agent, progress);
  } catch (error) {
    throw toWebToolError(deadline.explain(error), progress.attempts);
  } finally {
    deadline.dispose();
    // Closes every socket this request opened, whatever state it was left in.
    await agent.destroy().catch(() => undefined);
  }
}

/**
 * A failure without a response as the caller's error: a WebToolError as it is, anything else as
 * `backend_unavailable`.
 */
function toWebToolError(error: unknown, attempts: number): WebToolError {
  if (WebToolError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = typeof code === 'string' ? code : undefined;
  return new WebToolError({
    code: 'backend_unavailable',
    message: `the request failed${causeCode === undefined ? '' : ` (${causeCode})`} after ${attempts} attempt(s)`,
    details: { attempts, ...(causeCode === undefined ? {} : { cause: causeCode }) },
    cause: error,
  });
}
