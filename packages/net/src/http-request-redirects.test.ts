import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import { httpRequest, MAX_REDIRECTS } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';

let web: LoopbackWeb;
const policy: NetworkPolicy = { mode: 'localhost' };

beforeAll(async () => {
  web = await startLoopbackWeb();
  // /chain/N redirects N more times, then answers with the final body.
  web.scenario('/chain', (request, response) => {
    const remaining = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('n'));
    if (remaining > 0) response.writeHead(302, { location: `/chain?n=${remaining - 1}` }).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
  });
  web.scenario('/final', { status: 200, body: 'final' });
  web.scenario('/echo', (request, response, body) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ method: request.method, body, type: request.headers['content-type'] ?? null }),
    );
  });
  web.scenario('/see-other', { status: 303, headers: { location: '/echo' } });
  web.scenario('/temporary', { status: 307, headers: { location: '/echo' } });
  web.scenario('/found', { status: 302, headers: { location: '/echo' } });
  web.scenario('/to-ftp', { status: 301, headers: { location: 'ftp://127.0.0.1/file' } });
  web.scenario('/to-credentials', { status: 301, headers: { location: 'http://user:secret@127.0.0.1/' } });
  web.scenario('/not-modified', { status: 304 });
});
afterAll(() => web.close());

const text = (body: Uint8Array) => Buffer.from(body).toString('utf8');

async function failure(run: Promise<unknown>): Promise<WebToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
}

describe('redirect follow', () => {
  it(`follows ${MAX_REDIRECTS} redirects`, async () => {
    const response = await httpRequest(web.url(`/chain?n=${MAX_REDIRECTS}`), { policy });
    expect(response).toMatchObject({ status: 200, redirects: MAX_REDIRECTS, attempts: MAX_REDIRECTS + 1 });
    expect(response.url).toBe(web.url('/chain?n=0'));
    expect(text(response.body)).toBe('arrived');
  });

  it(`refuses redirect number ${MAX_REDIRECTS + 1}`, async () => {
    const before = web.requests.length;
    const error = await failure(httpRequest(web.url(`/chain?n=${MAX_REDIRECTS + 1}`), { policy }));
    expect(error.code).toBe('redirect_refused');
    expect(error.details).toMatchObject({ limit: MAX_REDIRECTS, status: 302 });
    expect(web.requests.length - before).toBe(MAX_REDIRECTS + 1);
  });

  it('turns a POST into a GET without body on 303 and 302, and keeps it on 307', async () => {
    const post = { policy, method: 'POST', body: '{"q":1}', contentType: 'application/json' } as const;
    const seeOther = JSON.parse(text((await httpRequest(web.url('/see-other'), post)).body));
    expect(seeOther).toEqual({ method: 'GET', body: '', type: null });
    const found = JSON.parse(text((await httpRequest(web.url('/found'), post)).body));
    expect(found).toEqual({ method: 'GET', body: '', type: null });
    const temporary = JSON.parse(text((await httpRequest(web.url('/temporary'), post)).body));
    expect(temporary).toEqual({ method: 'POST', body: '{"q":1}', type: 'application/json' });
  });

  it('refuses redirects to other schemes and to URLs with credentials', async () => {
    const scheme = await failure(httpRequest(web.url('/to-ftp'), { policy }));
    expect(scheme.code).toBe('redirect_refused');
    expect(scheme.details).toMatchObject({ status: 301, location: 'ftp://127.0.0.1/file' });
    const credentials = await failure(httpRequest(web.url('/to-credentials'), { policy }));
    expect(credentials.code).toBe('redirect_refused');
    expect(JSON.stringify(credentials.toJSON())).not.toContain('secret');
  });

  it('returns a 3xx without Location as a response', async () => {
    const response = await httpRequest(web.url('/not-modified'), { policy });
    expect(response).toMatchObject({ status: 304, redirects: 0 });
  });
});

describe('redirect error', () => {
  it('makes any redirect a redirect_refused carrying status and Location, without following it', async () => {
    const before = web.requests.length;
    const error = await failure(httpRequest(web.url('/chain?n=1'), { policy, redirect: 'error' }));
    expect(error.code).toBe('redirect_refused');
    expect(error.details).toMatchObject({ status: 302, location: '/chain?n=0' });
    expect(web.requests.length - before).toBe(1);
  });

  it('does not echo credentials from a Location', async () => {
    const error = await failure(httpRequest(web.url('/to-credentials'), { policy, redirect: 'error' }));
    expect(error.details).toEqual({ status: 301 });
  });
});

describe('redirect manual', () => {
  it('returns the 3xx response unfollowed', async () => {
    const before = web.requests.length;
    const response = await httpRequest(web.url('/chain?n=1'), { policy, redirect: 'manual' });
    expect(response).toMatchObject({ status: 302, redirects: 0, attempts: 1, statusText: 'Found' });
    expect(response.headers.location).toBe('/chain?n=0');
    expect(web.requests.length - before).toBe(1);
  });
});

describe('authorization', () => {
  it('sends the bearer credential to the request origin', async () => {
    web.scenario('/private-api', (request, response) => {
      response.writeHead(200).end(request.headers.authorization ?? 'none');
    });
    const response = await httpRequest(web.url('/private-api'), { policy, authorization: 'token-123' });
    expect(text(response.body)).toBe('Bearer token-123');
  });

  it('refuses a redirect to another origin, which then sees no request', async () => {
    web.scenario('/hop-away', {
      status: 302,
      headers: { location: web.url('/private-api', { host: '127.0.0.2' }) },
    });
    const before = web.requests.length;
    const error = await failure(httpRequest(web.url('/hop-away'), { policy, authorization: 'token-123' }));
    expect(error.code).toBe('redirect_refused');
    const seen = web.requests.slice(before);
    expect(seen.map((request) => request.localAddress)).toEqual(['127.0.0.1']);
    expect(seen[0]?.headers.authorization).toBe('Bearer token-123');
  });

  it('cannot be combined with redirect follow', async () => {
    const error = await failure(
      httpRequest(web.url('/private-api'), { policy, authorization: 'token-123', redirect: 'follow' }),
    );
    expect(error.code).toBe('validation_error');
  });

  it('with redirect manual returns the 3xx and sends nothing to the other origin', async () => {
    const before = web.requests.length;
    const response = await httpRequest(web.url('/hop-away'), {
      policy,
      authorization: 'token-123',
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(web.requests.length - before).toBe(1);
  });

  it.each(['', 'two words', 'line\nbreak', 'ünicode'])(
    'rejects the malformed credential %j',
    async (credential) => {
      const error = await failure(
        httpRequest(web.url('/private-api'), { policy, authorization: credential }),
      );
      expect(error.code).toBe('validation_error');
    },
  );
});
