import { BOMB_ENCODINGS, type BombLayers, buildBomb } from '../bombs/bomb-body.js';
import { choiceQuery, integerQuery, parseChoice } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { writeAll } from '../write-with-backpressure.js';

/** The default decoded size of a bomb: 1 GiB. */
export const DEFAULT_BOMB_SIZE = 2 ** 30;

/** The largest decoded size a bomb may claim: 64 GiB, whose two-layer form is still built in a second. */
export const MAX_BOMB_SIZE = 2 ** 36;

/**
 * `/bomb/<gzip|deflate|br>?size=<decoded bytes>&layers=<1|2>`: a small body that decodes to `size`
 * zero bytes. gzip and deflate default to two layers, because one deflate layer cannot get below about
 * a thousandth of its output; brotli defaults to one, which is already under a KiB.
 */
export const bombRoute: Route = {
  pattern: '/bomb/:encoding',
  async handle(context) {
    const { url, response, signal } = context;
    const known = parseChoice('encoding', context.params['encoding'], BOMB_ENCODINGS);
    const size = integerQuery(url, 'size', { fallback: DEFAULT_BOMB_SIZE, min: 0, max: MAX_BOMB_SIZE });
    const layers = Number(choiceQuery(url, 'layers', ['1', '2'], known === 'br' ? '1' : '2')) as BombLayers;
    const bomb = await buildBomb(known, size, layers);
    if (signal.aborted) return;
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-encoding': bomb.contentEncoding,
      'content-length': String(bomb.length),
      'x-fixture-decoded-length': String(bomb.decodedLength),
    });
    if (context.request.method === 'HEAD') {
      response.end();
      return;
    }
    await writeAll(response, bomb.chunks(), signal);
  },
};
