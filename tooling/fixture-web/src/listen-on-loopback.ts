import type { Server } from 'node:http';

/** The listening servers of one fixture: one per loopback address, all on the same port. */
export interface LoopbackListeners {
  /** The port shared by every listener. */
  readonly port: number;
  /** One server per bound address, in the order of `addresses`. */
  readonly servers: readonly Server[];
  /** The addresses actually bound; `::1` is missing when the machine has no IPv6 loopback. */
  readonly addresses: readonly string[];
}

/** How `listenOnLoopback` picks its port and addresses. */
export interface ListenOnLoopbackOptions {
  /** Makes a fresh, not yet listening server; called once per address and attempt. */
  readonly createServer: () => Server;
  /** A fixed port; without it a free one is picked, and picked again when a later address clashes. */
  readonly port?: number;
  /** Whether to also bind `::1` (when the machine has it), so `localhost` works on either family. */
  readonly ipv6?: boolean;
  /** How many ports to try before giving up on a clash; only used without a fixed port. */
  readonly attempts?: number;
}

const REQUIRED_ADDRESSES = ['127.0.0.1', '127.0.0.2'] as const;
const IPV6_LOOPBACK = '::1';
// A missing IPv6 stack shows up under different codes depending on the kernel and container runtime.
const IPV6_UNAVAILABLE_CODES = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EINVAL', 'EPROTONOSUPPORT']);

/**
 * Binds one server per loopback address on a single port.
 *
 * Only the first bind can ask the kernel for a free port; the others must reuse it, and any of them can
 * find it taken by an unrelated process, so the whole set is retried on a new port.
 */
export async function listenOnLoopback(options: ListenOnLoopbackOptions): Promise<LoopbackListeners> {
  const attempts = options.port === undefined ? (options.attempts ?? 20) : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      return await bindAll(options);
    } catch (error) {
      lastError = error;
      if (!(isErrorCode(error, 'EADDRINUSE') && options.port === undefined)) throw error;
    }
  }
  throw new Error(`fixture-web: no port was free on every loopback address after ${attempts} attempts`, {
    cause: lastError,
  });
}

async function bindAll(options: ListenOnLoopbackOptions): Promise<LoopbackListeners> {
  const servers: Server[] = [];
  const addresses: string[] = [];
  try {
    const first = options.createServer();
    await listen(first, REQUIRED_ADDRESSES[0], options.port ?? 0);
    servers.push(first);
    addresses.push(REQUIRED_ADDRESSES[0]);
    const port = boundPort(first);

    for (const address of REQUIRED_ADDRESSES.slice(1)) {
      const server = options.createServer();
      try {
        await listen(server, address, port);
      } catch (error) {
        if (isErrorCode(error, 'EADDRNOTAVAIL')) {
          throw new Error(
            `fixture-web: cannot bind ${address}. Linux routes all of 127.0.0.0/8 to loopback; ` +
              `on macOS add the alias once with: sudo ifconfig lo0 alias ${address} up`,
            { cause: error },
          );
        }
        throw error;
      }
      servers.push(server);
      addresses.push(address);
    }

    if (options.ipv6 ?? true) {
      const server = options.createServer();
      try {
        await listen(server, IPV6_LOOPBACK, port);
        servers.push(server);
        addresses.push(IPV6_LOOPBACK);
      } catch (error) {
        if (!IPV6_UNAVAILABLE_CODES.has(errorCode(error) ?? '')) throw error;
      }
    }
    return { port, servers, addresses };
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    throw error;
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    // `exclusive` keeps a cluster primary from sharing the handle, so a clash is reported, not hidden.
    server.listen({ host, port, exclusive: true, ipv6Only: host.includes(':') }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function boundPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('fixture-web: the first listener has no TCP address');
  }
  return address.port;
}

/** Closes a server and drops its connections; resolves once it no longer listens. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

function isErrorCode(error: unknown, code: string): boolean {
  return errorCode(error) === code;
}
