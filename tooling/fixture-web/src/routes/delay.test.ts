import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { openRaw, waitFor } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

describe('/delay/<ms>', () => {
  it('holds back even the headers for the delay', async () => {
    const started = performance.now();
    const response = await openRaw(fixture.url('/delay/400'));
    const headersAfter = performance.now() - started;
    response.resume();
    expect(response.statusCode).toBe(200);
    // Only a lower bound: a loaded machine may be slower, never faster.
    expect(headersAfter).toBeGreaterThanOrEqual(380);
  });

  it('stops waiting when the client leaves', async () => {
    const controller = new AbortController();
    const pending = openRaw(fixture.url('/delay/60000?id=leave'), { signal: controller.signal });
    await waitFor(() => fixture.requests.some((record) => record.target.endsWith('id=leave')));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(
      () => fixture.requests.find((record) => record.target.endsWith('id=leave'))?.outcome === 'aborted',
      2000,
      'the aborted outcome',
    );
  });

  it('refuses delays above the maximum', async () => {
    const response = await openRaw(fixture.url('/delay/999999'));
    response.resume();
    expect(response.statusCode).toBe(400);
  });
});
