import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { Agent } from 'undici';
import { checkHost } from './check-address.js';
import { DEFAULT_DEADLINE_MS, type Deadline, MAX_DEADLINE_MS, startDeadline } from './deadline.js';
import { ACCEPT_ENCODING } from './decode-stream.js';
import { createGuardedConnector, type LookupFunction, policyDenied } from './guarded-connector.js';
import { loadUndici, type UndiciParts } from './load-undici.js';
import { compilePolicy, type NetworkPolicy } from './network-policy.js';
import { discard, MAX_DECODED_BYTES, MAX_WIRE_BYTES, readBody } from './read-body.js';
import {
  backoffDelay,
  isRetryableError,
  isRetryableStatus,
  MAX_RETRIES,
  MAX_RETRY_AFTER_WAIT_MS,
  parseRetryAfter,
} from './retry-policy.js';
import {
  MAX_HEADER_VALUE_LENGTH,
  urlProblem,
  validateHeaderValue,
  validateRequestHeaders,
  validateRequestUrl,
} from './validate-request.js';

/** The most redirect hops followed; the next redirect is refused. */
export const MAX_REDIRECTS = 5;

/** What to do with a 3xx response that has a Location: follow it, fail, or return it. */
export type RedirectMode = 'follow' | 'error' | 'manual';

/** Waits `ms`, rejecting when `signal` fires. */
export type SleepFunction = (ms: number, signal: AbortSignal) => Promise<void>;

/** One attempt about to be made, as an admission hook sees it. */
export interface AttemptInfo {
  /** The origin the attempt goes to (`https://example.com`), the admission scope. */
  readonly origin: string;
  /** The attempt number within this request, from 1, counting retries and redirect hops. */
  readonly attempt: number;
  /** Fires at the request's deadline or cancellation; a waiting hook should give up then. */
  readonly signal: AbortSignal;
}

/** How an attempt ended, for an admission hook (cooldowns read `status` and `retryAfterMs`). */
export interface AttemptOutcome {
  /** The HTTP status, when a response arrived. */
  readonly status?: number;
  /** The server's Retry-After in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;
  /** The failure category, when no response arrived or its body failed. */
  readonly error?: FailureCode;
}

/** Options of {@link httpRequest}. */
export interface HttpRequestOptions {
  /** The network policy; checked on the connected address of every attempt and hop. */
  readonly policy: NetworkPolicy;
  /** The method; a body needs POST. Default GET. */
  readonly method?: 'GET' | 'POST';
  /** Request headers; only Accept, Accept-Language, Range and User-Agent are allowed. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body (POST only). */
  readonly body?: string | Uint8Array;
  /** The body's Content-Type; settable only here, never through `headers`. */
  readonly contentType?: string;
  /**
   * The page the request comes from, sent as `Referer`: an absolute http(s) URL without credentials.
   * Settable only here by the calling code (a search engine's own form page), never through `headers`.
   */
  readonly referer?: string;
  /** A bearer token sent as `Authorization: Bearer …` to the request's origin only; redirects are then refused. */
  readonly authorization?: string;
  /** Redirect handling; default `follow` (at most {@link MAX_REDIRECTS}), or `error` when `authorization` is set. */
  readonly redirect?: RedirectMode;
  /** The one deadline for everything: DNS, connects, redirects, retries, waits, bodies. Default 45 s. */
  readonly deadlineMs?: number;
  /** Cancels the request at any point; sockets are closed. */
  readonly signal?: AbortSignal;
  /** Cap on response body bytes on the wire; default and maximum {@link MAX_WIRE_BYTES}. */
  readonly maxWireBytes?: number;
  /** Cap on decoded response body bytes; default and maximum {@link MAX_DECODED_BYTES}. */
  readonly maxDecodedBytes?: number;
  /** Retries after transient failures and 408/425/429/5xx; default and maximum {@link MAX_RETRIES}. */
  readonly retries?: number;
  /** Called before every attempt (first try, retry, redirect hop); may wait for admission or throw. */
  readonly beforeAttempt?: (attempt: AttemptInfo) => Promise<void> | void;
  /** Called after every attempt whose `beforeAttempt` returned, with how it ended. */
  readonly afterAttempt?: (attempt: AttemptInfo, outcome: AttemptOutcome) => Promise<void> | void;
  /** Epoch milliseconds; injectable for tests. Default `Date.now`. */
  readonly clock?: () => number;
  /** Waits between retries; injectable for tests. */
  readonly sleep?: SleepFunction;
  /**
   * Called as a response body's bytes arrive on the wire, with the total so far and the declared
   * Content-Length when there is one; for progress displays, never for decisions.
   */
  readonly onBodyBytes?: (received: number, declared: number | undefined) => void;
  /** The DNS resolver; injectable for tests. */
  readonly lookup?: LookupFunction;
  /** Extra trusted certificate authorities for HTTPS (a private CA, a test certificate). */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
}

