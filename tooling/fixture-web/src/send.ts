import type { OutgoingHttpHeaders } from 'node:http';
import type { RouteContext } from './route-context.js';

/** True for the statuses that never have a body, not even a declared length. */
export function bodylessStatus(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** True when the response must not carry a body: HEAD requests and the body-less statuses. */
export function bodyForbidden(context: RouteContext, status: number): boolean {
  return context.request.method === 'HEAD' || bodylessStatus(status);
}

/** Sends a complete response with an exact Content-Length. */
export function send(
  context: RouteContext,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string | Uint8Array = '',
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const { response } = context;
  const forbidden = bodyForbidden(context, status);
  response.writeHead(status, {
    // HEAD still announces the length a GET would get.
    ...(bodylessStatus(status) ? {} : { 'content-length': String(bytes.byteLength) }),
    ...headers,
  });
  response.end(forbidden ? undefined : bytes);
}

/** Sends `value` as JSON. */
export function sendJson(
  context: RouteContext,
  status: number,
  value: unknown,
  headers: OutgoingHttpHeaders = {},
) {
  send(
    context,
    status,
    { 'content-type': 'application/json', ...headers },
    `${JSON.stringify(value, null, 2)}\n`,
  );
}

/** Sends UTF-8 plain text. */
export function sendText(
  context: RouteContext,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders = {},
) {
  send(context, status, { 'content-type': 'text/plain; charset=utf-8', ...headers }, text);
}
