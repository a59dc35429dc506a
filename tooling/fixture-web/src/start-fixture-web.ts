import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { BUILTIN_ROUTES } from './builtin-routes.js';
import { createRequestListener } from './handle-request.js';
import { closeServer, listenOnLoopback } from './listen-on-loopback.js';
import { buildUrl, type LoopbackHost } from './loopback-hosts.js';
import { type RecordedRequest, RequestLog } from './request-log.js';
import type { FixtureState } from './route-context.js';
import { type ScenarioHandler, ScenarioRegistry, type ScenarioResponse } from './scenarios.js';

/** How to start a fixture; every field is optional. */
export interface FixtureWebOptions {
  /** A fixed port for demos that print URLs; tests should leave it out and get a free one. */
  readonly port?: number;
  /** Also listen on `::1` when the machine has it; default true, so `localhost` works on either family. */
  readonly ipv6?: boolean;
  /** How many requests the log keeps before dropping the oldest; default 10 000. */
  readonly requestLogLimit?: number;
  /** The largest request body accepted (larger ones get 413); default 16 MiB. */
  readonly maxRequestBodyBytes?: number;
}

/** Options of `FixtureWeb.url`. */
export interface FixtureUrlOptions {
  /** The host name to put in the URL; default `127.0.0.1`. */
  readonly host?: LoopbackHost;
}

/** A running fixture server: one port answered on several loopback addresses. */
export interface FixtureWeb {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly baseUrl: string;
  /** The port shared by every address. */
  readonly port: number;
  /** The addresses listened on: 127.0.0.1, 127.0.0.2 and, when available, ::1. */
  readonly addresses: readonly string[];
  /** An absolute URL for `path` (which may carry a query) on one of the loopback host names. */
  url(path: string, options?: FixtureUrlOptions): string;
  /**
   * Serves `path` with `handler` (or a canned response) ahead of the built-in routes until the returned
   * function is called. `path` is an exact pathname, may use `:name` segments, or end in `/*`.
   */
  scenario(path: string, handler: ScenarioHandler | ScenarioResponse): () => void;
  /** Every request received so far (up to the log limit), oldest first; a fresh array on each read. */
  readonly requests: readonly RecordedRequest[];
  /** The recorded requests whose pathname is exactly `path`. */
  requestsTo(path: string): RecordedRequest[];
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Forgets requests, removes every scenario and restarts every `/flaky` count, for `beforeEach`. */
  reset(): void;
  /** Sockets currently open on any address, idle keep-alive ones included. */
  openConnections(): number;
  /** Destroys open sockets, stops every listener and resolves once all are closed; safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_LOG_LIMIT = 10_000;
const DEFAULT_MAX_REQUEST_BODY = 16 * 1024 * 1024;

/** Starts a fixture on a free port; resolves once every address listens. */
export async function startFixtureWeb(options: FixtureWebOptions = {}): Promise<FixtureWeb> {
  const log = new RequestLog(options.requestLogLimit ?? DEFAULT_LOG_LIMIT);
  const scenarios = new ScenarioRegistry();
  const sockets = new Set<Socket>();
  const inFlight = new Set<AbortController>();
  const flakyAttempts = new Map<string, number>();
  // Routes need the port before it is known; they only read it while answering, after listening.
  const state: { port: number; flakyAttempts: Map<string, number> } = { port: 0, flakyAttempts };
  const listener = createRequestListener({
    log,
    scenarios,
    routes: BUILTIN_ROUTES,
    state: state satisfies FixtureState,
    inFlight,
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY,
  });

  const { port, servers, addresses } = await listenOnLoopback({
    ...(options.port === undefined ? {} : { port: options.port }),
    ipv6: options.ipv6 ?? true,
    createServer: () => {
      const server = createServer(listener);
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      return server;
    },
  });
  state.port = port;

  let closing: Promise<void> | undefined;

  return {
    baseUrl: buildUrl('127.0.0.1', port, '').replace(/\/$/, ''),
    port,
    addresses,
    url(path, urlOptions = {}) {
      const host = urlOptions.host ?? '127.0.0.1';
      if (host === '::1' && !addresses.includes('::1')) {
        throw new Error('fixture-web: ::1 is not available on this machine');
      }
      return buildUrl(host, port, path);
    },
    scenario: (path, handler) => scenarios.add(path, handler),
    get requests() {
      return log.list();
    },
    requestsTo: (path) => log.list().filter((record) => record.path === path),
    clearRequests: () => log.clear(),
    reset() {
      log.clear();
      scenarios.clear();
      flakyAttempts.clear();
    },
    openConnections: () => sockets.size,
    close() {
      closing ??= (async () => {
        for (const controller of inFlight) controller.abort();
        await Promise.all(servers.map(closeServer));
        for (const socket of sockets) socket.destroy();
      })();
      return closing;
    },
  };
}
