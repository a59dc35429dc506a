import { constants, deflateRawSync } from 'node:zlib';
import { adler32OfZeros, crc32OfZeros } from './crc32-of-zeros.js';

/** The wrappers around a deflate stream that HTTP uses: `gzip` (RFC 1952) and `deflate`, i.e. zlib (RFC 1950). */
export type DeflateContainer = 'gzip' | 'zlib';

/** A body known by its length and produced lazily, so it can be streamed without being held in memory. */
export interface StreamedBody {
  /** Total bytes `chunks()` yields. */
  readonly length: number;
  /** Yields the body; each call starts over. */
  chunks(): Iterable<Buffer>;
}

// Deflate cannot beat about 1032:1 on any input, so a bomb is mostly one compressed run of zeros
// repeated. A sync flush ends each run on a byte boundary without the final-block bit, and no run
// refers back to an earlier one, so runs concatenate into one valid stream. That turns "compress 1 GiB"
// into "compress 1 MiB once and repeat the result".
const SEGMENT_SIZE = 1024 * 1024;
const SEGMENTS_PER_WRITE = 64;
// An empty fixed-Huffman block with the final bit set: ends the deflate stream after the last flush.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
// ID1 ID2, CM=deflate, no flags, MTIME=0 so the body is reproducible, XFL=max compression, OS=unknown.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0xff]);
// CMF=deflate with a 32 KiB window, FLG=max compression; 0x78da is a multiple of 31 as RFC 1950 requires.
const ZLIB_HEADER = Buffer.from([0x78, 0xda]);

let fullSegment: Buffer | undefined;

function compressedZeros(length: number): Buffer {
  return deflateRawSync(Buffer.alloc(length), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
}

function trailer(container: DeflateContainer, size: number): Buffer {
  if (container === 'zlib') {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(adler32OfZeros(size));
    return bytes;
  }
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(crc32OfZeros(size), 0);
  // ISIZE is the length modulo 2^32, which is how gzip records bodies of 4 GiB and more.
  bytes.writeUInt32LE(size % 2 ** 32, 4);
  return bytes;
}

/** A single-layer gzip or zlib stream that inflates to exactly `size` zero bytes. */
export function deflateBomb(container: DeflateContainer, size: number): StreamedBody {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a safe integer ≥ 0');
  fullSegment ??= compressedZeros(SEGMENT_SIZE);
  const segment = fullSegment;
  const fullSegments = Math.floor(size / SEGMENT_SIZE);
  const rest = size % SEGMENT_SIZE;
  const restSegment = rest > 0 ? compressedZeros(rest) : Buffer.alloc(0);
  const header = container === 'gzip' ? GZIP_HEADER : ZLIB_HEADER;
  const end = Buffer.concat([restSegment, FINAL_BLOCK, trailer(container, size)]);
  const length = header.length + fullSegments * segment.length + end.length;

  return {
    length,
    *chunks() {
      yield header;
      // Batching segments keeps a 1 GiB bomb at a few hundred writes instead of a thousand tiny ones.
      const batch = Buffer.concat(Array.from({ length: SEGMENTS_PER_WRITE }, () => segment));
      for (let index = 0; index < Math.floor(fullSegments / SEGMENTS_PER_WRITE); index += 1) yield batch;
      for (let index = 0; index < fullSegments % SEGMENTS_PER_WRITE; index += 1) yield segment;
      yield end;
    },
  };
}
