import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import { brotliBomb } from './brotli-bomb.js';
import { deflateBomb, type StreamedBody } from './deflate-bomb.js';

/** The content codings a bomb can use, named as in Content-Encoding. */
export type BombEncoding = 'gzip' | 'deflate' | 'br';

/** Every bomb encoding, for validating the route parameter. */
export const BOMB_ENCODINGS: readonly BombEncoding[] = ['gzip', 'deflate', 'br'];

/** How many times the body is compressed; each layer is listed once in Content-Encoding. */
export type BombLayers = 1 | 2;

/** A ready-to-send bomb. */
export interface Bomb extends StreamedBody {
  /** The Content-Encoding header value, e.g. `gzip, gzip` for two layers. */
  readonly contentEncoding: string;
  /** The bytes left after every layer is decoded. */
  readonly decodedLength: number;
}

const MAX_CACHED_BOMBS = 16;
// Keyed by encoding, size and layers; a promise, so concurrent first requests share one build.
const cache = new Map<string, Promise<Bomb>>();

/**
 * Builds (or reuses) a body that decodes to `size` zero bytes. One gzip or deflate layer is bounded by
 * deflate's ~1032:1 limit; a second layer squeezes that repetitive first layer down to a few KiB.
 */
export function buildBomb(encoding: BombEncoding, size: number, layers: BombLayers): Promise<Bomb> {
  if (encoding !== 'br' && layers === 1) return Promise.resolve(singleDeflateLayer(encoding, size));
  const key = `${encoding}:${size}:${layers}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const built = buildBuffered(encoding, size, layers);
  cache.set(key, built);
  built.catch(() => cache.delete(key));
  while (cache.size > MAX_CACHED_BOMBS) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return built;
}

function singleDeflateLayer(encoding: 'gzip' | 'deflate', size: number): Bomb {
  const body = deflateBomb(encoding === 'gzip' ? 'gzip' : 'zlib', size);
  return { ...body, chunks: () => body.chunks(), contentEncoding: encoding, decodedLength: size };
}

async function buildBuffered(encoding: BombEncoding, size: number, layers: BombLayers): Promise<Bomb> {
  const inner: Iterable<Buffer> =
    encoding === 'br'
      ? [await brotliBomb(size)]
      : deflateBomb(encoding === 'gzip' ? 'gzip' : 'zlib', size).chunks();
  const body = layers === 2 ? await compressChunks(encoding, inner) : Buffer.concat([...inner]);
  return {
    length: body.length,
    chunks: () => [body],
    contentEncoding: Array.from({ length: layers }, () => encoding).join(', '),
    decodedLength: size,
  };
}

function encoderFor(encoding: BombEncoding): Transform {
  if (encoding === 'gzip') return createGzip({ level: 9 });
  if (encoding === 'deflate') return createDeflate({ level: 9 });
  return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
}

/** Compresses a stream of chunks into one buffer without ever holding the uncompressed input. */
export async function compressChunks(encoding: BombEncoding, chunks: Iterable<Buffer>): Promise<Buffer> {
  const output: Buffer[] = [];
  await pipeline(Readable.from(chunks, { objectMode: false }), encoderFor(encoding), async (source) => {
    for await (const chunk of source) output.push(chunk as Buffer);
  });
  return Buffer.concat(output);
}
