import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { isAllZeros } from '../test-support/all-zeros.js';
import { openRaw, rawRequest } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
/** Counts the bytes `stream` produces, checking they are zeros and discarding them. */
async function countZeros(stream: Readable): Promise<number> {
  let count = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (!isAllZeros(bytes)) throw new Error(`non-zero byte near offset ${count}`);
    count += bytes.length;
  }
  return count;
}

/** Counts the bytes of one stream, discarding them. */
async function countBytes(stream: Readable): Promise<number> {
  let count = 0;
  for await (const chunk of stream) count += (chunk as Buffer).length;
  return count;
}

/** Pipes `source` through the decoders, counting what leaves each layer. */
function decodeLayers(
  source: Readable,
  decoders: Transform[],
): { layers: Promise<number>[]; output: Readable } {
  const layers: Promise<number>[] = [];
  let current: Readable = source;
  for (const decoder of decoders) {
    current.on('error', (error) => decoder.destroy(error));
    current = current.pipe(decoder);
    const counted = decoder;
    let count = 0;
    counted.on('data', (chunk: Buffer) => {
      count += chunk.length;
    });
    layers.push(
      new Promise((resolve, reject) => counted.on('end', () => resolve(count)).on('error', reject)),
    );
  }
  return { layers, output: current };
}

describe('/bomb/gzip', () => {
  it('serves 1 GiB behind two gzip layers in a few KiB', async () => {
    const head = await rawRequest(fixture.url('/bomb/gzip?size=1073741824'), { method: 'HEAD' });
    const served = Number(head.headers['content-length']);
    expect(served).toBeLessThan(8 * KiB);

    const response = await openRaw(fixture.url('/bomb/gzip?size=1073741824'));
    expect(response.headers['content-encoding']).toBe('gzip, gzip');
    expect(response.headers['x-fixture-decoded-length']).toBe(String(GiB));
    let wire = 0;
    response.on('data', (chunk: Buffer) => {
      wire += chunk.length;
    });
    const outer = createGunzip();
    const inner = createGunzip({ chunkSize: 256 * KiB });
    const { layers, output } = decodeLayers(response, [outer, inner]);
    const [decoded, afterOuter] = await Promise.all([countZeros(output), layers[0]!]);
    expect(wire).toBe(served);
    // The outer layer unwraps to the ~1 MiB single-layer bomb; the inner one to the full GiB.
    expect(afterOuter).toBeGreaterThan(1_000_000);
    expect(afterOuter).toBeLessThan(1_100_000);
    expect(decoded).toBe(GiB);
  });

  it('serves a single-layer bomb of deflate-limited size with layers=1', async () => {
    const size = 256 * MiB;
    const response = await openRaw(fixture.url(`/bomb/gzip?layers=1&size=${size}`));
    expect(response.headers['content-encoding']).toBe('gzip');
    const served = Number(response.headers['content-length']);
    // Deflate tops out near 1032:1.
    expect(served).toBeGreaterThan(size / 1100);
    expect(served).toBeLessThan(size / 900);
    expect(await countZeros(response.pipe(createGunzip({ chunkSize: 256 * KiB })))).toBe(size);
  });

  it('is decoded through both layers by fetch', async () => {
    const response = await fetch(fixture.url(`/bomb/gzip?size=${8 * MiB}`));
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(8 * MiB);
    expect(isAllZeros(body)).toBe(true);
  });
});

describe('/bomb/deflate and /bomb/br', () => {
  it('deflate decodes to its size through two zlib layers', async () => {
    const size = 256 * MiB + 12_345;
    const response = await openRaw(fixture.url(`/bomb/deflate?size=${size}`));
    expect(response.headers['content-encoding']).toBe('deflate, deflate');
    expect(Number(response.headers['content-length'])).toBeLessThan(8 * KiB);
    const { output } = decodeLayers(response, [createInflate(), createInflate({ chunkSize: 256 * KiB })]);
    expect(await countZeros(output)).toBe(size);
  });

  it('br decodes to its size from one layer under 2 KiB', async () => {
    const size = 256 * MiB + 7;
    const raw = await rawRequest(fixture.url(`/bomb/br?size=${size}`));
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.body.length).toBeLessThan(2 * KiB);
    const decoder = createBrotliDecompress({ chunkSize: 256 * KiB });
    decoder.end(raw.body);
    expect(await countBytes(decoder)).toBe(size);
  });

  it('br of 1 GiB is still under 2 KiB', async () => {
    const head = await rawRequest(fixture.url(`/bomb/br?size=${GiB}`), { method: 'HEAD' });
    expect(Number(head.headers['content-length'])).toBeLessThan(2 * KiB);
  });

  it('rejects unknown encodings and sizes', async () => {
    expect((await rawRequest(fixture.url('/bomb/zstd'))).status).toBe(400);
    expect((await rawRequest(fixture.url('/bomb/gzip?size=-1'))).status).toBe(400);
    expect((await rawRequest(fixture.url('/bomb/gzip?layers=3'))).status).toBe(400);
  });
});