/** A response that arrived; any status, after the retry policy ran. */
export interface HttpResponse {
  /** The final URL, after redirects. */
  readonly url: string;
  /** The HTTP status. */
  readonly status: number;
  /** The standard reason phrase of the status. */
  readonly statusText: string;
  /** Response headers with lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The decoded body. */
  readonly body: Uint8Array;
  /** Redirect hops followed. */
  readonly redirects: number;
  /** Attempts made, counting retries and redirect hops. */
  readonly attempts: number;
  /** Bytes of the final response's body as they came over the wire. */
  readonly wireBytes: number;
  /** For a non-2xx response with Retry-After: how long to wait before trying again. */
  readonly retryAfterMs?: number;
  /** For a non-2xx response with Retry-After: the epoch milliseconds after which trying again can help. */
  readonly retryAt?: number;
}

interface PreparedRequest {
  readonly url: URL;
  readonly policy: NetworkPolicy;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | undefined;
  readonly contentType: string | undefined;
  readonly referer: string | undefined;
  readonly authorization: string | undefined;
  readonly redirect: RedirectMode;
  readonly deadlineMs: number;
  readonly maxWireBytes: number;
  readonly maxDecodedBytes: number;
  readonly retries: number;
  readonly clock: () => number;
  readonly sleep: SleepFunction;
  readonly onBodyBytes: ((received: number, declared: number | undefined) => void) | undefined;
}

interface Exchange {
  readonly url: URL;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
  readonly wireBytes: number;
  readonly location: string | undefined;
}

interface Progress {
  attempts: number;
}

const defaultSleep: SleepFunction = async (ms, signal) => {
  await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal });
};

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

