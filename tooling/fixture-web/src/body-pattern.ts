/** A body made of one short period repeated, so any byte can be checked from its offset alone. */
export interface BodyPattern {
  /** Length of the repeating unit; a prime, so a chunk served twice or out of order shifts the phase. */
  readonly period: number;
  /** The byte at `offset` of a body built from this pattern. */
  at(offset: number): number;
}

const BINARY_PERIOD = 251;

/** Bytes `0, 1, …, 250, 0, 1, …`: the body of `/bytes/<n>`. */
export const binaryPattern: BodyPattern = {
  period: BINARY_PERIOD,
  at: (offset) => offset % BINARY_PERIOD,
};

const TEXT_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456 \n';

/** Printable ASCII with a newline every period: the body of `/trickle` and of compressed byte counts. */
export const textPattern: BodyPattern = {
  period: TEXT_ALPHABET.length,
  at: (offset) => TEXT_ALPHABET.charCodeAt(offset % TEXT_ALPHABET.length),
};

/**
 * Hands out consecutive slices of a pattern without copying: one buffer of `period + maxChunk` bytes is
 * filled once and every chunk is a view into it, so a 1 GiB body costs one small allocation.
 */
export class PatternSource {
  readonly #pattern: BodyPattern;
  readonly #buffer: Buffer;

  /** `maxChunk` is the largest slice that `slice()` will be asked for. */
  constructor(pattern: BodyPattern, maxChunk: number) {
    this.#pattern = pattern;
    this.#buffer = Buffer.allocUnsafe(pattern.period + maxChunk);
    for (let index = 0; index < this.#buffer.length; index += 1) this.#buffer[index] = pattern.at(index);
  }

  /** `length` bytes of the body starting at `offset`; a view that must not be written to. */
  slice(offset: number, length: number): Buffer {
    if (length > this.#buffer.length - this.#pattern.period)
      throw new RangeError('slice longer than maxChunk');
    const start = offset % this.#pattern.period;
    return this.#buffer.subarray(start, start + length);
  }
}

/** Yields the first `total` bytes of a pattern in chunks of `chunkSize`. */
export function* patternChunks(pattern: BodyPattern, total: number, chunkSize: number): Generator<Buffer> {
  const source = new PatternSource(pattern, Math.min(chunkSize, Math.max(total, 1)));
  for (let offset = 0; offset < total; offset += chunkSize) {
    yield source.slice(offset, Math.min(chunkSize, total - offset));
  }
}
