import { textPattern } from '../body-pattern.js';
import { integerQuery } from '../query-parameters.js';
import type { Route } from '../route-context.js';

/**
 * `/trickle?rate=<bytes per second>&bytes=<total>`: headers at once, then the body a few bytes at a
 * time at the given rate, for testing read timeouts that a whole-request deadline would not catch.
 */
export const trickleRoute: Route = {
  pattern: '/trickle',
  handle(context) {
    const { url, response, signal } = context;
    const rate = integerQuery(url, 'rate', { fallback: 10, min: 1, max: 100_000_000 });
    const total = integerQuery(url, 'bytes', { fallback: 1000, min: 0, max: 1 << 30 });
    const omitLength = url.searchParams.get('length') === 'omit';
    response.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      ...(omitLength ? {} : { 'content-length': String(total) }),
    });
    if (context.request.method === 'HEAD' || total === 0) {
      response.end();
      return;
    }
    // Headers should reach the client now, not with the first body byte.
    response.flushHeaders();

    // The schedule is computed from elapsed time rather than counted ticks, so timer jitter does not
    // change the average rate; ticks are as small as the rate allows, down to 10 ms.
    const started = performance.now();
    const tickMs = Math.min(100, Math.max(10, Math.ceil(1000 / rate)));
    let sent = 0;
    const timer = setInterval(() => {
      if (response.writableNeedDrain) return;
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
      if (due > sent) {
        const chunk = Buffer.allocUnsafe(due - sent);
        for (let index = 0; index < chunk.length; index += 1) chunk[index] = textPattern.at(sent + index);
        response.write(chunk);
        sent = due;
      }
      if (sent >= total) {
        clearInterval(timer);
        response.end();
      }
    }, tickMs);
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  },
};