async function followRedirects(
  prepared: PreparedRequest,
  options: HttpRequestOptions,
  deadline: Deadline,
  agent: Agent,
  progress: Progress,
): Promise<HttpResponse> {
  let target = prepared.url;
  let method = prepared.method;
  let body = prepared.body;
  let redirects = 0;
  for (;;) {
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    const decision = checkHost(prepared.policy, { host: target.hostname, port });
    if (decision !== undefined && !decision.allowed) {
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
      throw policyDenied(decision, host, undefined, port);
    }
    const exchange = await sendWithRetries(
      target,
      method,
      body,
      prepared,
      options,
      deadline,
      agent,
      progress,
    );
    if (exchange.location === undefined) return toResponse(exchange, redirects, progress.attempts, prepared);
    if (prepared.redirect === 'error') {
      throw redirectRefused(
        `the server redirected (HTTP ${exchange.status}) and redirects are refused here`,
        { status: exchange.status, ...reportableLocation(exchange.location, exchange.url) },
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw redirectRefused(`more than ${MAX_REDIRECTS} redirects`, {
        status: exchange.status,
        limit: MAX_REDIRECTS,
      });
    }
    target = redirectTarget(exchange);
    redirects += 1;
    // Browsers turn these into GETs without a body; 307 and 308 keep method and body.
    if (
      exchange.status === 303 ||
      ((exchange.status === 301 || exchange.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
    }
  }
}

/** The Location for error details, as sent, unless it carries credentials that must not be echoed. */
function reportableLocation(location: string, base: URL): { location?: string } {
  try {
    const parsed = new URL(location, base);
    if (parsed.username !== '' || parsed.password !== '') return {};
  } catch {
    return {};
  }
  return { location };
}

function redirectTarget(exchange: Exchange): URL {
  let next: URL;
  try {
    next = new URL(exchange.location ?? '', exchange.url);
  } catch (error) {
    throw redirectRefused('the redirect Location cannot be parsed', { status: exchange.status }, error);
  }
  const problem = urlProblem(next);
  if (problem !== undefined) {
    throw redirectRefused(`refused redirect: ${problem}`, {
      status: exchange.status,
      ...reportableLocation(next.href, exchange.url),
    });
  }
  next.hash = '';
  return next;
}

async function sendWithRetries(
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

async function exchangeOnce(
  target: URL,
  method: 'GET' | 'POST',
  body: string | Uint8Array | undefined,
  prepared: PreparedRequest,
  deadline: Deadline,
  agent: Agent,
): Promise<Exchange> {
  const headers: Record<string, string> = { ...prepared.headers, 'accept-encoding': ACCEPT_ENCODING };
  if (body !== undefined && prepared.contentType !== undefined)
    headers['content-type'] = prepared.contentType;
  if (prepared.referer !== undefined) headers.referer = prepared.referer;
  // The credential belongs to the first URL's origin; nothing else ever sees it.
  if (prepared.authorization !== undefined && target.origin === prepared.url.origin) {
    headers.authorization = `Bearer ${prepared.authorization}`;
  }
  const response = await agent.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: deadline.signal,
  });
  const responseHeaders = flattenHeaders(response.headers);
  const location = isRedirectStatus(response.statusCode) ? responseHeaders.location : undefined;
  if (location !== undefined && prepared.redirect !== 'manual') {
    // The body of a redirect is never used; dropping it also closes its connection.
    discard(response.body);
    return {
      url: target,
      status: response.statusCode,
      headers: responseHeaders,
      body: new Uint8Array(),
      wireBytes: 0,
      location,
    };
  }
  const read = await readBody(response.body, {
    ...(responseHeaders['content-encoding'] === undefined
      ? {}
      : { contentEncoding: responseHeaders['content-encoding'] }),
    ...(responseHeaders['content-length'] === undefined
      ? {}
      : { contentLength: responseHeaders['content-length'] }),
    maxWireBytes: prepared.maxWireBytes,
    maxDecodedBytes: prepared.maxDecodedBytes,
    signal: deadline.signal,
    ...(prepared.onBodyBytes === undefined ? {} : { onBytes: prepared.onBodyBytes }),
  });
  return {
    url: target,
    status: response.statusCode,
    headers: responseHeaders,
    body: read.body,
    wireBytes: read.wireBytes,
    location: undefined,
  };
}

function toResponse(
  exchange: Exchange,
  redirects: number,
  attempts: number,
  prepared: PreparedRequest,
): HttpResponse {
  const now = prepared.clock();
  const retryAfterMs =
    exchange.status >= 300 ? parseRetryAfter(exchange.headers['retry-after'], now) : undefined;
  return {
    url: exchange.url.href,
    status: exchange.status,
    statusText: process.getBuiltinModule('node:http').STATUS_CODES[exchange.status] ?? '',
    headers: exchange.headers,
    body: exchange.body,
    redirects,
    attempts,
    wireBytes: exchange.wireBytes,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs, retryAt: now + retryAfterMs }),
  };
}

