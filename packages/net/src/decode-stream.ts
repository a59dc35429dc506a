import type { Duplex, Transform } from 'node:stream';
import type zlib from 'node:zlib';
import { WebToolError } from '@mono-agent/budget-policy';

/** The most content codings one response may stack (`gzip, gzip` is two). */
export const MAX_CONTENT_ENCODINGS = 3;

/** The content codings this package decodes, as sent in Accept-Encoding. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

// Decoders emit at most this much per chunk, so one chunk past the cap is all that is ever inflated.
const DECODE_CHUNK_BYTES = 16 * 1024;

/**
 * The decoding stages for a Content-Encoding header, in the order they must run (the reverse of the
 * order the codings were applied). Throws `unsupported_content` for an unknown coding or a stack
 * deeper than {@link MAX_CONTENT_ENCODINGS}.
 */
export function createDecoders(contentEncoding: string | undefined): Duplex[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CONTENT_ENCODINGS) {
    throw new WebToolError({
      code: 'unsupported_content',
      message: `the response stacks ${codings.length} content codings; at most ${MAX_CONTENT_ENCODINGS} are decoded`,
      details: { contentEncoding: codings.join(', '), limit: MAX_CONTENT_ENCODINGS },
    });
  }
  for (const coding of codings) {
    if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(coding)) {
      throw new WebToolError({
        code: 'unsupported_content',
        message: `the response uses content coding "${coding}", which is not decoded`,
        details: { contentEncoding: coding },
      });
    }
  }
  return codings.reverse().map((coding) => createDecoder(coding));
}

// node:zlib and node:stream load with the first encoded body, not with the package: a process that
// never reads one (a search the policy refuses) does without them.
const zlibModule = () => process.getBuiltinModule('node:zlib');

function createDecoder(coding: string): Duplex {
  const zlib = zlibModule();
  // Truncated bodies are common on the web and still useful; flush what arrived instead of failing.
  const options = { chunkSize: DECODE_CHUNK_BYTES, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'br') {
    return zlib.createBrotliDecompress({
      chunkSize: DECODE_CHUNK_BYTES,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  }
  if (coding === 'deflate') return createDeflateDecoder(options);
  return zlib.createGunzip(options);
}

let DeflateDecoder: ReturnType<typeof defineDeflateDecoder> | undefined;
function createDeflateDecoder(options: zlib.ZlibOptions): Duplex {
  DeflateDecoder ??= defineDeflateDecoder();
  return new DeflateDecoder(options);
}

/**
 * `deflate` should be zlib-wrapped, but some servers send raw deflate; the first byte tells them
 * apart (a zlib header's low nibble is 8). Back-pressure is passed through in both directions.
 */
function defineDeflateDecoder() {
  const zlib = zlibModule();
  return class DeflateDecoder extends process.getBuiltinModule('node:stream').Duplex {
    #inner: Transform | undefined;
    readonly #options: zlib.ZlibOptions;

    constructor(options: zlib.ZlibOptions) {
      super();
      this.#options = options;
    }

    override _write(
      chunk: Buffer,
      _encoding: BufferEncoding,
      callback: (error?: Error | null) => void,
    ): void {
      const inner = this.#inner ?? this.#start(chunk);
      if (inner.write(chunk)) callback();
      else inner.once('drain', () => callback());
    }

    override _final(callback: (error?: Error | null) => void): void {
      if (this.#inner === undefined) this.push(null);
      else this.#inner.end();
      callback();
    }

    override _read(): void {
      this.#inner?.resume();
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
      this.#inner?.destroy();
      callback(error);
    }

    #start(first: Buffer): Transform {
      const zlibWrapped = ((first[0] ?? 0) & 0x0f) === 0x08;
      const inner = zlibWrapped ? zlib.createInflate(this.#options) : zlib.createInflateRaw(this.#options);
      inner.on('data', (data: Buffer) => {
        if (!this.push(data)) inner.pause();
      });
      inner.once('end', () => this.push(null));
      inner.once('error', (error) => this.destroy(error));
      this.#inner = inner;
      return inner;
    }
  };
}
