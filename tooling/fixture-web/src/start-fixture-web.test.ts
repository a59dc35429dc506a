import { connect } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from './start-fixture-web.js';
import { openRaw, rawRequest, waitFor } from './test-support/raw-http.js';

let fixture: FixtureWeb;

beforeEach(async () => {
  fixture ??= await startFixtureWeb();
  fixture.reset();
});

afterAll(async () => {
  await fixture?.close();
});

describe('addresses', () => {
  it('answers on 127.0.0.1 and 127.0.0.2 with the same port', async () => {
    expect(fixture.baseUrl).toBe(`http://127.0.0.1:${fixture.port}`);
    expect(fixture.addresses).toEqual(expect.arrayContaining(['127.0.0.1', '127.0.0.2']));
    expect(fixture.addresses).not.toContain('0.0.0.0');

    for (const host of ['127.0.0.1', '127.0.0.2'] as const) {
      const response = await fetch(fixture.url('/echo', { host }));
      expect(response.status).toBe(200);
      const echo = (await response.json()) as { host: string; localAddress: string };
      expect(echo.host).toBe(`${host}:${fixture.port}`);
      expect(echo.localAddress).toBe(host);
    }
    expect(fixture.requests.map((record) => record.localAddress)).toEqual(['127.0.0.1', '127.0.0.2']);
  });

  it('answers on localhost whichever family it resolves to', async () => {
    const response = await fetch(fixture.url('/echo', { host: 'localhost' }));
    expect(response.status).toBe(200);
    const [record] = fixture.requests;
    expect(record?.hostname).toBe('localhost');
    expect(['127.0.0.1', '::1']).toContain(record?.localAddress);
  });

  it('answers on ::1 when the machine has IPv6 loopback', async (context) => {
    if (!fixture.addresses.includes('::1')) context.skip();
    const url = fixture.url('/echo', { host: '::1' });
    expect(url).toBe(`http://[::1]:${fixture.port}/echo`);
    const response = await rawRequest(url);
    expect(response.status).toBe(200);
    expect(fixture.requests[0]?.localAddress).toBe('::1');
  });

  it('builds URLs with the path and query as given', () => {
    expect(fixture.url('/bytes/10?chunk=2')).toBe(`http://127.0.0.1:${fixture.port}/bytes/10?chunk=2`);
    expect(fixture.url('pages', { host: '127.0.0.2' })).toBe(`http://127.0.0.2:${fixture.port}/pages`);
  });
});

describe('scenarios', () => {
  it('overrides a built-in route until removed', async () => {
    const remove = fixture.scenario('/content/json', (_request, response) => {
      response.writeHead(418, { 'content-type': 'text/plain' });
      response.end('teapot');
    });
    const overridden = await fetch(fixture.url('/content/json'));
    expect(overridden.status).toBe(418);
    expect(await overridden.text()).toBe('teapot');
    expect(fixture.requests[0]?.route).toBe('scenario');

    remove();
    const restored = await fetch(fixture.url('/content/json'));
    expect(restored.status).toBe(200);
    expect(restored.headers.get('content-type')).toBe('application/json');
    await restored.arrayBuffer();
  });

  it('lets the newest registration for a path win and removes only its own', async () => {
    const removeFirst = fixture.scenario('/thing', { body: 'first' });
    const removeSecond = fixture.scenario('/thing', { body: 'second' });
    expect(await (await fetch(fixture.url('/thing'))).text()).toBe('second');
    removeFirst();
    expect(await (await fetch(fixture.url('/thing'))).text()).toBe('second');
    removeSecond();
    expect((await fetch(fixture.url('/thing'))).status).toBe(404);
  });

  it('serves a canned response with status, headers, body and delay', async () => {
    fixture.scenario('/api/items/*', {
      status: 201,
      headers: { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] },
      body: '{"ok":true}',
      delayMs: 200,
    });
    const started = performance.now();
    const response = await rawRequest(fixture.url('/api/items/42'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(180);
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['content-length']).toBe('11');
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true });
  });

  it('hands the handler the request body and the parsed URL', async () => {
    let seen: { body: string; query: string | null } | undefined;
    fixture.scenario('/upload', (_request, response, context) => {
      seen = { body: context.body.toString(), query: context.url.searchParams.get('name') };
      response.end('stored');
    });
    const response = await fetch(fixture.url('/upload?name=report'), { method: 'POST', body: 'hello body' });
    expect(await response.text()).toBe('stored');
    expect(seen).toEqual({ body: 'hello body', query: 'report' });
  });

  it('turns a throwing handler into a 500 that names the route', async () => {
    fixture.scenario('/broken', () => {
      throw new Error('deliberate');
    });
    const response = await fetch(fixture.url('/broken'));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('deliberate');
  });
});

