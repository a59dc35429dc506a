import type { ServerResponse } from 'node:http';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  brotliCompressSync,
  createBrotliCompress,
  createDeflate,
  createDeflateRaw,
  createGzip,
  deflateRawSync,
  deflateSync,
  gzipSync,
} from 'node:zlib';
import { patternChunks, textPattern } from '../body-pattern.js';
import { parseChoice, parseInteger } from '../query-parameters.js';
import { findRecordedPage } from '../recorded-pages.js';
import { BadRequestError, type Route, type RouteContext } from '../route-context.js';
import { send } from '../send.js';

/** The content codings `/compressed` serves. */
export const COMPRESSED_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

type CompressedEncoding = (typeof COMPRESSED_ENCODINGS)[number];

/** The largest byte count `/compressed/<encoding>/<n>` accepts. */
export const MAX_COMPRESSED_BYTES = 2 ** 32;

/**
 * `/compressed/<gzip|deflate|br>/<page name or byte count>`: a recorded page (with its own content
 * type and a Content-Length), or `n` bytes of `textPattern` compressed on the fly and sent chunked.
 * `raw=1` with deflate sends a bare deflate stream without the zlib wrapper, as some servers wrongly do.
 */
export const compressedRoute: Route = {
  pattern: '/compressed/:encoding/:subject',
  async handle(context) {
    const { params, url } = context;
    const encoding = parseChoice('encoding', params['encoding'], COMPRESSED_ENCODINGS);
    const raw = url.searchParams.get('raw') === '1';
    if (raw && encoding !== 'deflate') throw new BadRequestError('raw=1 only applies to deflate');
    const subject = params['subject'] ?? '';

    if (/^\d+$/.test(subject)) {
      const total = parseInteger('count', subject, { min: 0, max: MAX_COMPRESSED_BYTES });
      await streamCompressed(context, encoding, raw, total);
      return;
    }
    const page = findRecordedPage(subject);
    if (!page) throw new BadRequestError(`no recorded page called "${subject}"; see /pages`, 404);
    const plain = await page.load();
    send(
      context,
      200,
      {
        'content-type': page.contentType,
        'content-encoding': encoding,
        vary: 'Accept-Encoding',
        'x-fixture-decoded-length': String(plain.length),
      },
      compressSync(encoding, raw, plain),
    );
  },
};

function compressSync(encoding: CompressedEncoding, raw: boolean, plain: Buffer): Buffer {
  if (encoding === 'gzip') return gzipSync(plain);
  if (encoding === 'br') return brotliCompressSync(plain);
  return raw ? deflateRawSync(plain) : deflateSync(plain);
}

function createEncoder(encoding: CompressedEncoding, raw: boolean): Transform {
  if (encoding === 'gzip') return createGzip();
  if (encoding === 'br') return createBrotliCompress();
  return raw ? createDeflateRaw() : createDeflate();
}

async function streamCompressed(
  context: RouteContext,
  encoding: CompressedEncoding,
  raw: boolean,
  total: number,
): Promise<void> {
  const response: ServerResponse = context.response;
  response.writeHead(200, {
    'content-type': 'text/plain; charset=utf-8',
    'content-encoding': encoding,
    vary: 'Accept-Encoding',
    'x-fixture-decoded-length': String(total),
  });
  if (context.request.method === 'HEAD') {
    response.end();
    return;
  }
  try {
    await pipeline(
      Readable.from(patternChunks(textPattern, total, 65_536), { objectMode: false }),
      createEncoder(encoding, raw),
      response,
      { signal: context.signal },
    );
  } catch (error) {
    // A client that stops reading ends the pipeline early; that is expected, anything else is not.
    if (!context.signal.aborted) throw error;
  }
}
