// The request guard: a caller's options checked and settled, with defaults and bounds, before anything
// goes out.
import { WebToolError } from '@mono-agent/budget-policy';
import { DEFAULT_DEADLINE_MS, MAX_DEADLINE_MS } from './deadline.js';
import { compilePolicy, type NetworkPolicy } from './network-policy.js';
import { MAX_DECODED_BYTES, MAX_WIRE_BYTES } from './read-body.js';
import type { HttpRequestOptions, RedirectMode, SleepFunction } from './request-options.js';
import { MAX_RETRIES } from './retry-policy.js';
import {
  MAX_HEADER_VALUE_LENGTH,
  urlProblem,
  validateHeaderValue,
  validateRequestHeaders,
  validateRequestUrl,
} from './validate-request.js';

/** A request's options once checked: every field settled, defaults filled in. */
export interface PreparedRequest {
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

const defaultSleep: SleepFunction = async (ms, signal) => {
  await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal });
};

/** Checks the caller's `url` and `options`; throws `validation_error` naming the field at fault. */
export function prepareRequest(url: string | URL, options: HttpRequestOptions): PreparedRequest {
  if (typeof options !== 'object' || options === null)
    throw invalid('options with a network policy are required', 'options');
  if (options.policy === undefined) throw invalid('a network policy is required', 'policy');
  compilePolicy(options.policy);
  const target = validateRequestUrl(url);
  const method = options.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw invalid('method must be GET or POST', 'method');
  const body = checkBody(options.body, method);
  const contentType = checkContentType(options.contentType, body);
  const referer = checkReferer(options.referer);
  const authorization = checkAuthorization(options.authorization, options.redirect);
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

/** The body, when there is one: a string or bytes, and only with POST. */
function checkBody(body: unknown, method: 'GET' | 'POST'): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (method !== 'POST') throw invalid('a request body needs method POST', 'body');
  if (typeof body !== 'string' && !(body instanceof Uint8Array))
    throw invalid('body must be a string or Uint8Array', 'body');
  return body;
}

/** The Content-Type, when given: it describes a body, so there must be one. */
function checkContentType(
  contentType: string | undefined,
  body: string | Uint8Array | undefined,
): string | undefined {
  if (contentType === undefined) return undefined;
  if (body === undefined) throw invalid('contentType describes a body, and there is none', 'contentType');
  return validateHeaderValue(contentType, 'Content-Type');
}

/** The Referer, when given: an absolute http(s) URL without credentials, sent without its fragment. */
function checkReferer(referer: unknown): string | undefined {
  if (referer === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = typeof referer === 'string' ? new URL(referer) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || urlProblem(parsed) !== undefined) {
    throw invalid('referer must be an absolute http or https URL without credentials', 'referer');
  }
  parsed.hash = '';
  return parsed.href;
}

/**
 * The bearer token, when given: visible ASCII within the header bound, and never with redirects
 * followed, since the credential must not travel to another origin.
 */
function checkAuthorization(authorization: unknown, redirect: unknown): string | undefined {
  if (authorization === undefined) return undefined;
  if (typeof authorization !== 'string' || !/^[\x21-\x7e]+$/.test(authorization)) {
    throw invalid('authorization must be a bearer token of visible ASCII characters', 'authorization');
  }
  if (authorization.length > MAX_HEADER_VALUE_LENGTH) {
    throw invalid(`authorization is longer than ${MAX_HEADER_VALUE_LENGTH} characters`, 'authorization');
  }
  if (redirect === 'follow') {
    throw invalid(
      'authorization cannot be combined with redirect "follow": the credential must not travel',
      'redirect',
    );
  }
  return authorization;
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
