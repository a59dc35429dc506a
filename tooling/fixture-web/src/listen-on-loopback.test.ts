import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from './listen-on-loopback.js';

// A server whose listen() fails the way a port taken by another process does.
function serverThatFindsThePortTaken(): Server {
  const server = createServer();
  server.listen = ((..._arguments: unknown[]) => {
    setImmediate(() => server.emit('error', Object.assign(new Error('taken'), { code: 'EADDRINUSE' })));
    return server;
  }) as Server['listen'];
  return server;
}

describe('listenOnLoopback', () => {
  it('binds every address on one port and never the wildcard address', async () => {
    const { port, servers, addresses } = await listenOnLoopback({ createServer: () => createServer() });
    try {
      expect(addresses.slice(0, 2)).toEqual(['127.0.0.1', '127.0.0.2']);
      for (const server of servers) {
        const address = server.address();
        expect(typeof address === 'object' && address?.port).toBe(port);
        expect(typeof address === 'object' && address?.address).not.toMatch(/^(0\.0\.0\.0|::)$/);
      }
    } finally {
      await Promise.all(servers.map(closeServer));
    }
  });

  it('starts over on a new port when a later address is taken, closing the first attempt', async () => {
    const created: Server[] = [];
    let calls = 0;
    const result = await listenOnLoopback({
      ipv6: false,
      createServer: () => {
        calls += 1;
        // The second server of the first attempt is the one for 127.0.0.2.
        const server = calls === 2 ? serverThatFindsThePortTaken() : createServer();
        created.push(server);
        return server;
      },
    });
    try {
      expect(calls).toBe(4);
      expect(created[0]?.listening).toBe(false);
      expect(result.servers).toEqual([created[2], created[3]]);
      expect(result.servers.every((server) => server.listening)).toBe(true);
    } finally {
      await Promise.all(result.servers.map(closeServer));
    }
  });

  it('reports a clash on a fixed port instead of moving elsewhere', async () => {
    const blocker = createTcpServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.2', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const created: Server[] = [];
    try {
      await expect(
        listenOnLoopback({
          port,
          ipv6: false,
          createServer: () => {
            const server = createServer();
            created.push(server);
            return server;
          },
        }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(created.every((server) => !server.listening)).toBe(true);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
