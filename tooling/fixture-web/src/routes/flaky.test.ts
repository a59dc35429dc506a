import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

describe('/flaky/<key>', () => {
  it('fails the first n attempts with the given status and Retry-After, then succeeds', async () => {
    const url = fixture.url('/flaky/search?fail=2&status=429&retry-after=1');
    const statuses: number[] = [];
    const retryAfter: (string | null)[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await fetch(url);
      statuses.push(response.status);
      retryAfter.push(response.headers.get('retry-after'));
      if (response.status === 200)
        expect(await response.json()).toMatchObject({ key: 'search', attempt: attempt + 1 });
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([429, 429, 200, 200]);
    expect(retryAfter).toEqual(['1', '1', null, null]);
  });

  it('counts keys separately and across hosts', async () => {
    expect((await fetch(fixture.url('/flaky/a?fail=1'))).status).toBe(503);
    expect((await fetch(fixture.url('/flaky/b?fail=1'))).status).toBe(503);
    const again = await fetch(fixture.url('/flaky/a?fail=1', { host: '127.0.0.2' }));
    expect(again.status).toBe(200);
    expect(again.headers.get('x-fixture-attempt')).toBe('2');
  });

  it('can fail by dropping the connection', async () => {
    const url = fixture.url('/flaky/reset?fail=2&status=reset');
    await expect(fetch(url)).rejects.toThrow();
    await expect(fetch(url)).rejects.toThrow();
    expect((await fetch(url)).status).toBe(200);
  });

  it('starts counting again after reset()', async () => {
    const url = fixture.url('/flaky/again?fail=1');
    expect((await fetch(url)).status).toBe(503);
    expect((await fetch(url)).status).toBe(200);
    fixture.reset();
    expect((await fetch(url)).status).toBe(503);
  });
});
