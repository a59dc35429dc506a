import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
beforeEach(() => fixture.reset());
afterAll(() => fixture.close());

/** Follows redirects by hand and returns every response's status and Location. */
async function follow(start: string, limit = 50) {
  const hops: { url: string; status: number; location: string | null }[] = [];
  let url = start;
  for (let index = 0; index < limit; index += 1) {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    hops.push({ url, status: response.status, location });
    await response.arrayBuffer();
    if (location === null) return { hops, final: url };
    url = new URL(location, url).href;
  }
  throw new Error('too many hops');
}

describe('/redirect/<hops>', () => {
  it('takes exactly n redirects and lands on the target', async () => {
    const { hops, final } = await follow(fixture.url('/redirect/5?to=/content/text'));
    expect(hops.map((hop) => hop.status)).toEqual([302, 302, 302, 302, 302, 200]);
    expect(hops.map((hop) => hop.location)).toEqual([
      '/redirect/4?to=%2Fcontent%2Ftext',
      '/redirect/3?to=%2Fcontent%2Ftext',
      '/redirect/2?to=%2Fcontent%2Ftext',
      '/redirect/1?to=%2Fcontent%2Ftext',
      '/content/text',
      null,
    ]);
    expect(final).toBe(fixture.url('/content/text'));
    expect(fixture.requests.map((record) => record.path)).toEqual([
      '/redirect/5',
      '/redirect/4',
      '/redirect/3',
      '/redirect/2',
      '/redirect/1',
      '/content/text',
    ]);
  });

  it.each([301, 302, 303, 307, 308])('uses status %i on every hop', async (status) => {
    const { hops } = await follow(fixture.url(`/redirect/3?status=${status}`));
    expect(hops.map((hop) => hop.status)).toEqual([status, status, status, 200]);
  });

  it('switches hosts hop by hop and each host is answered by its own address', async () => {
    const { hops, final } = await follow(fixture.url('/redirect/3?host=127.0.0.2,localhost'));
    expect(hops[0]?.location).toBe(`http://127.0.0.2:${fixture.port}/redirect/2?host=localhost`);
    expect(hops[1]?.location).toBe(`http://localhost:${fixture.port}/redirect/1`);
    // After the last named host, Locations are relative again, so the chain stays on localhost.
    expect(hops[2]?.location).toBe('/echo');
    expect(final).toBe(`http://localhost:${fixture.port}/echo`);

    const records = fixture.requests;
    expect(records.map((record) => record.hostname)).toEqual([
      '127.0.0.1',
      '127.0.0.2',
      'localhost',
      'localhost',
    ]);
    expect(records[0]?.localAddress).toBe('127.0.0.1');
    expect(records[1]?.localAddress).toBe('127.0.0.2');
    expect(['127.0.0.1', '::1']).toContain(records[2]?.localAddress);
  });

  it('is followed by fetch to the final page', async () => {
    const response = await fetch(fixture.url('/redirect/4?host=127.0.0.2'));
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`http://127.0.0.2:${fixture.port}/echo`);
    const echo = (await response.json()) as { localAddress: string };
    expect(echo.localAddress).toBe('127.0.0.2');
  });

  it('can point at an absolute target and use absolute Locations', async () => {
    const { hops } = await follow(fixture.url('/redirect/2?absolute=1&to=/pages'));
    expect(hops[0]?.location).toBe(`http://127.0.0.1:${fixture.port}/redirect/1?absolute=1&to=%2Fpages`);
    expect(hops[1]?.location).toBe(`http://127.0.0.1:${fixture.port}/pages`);
  });

  it('rejects nonsense parameters with 400', async () => {
    for (const path of [
      '/redirect/0',
      '/redirect/2?status=300',
      '/redirect/2?host=example.com',
      '/redirect/x',
    ]) {
      const response = await fetch(fixture.url(path), { redirect: 'manual' });
      expect(response.status, path).toBe(400);
      await response.arrayBuffer();
    }
  });
});

describe('/redirect-to and /redirect-loop', () => {
  it('redirects to any Location verbatim', async () => {
    const location = 'http://198.51.100.7/private?x=1';
    const response = await fetch(
      fixture.url(`/redirect-to?status=307&location=${encodeURIComponent(location)}`),
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(location);
    await response.arrayBuffer();
  });

  it('loops with a new URL every time', async () => {
    const first = await fetch(fixture.url('/redirect-loop'), { redirect: 'manual' });
    expect(first.headers.get('location')).toBe('/redirect-loop?hop=1');
    await first.arrayBuffer();
    await expect(fetch(fixture.url('/redirect-loop'))).rejects.toThrow();
    expect(fixture.requestsTo('/redirect-loop').length).toBeGreaterThan(5);
  });
});
