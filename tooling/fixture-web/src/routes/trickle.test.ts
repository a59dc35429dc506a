import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPattern } from '../body-pattern.js';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { openRaw, readAll, waitFor } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('/trickle', () => {
  it('sends about 10 bytes per second and stops writing once the client aborts', async () => {
    const controller = new AbortController();
    const response = await openRaw(fixture.url('/trickle?rate=10&bytes=1000&id=slow'), {
      signal: controller.signal,
    });
    expect(response.headers['content-length']).toBe('1000');
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    response.on('error', () => {});
    await sleep(1500);
    controller.abort();

    // 15 expected; the range leaves room for a slow machine without accepting a burst.
    expect(received).toBeGreaterThanOrEqual(5);
    expect(received).toBeLessThanOrEqual(30);

    const record = () => fixture.requests.find((candidate) => candidate.target.endsWith('id=slow'));
    await waitFor(() => record()?.outcome === 'aborted', 2000, 'the server to see the abort');
    const writtenAtAbort = record()?.bodyBytesWritten ?? -1;
    expect(writtenAtAbort).toBeLessThanOrEqual(received + 2);
    await sleep(500);
    expect(record()?.bodyBytesWritten).toBe(writtenAtAbort);
    expect(fixture.openConnections()).toBe(0);
  });

  it('delivers the whole pattern at a faster rate', async () => {
    const started = performance.now();
    const response = await openRaw(fixture.url('/trickle?rate=2000&bytes=500&length=omit'));
    expect(response.headers['content-length']).toBeUndefined();
    const body = await readAll(response);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(body.length).toBe(500);
    expect([...body].every((byte, offset) => byte === textPattern.at(offset))).toBe(true);
  });
});
