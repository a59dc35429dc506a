import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { rawRequest } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

describe('/status/<code>', () => {
  it('sends 429 with Retry-After', async () => {
    const response = await fetch(fixture.url('/status/429?header=Retry-After:3'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(await response.text()).toBe('429 Too Many Requests\n');
  });

  it('sends 503 and 202 with a custom body and content type', async () => {
    const unavailable = await fetch(fixture.url('/status/503'));
    expect(unavailable.status).toBe(503);
    expect(await unavailable.text()).toBe('503 Service Unavailable\n');

    const accepted = await fetch(
      fixture.url('/status/202?body=%7B%22queued%22%3Atrue%7D&content-type=application/json'),
    );
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('content-type')).toBe('application/json');
    expect(await accepted.json()).toEqual({ queued: true });
  });

  it('sends a 3xx without Location, which a client must not follow', async () => {
    const response = await fetch(fixture.url('/status/301'), { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBeNull();
    await response.arrayBuffer();
  });

  it('repeats a header given twice and lets a header override the default content type', async () => {
    const response = await rawRequest(
      fixture.url('/status/200?header=Set-Cookie:a=1&header=Set-Cookie:b=2&header=Content-Type:text/csv'),
    );
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['content-type']).toBe('text/csv');
  });

  it('sends no body with 204', async () => {
    const response = await rawRequest(fixture.url('/status/204?body=ignored'));
    expect(response.status).toBe(204);
    expect(response.body.length).toBe(0);
    expect(response.headers['content-length']).toBeUndefined();
  });

  it('refuses codes outside 200–599 and malformed headers', async () => {
    for (const path of [
      '/status/99',
      '/status/600',
      '/status/abc',
      '/status/200?header=NoColon',
      '/status/200?header=Bad Name:x',
    ]) {
      const response = await rawRequest(fixture.url(path));
      expect(response.status, path).toBe(400);
    }
  });
});