describe('request log', () => {
  it('records method, path, query, headers, host and body', async () => {
    await fetch(fixture.url('/echo?a=1&a=2', { host: '127.0.0.2' }), {
      method: 'POST',
      headers: { 'x-trace': 'abc', 'content-type': 'text/plain' },
      body: 'payload',
    });
    const [record] = fixture.requestsTo('/echo');
    expect(record).toMatchObject({
      method: 'POST',
      path: '/echo',
      target: '/echo?a=1&a=2',
      host: `127.0.0.2:${fixture.port}`,
      hostname: '127.0.0.2',
      localAddress: '127.0.0.2',
      route: '/echo',
      status: 200,
      outcome: 'completed',
    });
    expect(record?.query.getAll('a')).toEqual(['1', '2']);
    expect(record?.headers['x-trace']).toBe('abc');
    expect(record?.headers['authorization']).toBeUndefined();
    expect(record?.body.toString()).toBe('payload');
  });

  it('shows that no request was made to a path', async () => {
    await fetch(fixture.url('/echo'));
    expect(fixture.requestsTo('/never-called')).toHaveLength(0);
    expect(fixture.requests).toHaveLength(1);
    fixture.clearRequests();
    expect(fixture.requests).toHaveLength(0);
  });

  it('drops the oldest records beyond the limit', async () => {
    const small = await startFixtureWeb({ requestLogLimit: 2 });
    try {
      for (const path of ['/echo?n=1', '/echo?n=2', '/echo?n=3']) await rawRequest(small.url(path));
      expect(small.requests.map((record) => record.target)).toEqual(['/echo?n=2', '/echo?n=3']);
      expect(small.requests.map((record) => record.id)).toEqual([2, 3]);
    } finally {
      await small.close();
    }
  });

  it('rejects a request body above the limit with 413', async () => {
    const small = await startFixtureWeb({ maxRequestBodyBytes: 10 });
    try {
      const response = await rawRequest(small.url('/echo'), { method: 'POST', body: 'x'.repeat(11) });
      expect(response.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe('connections', () => {
  it('counts an open request and drops to zero after the client aborts', async () => {
    // A fixture of its own, so sockets left over from other tests do not count. node:http is the
    // client because it closes the socket on abort at once; see the README about fetch.
    const own = await startFixtureWeb();
    try {
      expect(own.openConnections()).toBe(0);
      const controller = new AbortController();
      const pending = openRaw(own.url('/delay/10000'), { signal: controller.signal });
      await waitFor(() => own.requestsTo('/delay/10000').length === 1, 5000, 'the delayed request');
      expect(own.openConnections()).toBe(1);
      expect(own.requestsTo('/delay/10000')[0]?.outcome).toBe('pending');

      controller.abort();
      await expect(pending).rejects.toThrow();
      await waitFor(() => own.openConnections() === 0, 2000, 'the socket to close');
      await waitFor(() => own.requestsTo('/delay/10000')[0]?.outcome === 'aborted', 1000, 'the outcome');
    } finally {
      await own.close();
    }
  });

  it('close() destroys open sockets and stops every listener', async () => {
    const closing = await startFixtureWeb();
    const response = await openRaw(closing.url('/trickle?rate=5&bytes=1000'));
    const ended = new Promise<string>((resolve) => {
      response.on('error', () => resolve('error'));
      response.on('close', () => resolve('close'));
      response.resume();
    });
    expect(closing.openConnections()).toBe(1);

    await closing.close();
    await closing.close();
    await ended;
    expect(response.complete).toBe(false);
    expect(closing.openConnections()).toBe(0);
    for (const address of closing.addresses) {
      await expect(connectTo(address, closing.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    }
  });
});

function connectTo(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
