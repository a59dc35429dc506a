import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

/** The one destination a render may reach: the page's host and port, at the address the policy approved. */
export interface RenderDestination {
  /** The page's host name or IP literal (IPv6 without brackets), as the browser names it. */
  host: string;
  /** The page's port. */
  port: number;
  /** The address the network policy approved for `host`; every connection goes there. */
  address: string;
}

/** A running render proxy. */
export interface RenderProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  readonly url: string;
  /** The destinations refused so far, as `host:port`, in order (each once). */
  readonly refused: readonly string[];
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

/** Where the proxy listens (loopback only). */
export const RENDER_PROXY_HOST = '127.0.0.1';

const FORBIDDEN = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

/** `host` without IPv6 brackets, lowercased. */
function bareHost(host: string): string {
  return (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
}

/** The host and port of a CONNECT target (`host:port`, `[v6]:port`), or undefined when malformed. */
function connectTarget(authority: string | undefined): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority ?? '');
  if (match === null) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65_536 ? { host: bareHost(match[1] as string), port } : undefined;
}

/** The host and port of an absolute-form request target (`http://host:port/path`), or undefined. */
function absoluteTarget(
  target: string | undefined,
): { host: string; port: number; path: string } | undefined {
  try {
    const url = new URL(target ?? '');
    if (url.protocol !== 'http:' && url.protocol !== 'ws:') return undefined;
    return {
      host: bareHost(url.hostname),
      port: Number(url.port || 80),
      path: `${url.pathname}${url.search}`,
    };
  } catch {
    return undefined;
  }
}

/** The request's headers as raw lines, without the proxy's own. */
function forwardedHeaderLines(request: IncomingMessage): string {
  const lines: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index] as string;
    if (/^proxy-/i.test(name)) continue;
    lines.push(`${name}: ${request.rawHeaders[index + 1] as string}`);
  }
  return lines.join('\r\n');
}

/**
 * A forward proxy on loopback that lets a render's browser reach exactly one destination: the page's
 * own host and port, connected at the address the network policy approved (so a rebinding answer
 * cannot move it). Chromium is started with it as `--proxy-server` and with loopback no longer
 * bypassed, so every request of the page goes through it: navigations, sub-resources, frames, beacons,
 * WebSockets and event streams. Anything else (another host, or the same host on another port, which
 * agent-browser's `--allowed-domains` lets through) is answered 403 and never connected to.
 */
export async function startRenderProxy(destination: RenderDestination): Promise<RenderProxy> {
  const allowedHost = bareHost(destination.host);
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const allows = (host: string, port: number): boolean => {
    if (host === allowedHost && port === destination.port) return true;
    const name = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (!refused.includes(name)) refused.push(name);
    return false;
  };
  let closed = false;
  const track = (socket: Socket) => {
    // A connection that comes into being after close (an upstream socket assigned late) ends at once.
    if (closed) {
      socket.destroy();
      return socket;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  const tunnel = (client: Socket, head: Buffer, preamble: string | undefined) => {
    const upstream = track(connect({ host: destination.address, port: destination.port }));
    upstream.once('connect', () => {
      if (preamble === undefined) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else upstream.write(preamble);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => {
      if (client.destroyed) return;
      if (preamble === undefined) client.end(BAD_GATEWAY);
      else client.end();
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };

  const server = createServer((request, response) => {
    const target = absoluteTarget(request.url);
    if (target === undefined || !allows(target.host, target.port)) {
      response.writeHead(403, { 'content-length': '0', connection: 'close' }).end();
      request.resume();
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !/^proxy-/i.test(name)) headers[name] = value;
    }
    const upstream = httpRequest(
      {
        host: destination.address,
        port: destination.port,
        method: request.method,
        path: target.path,
        headers,
        setHost: false,
        // A socket of its own, never a pooled one: the shared agent would keep it (and a page that
        // never answers would keep it open) after the render ended.
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    // Tracked like every other connection, so closing the proxy ends a request still waiting upstream.
    upstream.once('socket', track);
    response.once('close', () => upstream.destroy());
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-length': '0' });
      response.end();
    });
    request.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = connectTarget(request.url);
    if (target === undefined || !allows(target.host, target.port)) {
      client.end(FORBIDDEN);
      return;
    }
    tunnel(client, head, undefined);
  });
  server.on('upgrade', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = absoluteTarget(request.url);
    if (target === undefined || !allows(target.host, target.port)) {
      client.end(FORBIDDEN);
      return;
    }
    tunnel(
      client,
      head,
      `${request.method ?? 'GET'} ${target.path} HTTP/1.1\r\n${forwardedHeaderLines(request)}\r\n\r\n`,
    );
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, RENDER_PROXY_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://${RENDER_PROXY_HOST}:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
