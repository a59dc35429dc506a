import type { IncomingMessage, ServerResponse } from 'node:http';
import { abortableSleep } from './abortable-sleep.js';
import { matchPath } from './match-path.js';
import type { RecordedRequest } from './request-log.js';

/** What a scenario handler gets besides the request and response. */
export interface ScenarioContext {
  /** The request URL resolved against the Host header. */
  readonly url: URL;
  /** The request body, already read in full (the request stream is consumed). */
  readonly body: Buffer;
  /** Aborted when the client goes away or the fixture closes; hang timers on it. */
  readonly signal: AbortSignal;
  /** The log entry of this request. */
  readonly record: RecordedRequest;
}

/** A hand-written route for one test. */
export type ScenarioHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  context: ScenarioContext,
) => void | Promise<void>;

/** A canned response, for the common case where a scenario needs no logic. */
export interface ScenarioResponse {
  /** The status; 200 when omitted. */
  readonly status?: number;
  /** Response headers; a list sends the header once per value. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** The body; a string is sent as UTF-8. */
  readonly body?: string | Uint8Array;
  /** How long to wait before sending anything, headers included. */
  readonly delayMs?: number;
}

interface Registration {
  readonly path: string;
  readonly handler: ScenarioHandler;
}

/** Per-test routes, checked before the built-in ones; the newest registration for a path wins. */
export class ScenarioRegistry {
  #registrations: Registration[] = [];

  /**
   * Registers `handler` for `path` (exact pathname, `:name` segments, or a `/*` prefix) and returns a
   * function that removes exactly this registration.
   */
  add(path: string, handler: ScenarioHandler | ScenarioResponse): () => void {
    if (!path.startsWith('/')) throw new TypeError(`scenario path must start with "/", got "${path}"`);
    const registration: Registration = {
      path,
      handler: typeof handler === 'function' ? handler : cannedHandler(handler),
    };
    this.#registrations.push(registration);
    return () => {
      this.#registrations = this.#registrations.filter((candidate) => candidate !== registration);
    };
  }

  /** The handler for `pathname`, if a scenario claims it. */
  match(pathname: string): ScenarioHandler | undefined {
    for (let index = this.#registrations.length - 1; index >= 0; index -= 1) {
      const registration = this.#registrations[index]!;
      if (matchPath(registration.path, pathname)) return registration.handler;
    }
    return undefined;
  }

  /** Removes every scenario. */
  clear(): void {
    this.#registrations = [];
  }
}

function cannedHandler(canned: ScenarioResponse): ScenarioHandler {
  return async (request, response, context) => {
    if (canned.delayMs !== undefined && !(await abortableSleep(canned.delayMs, context.signal))) return;
    const body = canned.body ?? '';
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const status = canned.status ?? 200;
    const headers = Object.fromEntries(
      Object.entries(canned.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    if (!('content-length' in headers) && status !== 204 && status !== 304) {
      headers['content-length'] = String(bytes.byteLength);
    }
    response.writeHead(status, headers as Record<string, string | string[]>);
    response.end(request.method === 'HEAD' ? undefined : bytes);
  };
}
