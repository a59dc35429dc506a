import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isAllZeros } from '../test-support/all-zeros.js';
import { deflateBomb } from './deflate-bomb.js';

const MiB = 1024 * 1024;

describe('deflateBomb', () => {
  it.each([0, 1, MiB - 1, MiB, 3 * MiB + 5, 70 * MiB])(
    'gzip of %i bytes inflates to exactly that many zeros',
    (size) => {
      const bomb = deflateBomb('gzip', size);
      const body = Buffer.concat([...bomb.chunks()]);
      expect(body.length).toBe(bomb.length);
      // gunzip checks the CRC-32 and ISIZE trailer, so a wrong trailer fails here.
      const plain = gunzipSync(body);
      expect(plain.length).toBe(size);
      expect(isAllZeros(plain)).toBe(true);
    },
  );

  it.each([0, 5, 2 * MiB + 77])('zlib of %i bytes inflates with a valid Adler-32', (size) => {
    const bomb = deflateBomb('zlib', size);
    const plain = inflateSync(Buffer.concat([...bomb.chunks()]));
    expect(plain.length).toBe(size);
  });

  it('reaches about 1000:1, the deflate limit', () => {
    const bomb = deflateBomb('gzip', 1024 * MiB);
    expect(bomb.length).toBeGreaterThan(1_000_000);
    expect(bomb.length).toBeLessThan(1_100_000);
  });

  it('records sizes of 4 GiB and more modulo 2^32 in the gzip trailer', () => {
    const bomb = deflateBomb('gzip', 2 ** 32 + 3);
    const chunks = [...bomb.chunks()];
    const trailer = chunks.at(-1)!.subarray(-4);
    expect(trailer.readUInt32LE(0)).toBe(3);
  });
});
