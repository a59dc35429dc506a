import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchPath } from './match-path.js';
import type { MutableRecordedRequest, RequestLog } from './request-log.js';
import { BadRequestError, type FixtureState, type Route, type RouteContext } from './route-context.js';
import type { ScenarioRegistry } from './scenarios.js';
import { sendJson } from './send.js';

/** What the request listener shares with the rest of the fixture. */
export interface RequestHandlerDependencies {
  /** Where every request is recorded. */
  readonly log: RequestLog;
  /** Per-test routes, consulted first. */
  readonly scenarios: ScenarioRegistry;
  /** The built-in routes, consulted in order. */
  readonly routes: readonly Route[];
  /** Per-server state handed to routes. */
  readonly state: FixtureState;
  /** Abort controllers of requests still being answered, so closing the fixture can stop them. */
  readonly inFlight: Set<AbortController>;
  /** The largest request body accepted; larger ones get a 413. */
  readonly maxRequestBodyBytes: number;
}

/** The `request` listener shared by every loopback server of one fixture. */
export function createRequestListener(
  dependencies: RequestHandlerDependencies,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void handleRequest(dependencies, request, response);
  };
}

async function handleRequest(
  dependencies: RequestHandlerDependencies,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let url: URL;
  let badHost = false;
  try {
    url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
  } catch {
    url = new URL(request.url?.startsWith('/') ? request.url : '/', 'http://invalid-host.invalid');
    badHost = true;
  }
  const record = dependencies.log.record(request, response, url);
  const controller = new AbortController();
  dependencies.inFlight.add(controller);
  response.once('close', () => {
    dependencies.inFlight.delete(controller);
    controller.abort();
  });

  const context = (params: Record<string, string>, body: Buffer): RouteContext => ({
    request,
    response,
    url,
    params,
    body,
    signal: controller.signal,
    record,
    state: dependencies.state,
  });

  try {
    if (badHost) throw new BadRequestError('the Host header is not a valid host');
    const body = await readBody(request, dependencies.maxRequestBodyBytes);
    record.body = body;

    const scenario = dependencies.scenarios.match(url.pathname);
    if (scenario) {
      record.route = 'scenario';
      await scenario(request, response, { url, body, signal: controller.signal, record });
      return;
    }
    for (const route of dependencies.routes) {
      const params = matchPath(route.pattern, url.pathname);
      if (params) {
        record.route = route.pattern;
        await route.handle(context(params, body));
        return;
      }
    }
    record.route = 'not-found';
    sendJson(context({}, body), 404, {
      error: 'not found',
      path: url.pathname,
      hint: 'GET / lists the pages',
    });
  } catch (error) {
    answerError(response, record, error);
  }
}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    length += bytes.length;
    if (length > limit) throw new BadRequestError(`request body larger than ${limit} bytes`, 413);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length);
}

// Node rejects a bad header name or value from a query parameter with one of these codes.
const HEADER_ERROR_CODES = new Set([
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
]);

function answerError(response: ServerResponse, record: MutableRecordedRequest, error: unknown): void {
  if (response.headersSent || response.destroyed) {
    // Mid-body there is no way to report an error except cutting the connection.
    response.destroy();
    return;
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const status = error instanceof BadRequestError ? error.status : HEADER_ERROR_CODES.has(code) ? 400 : 500;
  const message = error instanceof Error ? error.message : String(error);
  const body = `fixture-web: ${status === 500 ? `${record.route} failed: ` : ''}${message}\n`;
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  });
  response.end(body);
}
