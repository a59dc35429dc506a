import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryPattern, PatternSource } from '../body-pattern.js';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { openRaw, waitFor } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

const expected = new PatternSource(binaryPattern, MiB);

/** Reads a response to the end, checking every byte against the pattern; returns the count. */
async function countAndVerify(stream: AsyncIterable<unknown>): Promise<number> {
  let offset = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    for (let start = 0; start < bytes.length; start += MiB) {
      const piece = bytes.subarray(start, start + MiB);
      if (!piece.equals(expected.slice(offset + start, piece.length))) {
        throw new Error(`bytes from offset ${offset + start} do not match the pattern`);
      }
    }
    offset += bytes.length;
  }
  return offset;
}

describe('/bytes/<n>', () => {
  it('streams 64 MiB matching its Content-Length and the pattern', async () => {
    const response = await openRaw(fixture.url(`/bytes/${64 * MiB}`));
    expect(response.headers['content-length']).toBe(String(64 * MiB));
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(await countAndVerify(response)).toBe(64 * MiB);
  });

  it('uses chunked transfer with length=omit and honours chunk and content-type', async () => {
    const response = await openRaw(
      fixture.url('/bytes/100003?length=omit&chunk=1000&content-type=image/png'),
    );
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-type']).toBe('image/png');
    expect(await countAndVerify(response)).toBe(100003);
  });

  it('stays just ahead of a 1 GiB reader that stops after 4 MiB, and stops when it aborts', async () => {
    const rssBefore = process.memoryUsage().rss;
    const controller = new AbortController();
    const response = await openRaw(fixture.url(`/bytes/${GiB}?id=big`), { signal: controller.signal });
    expect(response.headers['content-length']).toBe(String(GiB));
    response.on('error', () => {});
    let received = 0;
    await new Promise<void>((resolve) => {
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 4 * MiB) {
          response.pause();
          resolve();
        }
      });
    });
    // Give a server that ignores backpressure time to pour the rest of the GiB into memory.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const record = fixture.requests.find((candidate) => candidate.target.endsWith('id=big'));
    // Only socket buffers beyond what was read; without backpressure this would approach 1 GiB.
    expect(record?.bodyBytesWritten).toBeGreaterThanOrEqual(received);
    expect(record?.bodyBytesWritten).toBeLessThan(received + 32 * MiB);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * MiB);

    controller.abort();
    await waitFor(() => record?.outcome === 'aborted', 2000, 'the aborted outcome');
    await waitFor(() => fixture.openConnections() === 0, 2000, 'the socket to close');
    const writtenAtAbort = record?.bodyBytesWritten;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(record?.bodyBytesWritten).toBe(writtenAtAbort);
  });

  it('answers HEAD for 1 GiB at once, without a body', async () => {
    const response = await openRaw(fixture.url(`/bytes/${GiB}`), { method: 'HEAD' });
    expect(response.headers['content-length']).toBe(String(GiB));
    let received = 0;
    for await (const chunk of response) received += (chunk as Buffer).length;
    expect(received).toBe(0);
  });
});
