import zlib from 'node:zlib';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import { MAX_CONTENT_ENCODINGS } from './decode-stream.js';
import { httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';
import { MAX_DECODED_BYTES, MAX_WIRE_BYTES } from './read-body.js';

const MiB = 1024 * 1024;
let web: LoopbackWeb;
const policy: NetworkPolicy = { mode: 'localhost' };

/** Serves `body` with the given encoding, in 64 KiB chunks, with or without a Content-Length. */
function serve(path: string, body: Uint8Array, encoding?: string, withLength = true): void {
  web.scenario(path, (_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
      ...(withLength ? { 'content-length': String(body.length) } : {}),
    });
    response.on('error', () => undefined);
    let offset = 0;
    const writeMore = (): void => {
      while (offset < body.length && !response.destroyed) {
        const chunk = body.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', writeMore);
          return;
        }
      }
      if (!response.destroyed) response.end();
    };
    writeMore();
  });
}

async function failure(run: Promise<unknown>): Promise<WebToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
}

const zeros = (length: number) => Buffer.alloc(length);

beforeAll(async () => {
  web = await startLoopbackWeb();
  // 1024 gzip members of 1 MiB of zeros each: a valid 1 GiB gzip body of about 1 MB.
  const member = zlib.gzipSync(zeros(MiB), { level: 9 });
  const gzipBomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
  serve('/bomb/gzip', gzipBomb, 'gzip');
  serve('/bomb/gzip-gzip', zlib.gzipSync(gzipBomb), 'gzip, gzip');
  const fast = { level: 1 };
  serve('/bomb/deflate', zlib.deflateSync(zeros(32 * MiB), fast), 'deflate');
  serve('/bomb/deflate-raw', zlib.deflateRawSync(zeros(32 * MiB), fast), 'deflate');
  const brotliFast = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };
  serve('/bomb/br', zlib.brotliCompressSync(zeros(64 * MiB), brotliFast), 'br');
  serve('/decoded/at-bound', zlib.gzipSync(zeros(MAX_DECODED_BYTES), fast), 'gzip');
  serve('/decoded/past-bound', zlib.gzipSync(zeros(MAX_DECODED_BYTES + 1), fast), 'gzip');
  serve('/wire/at-bound', zeros(MAX_WIRE_BYTES));
  serve('/wire/past-bound', zeros(21 * MiB));
  serve('/wire/at-bound-chunked', zeros(MAX_WIRE_BYTES), undefined, false);
  serve('/wire/past-bound-chunked', zeros(MAX_WIRE_BYTES + 1), undefined, false);
  serve('/small/raw-deflate', zlib.deflateRawSync(Buffer.from('raw deflate text')), 'deflate');
  serve('/small/zlib-deflate', zlib.deflateSync(Buffer.from('zlib deflate text')), 'deflate');
  serve('/small/br', zlib.brotliCompressSync(Buffer.from('brotli text')), 'br');
  let stacked: Buffer = Buffer.from('three layers');
  for (let layer = 0; layer < MAX_CONTENT_ENCODINGS; layer += 1) stacked = zlib.gzipSync(stacked);
  serve('/layers/at-bound', stacked, Array(MAX_CONTENT_ENCODINGS).fill('gzip').join(', '));
  serve(
    '/layers/past-bound',
    zlib.gzipSync(stacked),
    Array(MAX_CONTENT_ENCODINGS + 1)
      .fill('gzip')
      .join(', '),
  );
  serve('/unknown-coding', Buffer.from('whatever'), 'zstd');
  web.scenario('/cut-short', (_request, response) => {
    response.writeHead(200, { 'content-length': '100' });
    response.write('only ten b', () => response.socket?.destroy());
  });
  serve('/corrupt-gzip', Buffer.from('this is not gzip at all'), 'gzip');
});
afterAll(() => web.close());

