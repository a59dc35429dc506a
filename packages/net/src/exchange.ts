// One exchange over the wire: the request sent, the response's headers taken, its body read within its
// caps (or dropped, for a redirect to follow), and the final exchange turned into the caller's response.
import type { Agent } from 'undici';
import type { Deadline } from './deadline.js';
import { ACCEPT_ENCODING } from './decode-stream.js';
import type { PreparedRequest } from './prepare-request.js';
import { discard, readBody } from './read-body.js';
import type { HttpResponse } from './request-options.js';
import { parseRetryAfter } from './retry-policy.js';

/** One request and its response, body read. */
export interface Exchange {
  readonly url: URL;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
  readonly wireBytes: number;
  readonly location: string | undefined;
}

/** Sends one request to `target` and reads its response. */
export async function exchangeOnce(
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

/** The caller's response, made of the final exchange. */
export function toResponse(
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
