import { binaryPattern, patternChunks } from '../body-pattern.js';
import { integerQuery, parseInteger } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { writeAll } from '../write-with-backpressure.js';

/** The largest `/bytes/<n>`: 1 TiB, far more than any test reads, still never allocated. */
export const MAX_BYTES = 2 ** 40;

/** The largest `chunk` a `/bytes` request may ask for. */
export const MAX_CHUNK = 16 * 1024 * 1024;

/**
 * `/bytes/<n>`: exactly `n` bytes of `binaryPattern`, produced chunk by chunk as the client reads them,
 * with a Content-Length unless `length=omit` asks for chunked transfer.
 */
export const bytesRoute: Route = {
  pattern: '/bytes/:count',
  async handle(context) {
    const { url, response, signal } = context;
    const total = parseInteger('count', context.params['count'], { min: 0, max: MAX_BYTES });
    const chunkSize = integerQuery(url, 'chunk', { fallback: 65_536, min: 1, max: MAX_CHUNK });
    const omitLength = url.searchParams.get('length') === 'omit';
    response.writeHead(200, {
      'content-type': url.searchParams.get('content-type') ?? 'application/octet-stream',
      ...(omitLength ? {} : { 'content-length': String(total) }),
    });
    if (context.request.method === 'HEAD') {
      response.end();
      return;
    }
    await writeAll(response, patternChunks(binaryPattern, total, chunkSize), signal);
  },
};
