import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

describe('/sequence/<key>', () => {
  it('answers the scripted steps in order, then repeats the last one', async () => {
    const url = fixture.url('/sequence/mixed?steps=503,429:2,200');
    const seen: [number, string | null][] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await fetch(url);
      seen.push([response.status, response.headers.get('retry-after')]);
      await response.arrayBuffer();
    }
    expect(seen).toEqual([
      [503, null],
      [429, '2'],
      [200, null],
      [200, null],
    ]);
  });

  it('drops the connection for reset and stays silent for hang', async () => {
    const url = fixture.url('/sequence/drop?steps=reset,hang,200');
    await expect(fetch(url)).rejects.toThrow();
    await expect(fetch(url, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ key: 'drop', attempt: 3 });
  });

  it('cuts a body short for cut', async () => {
    const url = fixture.url('/sequence/cut?steps=cut,200');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    expect((await fetch(url)).status).toBe(200);
  });

  it('refuses a script it cannot read', async () => {
    expect((await fetch(fixture.url('/sequence/bad?steps=abc'))).status).toBe(400);
    expect((await fetch(fixture.url('/sequence/bad'))).status).toBe(400);
  });
});
