import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adler32OfZeros, crc32OfZeros } from './crc32-of-zeros.js';

describe('crc32OfZeros', () => {
  it.each([0, 1, 2, 7, 8, 255, 65_536, 1_048_577, 3_000_001])('matches zlib for %i zero bytes', (count) => {
    expect(crc32OfZeros(count)).toBe(crc32(Buffer.alloc(count)));
  });

  it('continues from the CRC of earlier data', () => {
    const prefix = Buffer.from('fixture-web');
    expect(crc32OfZeros(1000, crc32(prefix))).toBe(crc32(Buffer.concat([prefix, Buffer.alloc(1000)])));
  });

  it('handles 1 GiB and beyond 4 GiB without touching that much memory', () => {
    let expected = 0;
    const mebibyte = Buffer.alloc(1024 * 1024);
    for (let index = 0; index < 64; index += 1) expected = crc32(mebibyte, expected);
    expect(crc32OfZeros(64 * 1024 * 1024)).toBe(expected);
    // Appending zeros in two steps must equal appending them at once, also past 2^32.
    expect(crc32OfZeros(2 ** 33 + 5)).toBe(crc32OfZeros(2 ** 32 + 5, crc32OfZeros(2 ** 32)));
  });
});

describe('adler32OfZeros', () => {
  it('is 1 for nothing and grows its high half by one per byte modulo 65521', () => {
    expect(adler32OfZeros(0)).toBe(1);
    expect(adler32OfZeros(3)).toBe(0x00030001);
    expect(adler32OfZeros(65_521)).toBe(1);
  });
});
