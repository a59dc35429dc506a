import { createRequire } from 'node:module';
import { WebToolError } from '@mono-agent/budget-policy';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, MAX_DECODED_BYTES, MAX_REDIRECTS, type NetworkPolicy } from '../src/index.js';
import { eventually } from './loopback-web.js';

// The same guarantees, checked against the shared fixture web that stands in for the public web.
let web: FixtureWeb;
const policy: NetworkPolicy = { mode: 'localhost' };

beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(() => web.close());

async function failure(run: Promise<unknown>): Promise<WebToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
}

describe('against the fixture web', () => {
  it('loads only the undici modules a request needs, not its index (fetch, WebSocket, caches, mocks)', async () => {
    const response = await httpRequest(web.url('/pages/news-article'), { policy });
    expect(response.status).toBe(200);
    const undiciFiles = Object.keys(createRequire(import.meta.url).cache).filter((path) =>
      path.includes('/node_modules/undici/'),
    );
    expect(undiciFiles.some((path) => path.endsWith('/lib/dispatcher/agent.js'))).toBe(true);
    expect(
      undiciFiles.filter(
        (path) => path.endsWith('/undici/index.js') || /\/lib\/(web|mock|cache)\//.test(path),
      ),
    ).toEqual([]);
  });

  it.each(['gzip', 'deflate', 'br'])('stops its 1 GiB %s bomb at the decoded cap', async (encoding) => {
    const error = await failure(httpRequest(web.url(`/bomb/${encoding}`), { policy }));
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ stage: 'decoded', limit: MAX_DECODED_BYTES });
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it(`follows its ${MAX_REDIRECTS}-hop chain and refuses ${MAX_REDIRECTS + 1}`, async () => {
    const response = await httpRequest(web.url(`/redirect/${MAX_REDIRECTS}`), { policy });
    expect(response).toMatchObject({ status: 200, redirects: MAX_REDIRECTS });
    const error = await failure(httpRequest(web.url(`/redirect/${MAX_REDIRECTS + 1}`), { policy }));
    expect(error.code).toBe('redirect_refused');
  });

  it('stops its 10 B/s trickle at the deadline', async () => {
    const error = await failure(
      httpRequest(web.url('/trickle?rate=10&bytes=100000'), { policy, deadlineMs: 1500 }),
    );
    expect(error.code).toBe('timeout');
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it('reaches every loopback host name under mode localhost', async () => {
    const hosts = web.addresses.includes('::1')
      ? (['127.0.0.2', 'localhost', '::1'] as const)
      : (['127.0.0.2'] as const);
    for (const host of hosts) {
      const response = await httpRequest(web.url('/', { host }), { policy });
      expect(response.status).toBe(200);
    }
  });

  it('is denied under mode all without reaching it', async () => {
    const before = web.requests.length;
    const error = await failure(httpRequest(web.url('/'), { policy: { mode: 'all' } }));
    expect(error.code).toBe('policy_denied');
    expect(web.requests.length).toBe(before);
  });
});