describe('decompression bombs', () => {
  it('stops a 1 GiB gzip bomb at the decoded cap with bounded memory', async () => {
    // Warm up module loading and buffers first, so the measurement sees the bomb only.
    await failure(httpRequest(web.url('/bomb/gzip'), { policy }));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const error = await failure(httpRequest(web.url('/bomb/gzip'), { policy }));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ stage: 'decoded', limit: MAX_DECODED_BYTES });
    expect(peak - before).toBeLessThan(100 * MiB);
    // Stopping reading also closed the connection the bomb came on.
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it.each(['/bomb/gzip-gzip', '/bomb/deflate', '/bomb/deflate-raw', '/bomb/br'])(
    'stops %s at the decoded cap',
    async (path) => {
      const error = await failure(httpRequest(web.url(path), { policy }));
      expect(error.code).toBe('too_large');
      expect(error.details).toMatchObject({ stage: 'decoded' });
    },
  );
});

describe('decoded cap', () => {
  it(`passes a body decoding to exactly ${MAX_DECODED_BYTES} bytes`, async () => {
    const response = await httpRequest(web.url('/decoded/at-bound'), { policy });
    expect(response.body.length).toBe(MAX_DECODED_BYTES);
    expect(response.wireBytes).toBeLessThan(MiB);
  });

  it('fails one byte past it', async () => {
    const error = await failure(httpRequest(web.url('/decoded/past-bound'), { policy }));
    expect(error.code).toBe('too_large');
  });

  it('honours a smaller caller cap at and past its bound', async () => {
    const options = { policy, maxDecodedBytes: 16 };
    expect((await httpRequest(web.url('/small/raw-deflate'), options)).body.length).toBe(16);
    const error = await failure(httpRequest(web.url('/small/zlib-deflate'), options));
    expect(error.details).toMatchObject({ stage: 'decoded', limit: 16 });
  });
});

describe('wire cap', () => {
  it(`passes exactly ${MAX_WIRE_BYTES} bytes, with and without Content-Length`, async () => {
    for (const path of ['/wire/at-bound', '/wire/at-bound-chunked']) {
      const response = await httpRequest(web.url(path), { policy });
      expect(response.wireBytes).toBe(MAX_WIRE_BYTES);
      expect(response.body.length).toBe(MAX_WIRE_BYTES);
    }
  });

  it('fails a 21 MiB body as too_large from its Content-Length, before reading it', async () => {
    const error = await failure(httpRequest(web.url('/wire/past-bound'), { policy }));
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ stage: 'wire', contentLength: 21 * MiB });
  });

  it('fails one byte past the cap while streaming when no length is declared', async () => {
    const error = await failure(httpRequest(web.url('/wire/past-bound-chunked'), { policy }));
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ stage: 'wire', limit: MAX_WIRE_BYTES });
  });

  it('fails a body cut short of its Content-Length as a transport failure', async () => {
    const error = await failure(httpRequest(web.url('/cut-short'), { policy, retries: 0 }));
    expect(error.code).toBe('backend_unavailable');
  });

  it('honours a smaller caller cap', async () => {
    const error = await failure(
      httpRequest(web.url('/wire/at-bound-chunked'), { policy, maxWireBytes: MiB }),
    );
    expect(error.details).toMatchObject({ stage: 'wire', limit: MiB });
  });
});

describe('content codings', () => {
  it('decodes zlib deflate, raw deflate and brotli', async () => {
    const decode = async (path: string) =>
      Buffer.from((await httpRequest(web.url(path), { policy })).body).toString('utf8');
    expect(await decode('/small/zlib-deflate')).toBe('zlib deflate text');
    expect(await decode('/small/raw-deflate')).toBe('raw deflate text');
    expect(await decode('/small/br')).toBe('brotli text');
  });

  it(`decodes ${MAX_CONTENT_ENCODINGS} stacked codings and refuses one more`, async () => {
    const response = await httpRequest(web.url('/layers/at-bound'), { policy });
    expect(Buffer.from(response.body).toString('utf8')).toBe('three layers');
    const error = await failure(httpRequest(web.url('/layers/past-bound'), { policy }));
    expect(error.code).toBe('unsupported_content');
    expect(error.details).toMatchObject({ limit: MAX_CONTENT_ENCODINGS });
  });

  it('refuses an unknown coding and reports a corrupt body as a backend failure', async () => {
    expect((await failure(httpRequest(web.url('/unknown-coding'), { policy }))).code).toBe(
      'unsupported_content',
    );
    const corrupt = await failure(httpRequest(web.url('/corrupt-gzip'), { policy }));
    expect(corrupt.code).toBe('backend_unavailable');
    expect(corrupt.details).toMatchObject({ stage: 'decode' });
  });
});
