import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isAllZeros } from '../test-support/all-zeros.js';
import { brotliBomb } from './brotli-bomb.js';

const MiB = 1024 * 1024;

async function decodedLength(body: Buffer): Promise<number> {
  const decoder = createBrotliDecompress({ chunkSize: 1024 * 1024 });
  decoder.end(body);
  let length = 0;
  for await (const chunk of decoder) {
    const bytes = chunk as Buffer;
    if (!isAllZeros(bytes)) throw new Error('non-zero byte');
    length += bytes.length;
  }
  return length;
}

describe('brotliBomb', () => {
  it.each([0, 1, 1000])('compresses %i bytes directly', async (size) => {
    expect(brotliDecompressSync(await brotliBomb(size)).length).toBe(size);
  });

  // 3 runs is exactly what the encoder produced; 5 runs repeats the steady piece beyond that.
  it.each([3 * 16 * MiB + 5, 5 * 16 * MiB + 12_345])(
    'repeats the steady piece for %i bytes and still decodes exactly',
    async (size) => {
      const body = await brotliBomb(size);
      expect(body.length).toBeLessThan(200);
      expect(await decodedLength(body)).toBe(size);
    },
  );
});
