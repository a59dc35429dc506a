import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the loopback web received. */
export interface RecordedRequest {
  /** The method. */
  readonly method: string;
  /** The path and query. */
  readonly path: string;
  /** The local address the request arrived on (127.0.0.1 or 127.0.0.2). */
  readonly localAddress: string;
  /** The request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body. */
  readonly body: string;
}

/** How a path answers: a handler, or a fixed response. */
export type Scenario =
  | ((request: IncomingMessage, response: ServerResponse, body: string) => void | Promise<void>)
  | { status?: number; headers?: Record<string, string>; body?: string | Uint8Array };

/** A loopback HTTP server listening on 127.0.0.1 and 127.0.0.2 with one port. */
export interface LoopbackWeb {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** The port on both addresses. */
  readonly port: number;
  /** A URL on this server, on another loopback host name if asked (`127.0.0.2`, `localhost`). */
  url(path: string, options?: { host?: string }): string;
  /** Sets how `path` answers (exact path, query ignored). */
  scenario(path: string, scenario: Scenario): void;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** Sockets currently open on the server side. */
  openConnections(): number;
  /** Connections accepted since the server started. */
  connectionCount(): number;
  /** Stops listening and destroys every socket. */
  close(): Promise<void>;
}

/** Starts a loopback web for one test file; unknown paths answer 404. */
export async function startLoopbackWeb(): Promise<LoopbackWeb> {
  const scenarios = new Map<string, Scenario>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    requests.push({
      method: request.method ?? 'GET',
      path,
      localAddress: request.socket.localAddress ?? '',
      headers: { ...request.headers },
      body,
    });
    const scenario = scenarios.get(path.split('?')[0] ?? path);
    if (scenario === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof scenario === 'function') {
      await scenario(request, response, body);
      return;
    }
    response.writeHead(scenario.status ?? 200, scenario.headers ?? {});
    response.end(scenario.body ?? '');
  };
  const servers: Server[] = [];
  const listen = (host: string, port: number): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer((request, response) => {
        handle(request, response).catch((error: unknown) => {
          response.destroy(error instanceof Error ? error : new Error(String(error)));
        });
      });
      server.on('connection', (socket) => {
        accepted += 1;
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  const first = await listen('127.0.0.1', 0);
  servers.push(first);
  const port = (first.address() as AddressInfo).port;
  servers.push(await listen('127.0.0.2', port));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    port,
    url: (path, options) => `http://${options?.host ?? '127.0.0.1'}:${port}${path}`,
    scenario: (path, scenario) => {
      scenarios.set(path, scenario);
    },
    requests,
    openConnections: () => sockets.size,
    connectionCount: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

/** Polls `condition` until it holds or `timeoutMs` passes; for effects that settle asynchronously. */
export async function eventually(condition: () => boolean, timeoutMs = 2000): Promise<boolean> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
