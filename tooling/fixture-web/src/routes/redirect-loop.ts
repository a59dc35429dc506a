import { integerQuery } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { send } from '../send.js';

/**
 * `/redirect-loop`: redirects back to itself forever. The hop count in the query changes every time,
 * so a client cannot spot the loop by URL alone and has to rely on its hop limit.
 */
export const redirectLoopRoute: Route = {
  pattern: '/redirect-loop',
  handle(context) {
    const hop = integerQuery(context.url, 'hop', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER - 1 });
    const location = `/redirect-loop?hop=${hop + 1}`;
    send(
      context,
      302,
      { location, 'content-type': 'text/plain; charset=utf-8' },
      `redirecting to ${location}\n`,
    );
  },
};
