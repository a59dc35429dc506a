import { type BrotliCompress, brotliCompress, constants, createBrotliCompress } from 'node:zlib';

// Brotli copies up to 16 MiB per command, so 16 MiB of zeros compresses to about a dozen bytes; the
// cost is the encoder's time, about 2 s per GiB even at a low quality. Flushing after each 16 MiB run
// makes the encoder emit byte-aligned pieces, and once the window is all zeros every run's piece comes
// out identical, so the piece is repeated instead of recomputed. The repetition is only used after the
// encoder has produced the same piece twice in a row; otherwise the whole body is compressed normally.
const RUN_SIZE = 16 * 1024 * 1024;
const PARAMETERS = {
  [constants.BROTLI_PARAM_QUALITY]: 5,
  // The largest window RFC 7932 allows without the large-window extension, so any decoder accepts it.
  [constants.BROTLI_PARAM_LGWIN]: 24,
};

class PieceCollector {
  readonly #encoder: BrotliCompress;
  #pending: Buffer[] = [];

  constructor(encoder: BrotliCompress) {
    this.#encoder = encoder;
    encoder.on('data', (chunk: Buffer) => this.#pending.push(chunk));
  }

  take(): Buffer {
    const piece = Buffer.concat(this.#pending);
    this.#pending = [];
    return piece;
  }

  flushAfter(data: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.#encoder.once('error', reject);
      this.#encoder.write(data);
      this.#encoder.flush(constants.BROTLI_OPERATION_FLUSH, () => {
        this.#encoder.off('error', reject);
        resolve(this.take());
      });
    });
  }

  endWith(data: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.#encoder.once('error', reject);
      this.#encoder.once('end', () => resolve(this.take()));
      this.#encoder.end(data);
      // 'end' only fires once the readable side is drained, which the data listener already does.
    });
  }
}

function compressWhole(size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const encoder = createBrotliCompress({
      params: { ...PARAMETERS, [constants.BROTLI_PARAM_SIZE_HINT]: size },
    });
    const collector = new PieceCollector(encoder);
    encoder.once('error', reject);
    encoder.once('end', () => resolve(collector.take()));
    const run = Buffer.alloc(Math.min(size, RUN_SIZE));
    let written = 0;
    const pump = () => {
      while (written < size) {
        const length = Math.min(RUN_SIZE, size - written);
        written += length;
        if (!encoder.write(length === run.length ? run : run.subarray(0, length))) {
          encoder.once('drain', pump);
          return;
        }
      }
      encoder.end();
    };
    pump();
  });
}

/** A brotli stream that decompresses to exactly `size` zero bytes. */
export async function brotliBomb(size: number): Promise<Buffer> {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a safe integer ≥ 0');
  const runs = Math.floor(size / RUN_SIZE);
  if (runs < 3) {
    return new Promise((resolve, reject) =>
      brotliCompress(Buffer.alloc(size), { params: PARAMETERS }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  }
  const run = Buffer.alloc(RUN_SIZE);
  const collector = new PieceCollector(createBrotliCompress({ params: PARAMETERS }));
  const first = await collector.flushAfter(run);
  const steady = await collector.flushAfter(run);
  const check = await collector.flushAfter(run);
  const tail = await collector.endWith(Buffer.alloc(size % RUN_SIZE));
  if (!steady.equals(check)) return compressWhole(size);
  // The tail was encoded after three runs; the decoder is in that same state after any number ≥ 2.
  return Buffer.concat([first, ...Array.from({ length: runs - 1 }, () => steady), tail]);
}
