import type { Readable } from 'node:stream';
import { WebToolError } from '@mono-agent/budget-policy';
import { createDecoders } from './decode-stream.js';

/** The most bytes read from the wire for one response (before decoding). */
export const MAX_WIRE_BYTES = 20 * 1024 * 1024;

/** The most bytes one response may decode to (after every content coding is undone). */
export const MAX_DECODED_BYTES = 20 * 1024 * 1024;

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** The response's Content-Encoding header. */
  readonly contentEncoding?: string;
  /** The response's Content-Length header, checked before reading when present. */
  readonly contentLength?: string;
  /** The wire cap. */
  readonly maxWireBytes: number;
  /** The decoded cap. */
  readonly maxDecodedBytes: number;
  /** Stops reading and destroys the body when it fires. */
  readonly signal: AbortSignal;
  /** Told the wire bytes so far, and the declared length, as each chunk arrives (progress only). */
  readonly onBytes?: (received: number, declared: number | undefined) => void;
}

/** A body read to its end. */
export interface BodyRead {
  /** The decoded bytes. */
  readonly body: Uint8Array;
  /** The bytes that came over the wire. */
  readonly wireBytes: number;
}

/**
 * Reads a response body while streaming it through the content decoders, counting bytes before and
 * after decoding. Passing either cap is a `too_large` failure raised at the chunk that passed it; the
 * pipeline is destroyed at once, which also closes the connection. Nothing is buffered before counting.
 */
export async function readBody(body: Readable, options: ReadBodyOptions): Promise<BodyRead> {
  const declared = options.contentLength === undefined ? Number.NaN : Number(options.contentLength);
  if (declared > options.maxWireBytes) {
    discard(body);
    throw tooLarge('wire', options.maxWireBytes, declared);
  }
  let decoders: ReturnType<typeof createDecoders>;
  try {
    decoders = createDecoders(options.contentEncoding);
  } catch (error) {
    discard(body);
    throw error;
  }
  // Loaded with the first body read, not with the package (a refused search never reads one).
  const { Transform, Writable } = process.getBuiltinModule('node:stream');
  const { pipeline } = process.getBuiltinModule('node:stream/promises');
  let wireBytes = 0;
  const wireCounter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wireBytes += chunk.length;
      try {
        options.onBytes?.(wireBytes, Number.isInteger(declared) ? declared : undefined);
      } catch {
        // A progress display that fails must not fail the request it displays.
      }
      if (wireBytes > options.maxWireBytes) callback(tooLarge('wire', options.maxWireBytes));
      else callback(null, chunk);
    },
  });
  // With a declared length and nothing to decode, bytes go straight into one array of that size, so
  // a large plain body is held once instead of once in chunks and again when joined.
  let exact =
    decoders.length === 0 && Number.isInteger(declared) && declared <= options.maxDecodedBytes
      ? new Uint8Array(declared)
      : undefined;
  const chunks: Uint8Array[] = [];
  let decodedBytes = 0;
  const collector = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const offset = decodedBytes;
      decodedBytes += chunk.length;
      if (decodedBytes > options.maxDecodedBytes) {
        callback(tooLarge('decoded', options.maxDecodedBytes));
        return;
      }
      if (exact !== undefined && decodedBytes <= exact.length) {
        exact.set(chunk, offset);
      } else {
        if (exact !== undefined) chunks.push(exact.subarray(0, offset));
        exact = undefined;
        chunks.push(chunk);
      }
      callback();
    },
  });
  try {
    await pipeline([body, wireCounter, ...decoders, collector], { signal: options.signal });
  } catch (error) {
    if (WebToolError.isInstance(error)) throw error;
    if (decoders.length > 0 && isDecodeError(error)) {
      throw new WebToolError({
        code: 'backend_unavailable',
        message: 'the response body could not be decoded with its declared Content-Encoding',
        details: { stage: 'decode', contentEncoding: options.contentEncoding },
        cause: error,
      });
    }
    throw error;
  }
  if (exact !== undefined && decodedBytes === exact.length) return { body: exact, wireBytes };
  if (exact !== undefined) chunks.push(exact.subarray(0, decodedBytes));
  // A fresh array, not a view into Node's shared buffer pool.
  const joined = new Uint8Array(decodedBytes);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return { body: joined, wireBytes };
}

/** Destroys a body nobody will read; undici reports that as an abort error, which is expected here. */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function isDecodeError(error: unknown): boolean {
  // zlib and brotli failures carry a numeric errno and a Z_* or ERR__ERROR_* code.
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return (
    typeof errno === 'number' &&
    typeof code === 'string' &&
    (code.startsWith('Z_') || code.startsWith('ERR__'))
  );
}

function tooLarge(stage: 'wire' | 'decoded', limit: number, declared?: number): WebToolError {
  return new WebToolError({
    code: 'too_large',
    message:
      stage === 'wire'
        ? `the response is larger than ${limit} bytes on the wire`
        : `the response decodes to more than ${limit} bytes`,
    details: { stage, limit, ...(declared === undefined ? {} : { contentLength: declared }) },
  });
}