function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function prepareRequest(url: string | URL, options: HttpRequestOptions): PreparedRequest {
  if (typeof options !== 'object' || options === null)
    throw invalid('options with a network policy are required', 'options');
  if (options.policy === undefined) throw invalid('a network policy is required', 'policy');
  compilePolicy(options.policy);
  const target = validateRequestUrl(url);
  const method = options.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw invalid('method must be GET or POST', 'method');
  const body = options.body;
  if (body !== undefined) {
    if (method !== 'POST') throw invalid('a request body needs method POST', 'body');
    if (typeof body !== 'string' && !(body instanceof Uint8Array))
      throw invalid('body must be a string or Uint8Array', 'body');
  }
  let contentType: string | undefined;
  if (options.contentType !== undefined) {
    if (body === undefined) throw invalid('contentType describes a body, and there is none', 'contentType');
    contentType = validateHeaderValue(options.contentType, 'Content-Type');
  }
  let referer: string | undefined;
  if (options.referer !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = typeof options.referer === 'string' ? new URL(options.referer) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || urlProblem(parsed) !== undefined) {
      throw invalid('referer must be an absolute http or https URL without credentials', 'referer');
    }
    parsed.hash = '';
    referer = parsed.href;
  }
  const authorization = options.authorization;
  if (authorization !== undefined) {
    if (typeof authorization !== 'string' || !/^[\x21-\x7e]+$/.test(authorization)) {
      throw invalid('authorization must be a bearer token of visible ASCII characters', 'authorization');
    }
    if (authorization.length > MAX_HEADER_VALUE_LENGTH) {
      throw invalid(`authorization is longer than ${MAX_HEADER_VALUE_LENGTH} characters`, 'authorization');
    }
    if (options.redirect === 'follow') {
      throw invalid(
        'authorization cannot be combined with redirect "follow": the credential must not travel',
        'redirect',
      );
    }
  }
  const redirect = options.redirect ?? (authorization === undefined ? 'follow' : 'error');
  if (!['follow', 'error', 'manual'].includes(redirect))
    throw invalid('redirect must be follow, error or manual', 'redirect');
  return {
    url: target,
    policy: options.policy,
    method,
    headers: validateRequestHeaders(options.headers),
    body,
    contentType,
    referer,
    authorization,
    redirect,
    deadlineMs: boundedNumber(options.deadlineMs, 'deadlineMs', 1, MAX_DEADLINE_MS, DEFAULT_DEADLINE_MS),
    maxWireBytes: boundedInteger(options.maxWireBytes, 'maxWireBytes', 1, MAX_WIRE_BYTES, MAX_WIRE_BYTES),
    maxDecodedBytes: boundedInteger(
      options.maxDecodedBytes,
      'maxDecodedBytes',
      1,
      MAX_DECODED_BYTES,
      MAX_DECODED_BYTES,
    ),
    retries: boundedInteger(options.retries, 'retries', 0, MAX_RETRIES, MAX_RETRIES),
    clock: options.clock ?? Date.now,
    sleep: options.sleep ?? defaultSleep,
    onBodyBytes: options.onBodyBytes,
  };
}

function boundedNumber(
  value: unknown,
  field: string,
  minimum: number,
  maximum: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= minimum && value <= maximum)) {
    throw invalid(`${field} must be a number from ${minimum} to ${maximum}`, field);
  }
  return value;
}

function boundedInteger(
  value: unknown,
  field: string,
  minimum: number,
  maximum: number,
  fallback: number,
): number {
  const number = boundedNumber(value, field, minimum, maximum, fallback);
  if (!Number.isInteger(number)) throw invalid(`${field} must be a whole number`, field);
  return number;
}

function invalid(message: string, field: string): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details: { field } });
}

function redirectRefused(message: string, details: Record<string, unknown>, cause?: unknown): WebToolError {
  return new WebToolError({ code: 'redirect_refused', message, details, cause });
}

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
