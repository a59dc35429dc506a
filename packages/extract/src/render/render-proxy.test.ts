import { createServer, request } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RenderProxy, startRenderProxy } from './render-proxy.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listening<Server extends import('node:net').Server>(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A web server that records every request line it receives. */
async function recordingServer(): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((incoming, response) => {
    seen.push(`${incoming.method} ${incoming.url} host=${incoming.headers.host}`);
    response.end('from the page host');
  });
  return { port: await listening(server), seen };
}

async function proxyFor(port: number, host = 'page.test'): Promise<RenderProxy> {
  const proxy = await startRenderProxy({ host, port, address: '127.0.0.1' });
  closers.push(() => proxy.close());
  return proxy;
}

/** One request through the proxy in absolute form, as a browser sends it. */
function viaProxy(proxy: RenderProxy, target: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: '127.0.0.1',
      port,
      path: target,
      headers: { host: new URL(target).host },
    });
    outgoing.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A CONNECT through the proxy: the status line it answers, and what then comes back for `send`. */
function tunnelThrough(proxy: RenderProxy, authority: string, send: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    });
    let received = '';
    let sent = false;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (!sent && received.includes('\r\n\r\n') && received.startsWith('HTTP/1.1 200')) {
        sent = true;
        socket.write(send);
      }
    });
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    setTimeout(() => socket.end(), 300);
  });
}

describe('the render proxy', () => {
  it("forwards the page host's requests to the approved address and refuses every other destination", async () => {
    const page = await recordingServer();
    const otherPort = await recordingServer();
    const proxy = await proxyFor(page.port);
    const own = await viaProxy(proxy, `http://page.test:${page.port}/a?b=1`);
    expect(own).toEqual({ status: 200, body: 'from the page host' });
    expect(page.seen).toEqual([`GET /a?b=1 host=page.test:${page.port}`]);
    for (const target of [
      `http://page.test:${otherPort.port}/`,
      `http://127.0.0.1:${otherPort.port}/`,
      `http://other.test:${page.port}/`,
      'ftp://page.test/',
    ]) {
      expect((await viaProxy(proxy, target)).status, target).toBe(403);
    }
    expect(otherPort.seen).toEqual([]);
    expect(page.seen).toHaveLength(1);
    expect(proxy.refused).toEqual([
      `page.test:${otherPort.port}`,
      `127.0.0.1:${otherPort.port}`,
      `other.test:${page.port}`,
    ]);
  });

  it('tunnels CONNECT (HTTPS, WebSockets) only to the page host and port', async () => {
    const echoed: string[] = [];
    const echo = createTcpServer((socket) => socket.on('data', (chunk) => echoed.push(chunk.toString())));
    const echoPort = await listening(echo);
    const other = createTcpServer((socket) => socket.on('data', (chunk) => echoed.push(`other ${chunk}`)));
    const otherPort = await listening(other);
    const proxy = await proxyFor(echoPort, '::1');
    expect(await tunnelThrough(proxy, `[::1]:${echoPort}`, 'hello')).toMatch(/^HTTP\/1\.1 200/);
    expect(await tunnelThrough(proxy, `[::1]:${otherPort}`, 'hello')).toMatch(/^HTTP\/1\.1 403/);
    expect(await tunnelThrough(proxy, `127.0.0.1:${echoPort}`, 'hello')).toMatch(/^HTTP\/1\.1 403/);
    expect(await tunnelThrough(proxy, 'garbage', 'hello')).toMatch(/^HTTP\/1\.1 403/);
    expect(echoed).toEqual(['hello']);
  });
});

describe('render proxy close', () => {
  it('ends every upstream request still waiting on a page that never answers', async () => {
    const open = new Set<import('node:net').Socket>();
    const silent = createTcpServer((socket) => {
      // Reads (and drops) what arrives, so the end of the connection is seen; never answers.
      socket.resume();
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    const port = await listening(silent);
    const proxy = await startRenderProxy({ host: 'page.test', port, address: '127.0.0.1' });
    viaProxy(proxy, `http://page.test:${port}/never`).catch(() => undefined);
    viaProxy(proxy, `http://page.test:${port}/never-again`).catch(() => undefined);
    while (open.size < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await proxy.close();
    while (open.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(open.size).toBe(0);
  });
});
