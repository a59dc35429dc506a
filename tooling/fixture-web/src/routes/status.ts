import { STATUS_CODES } from 'node:http';
import { headerQuery, parseInteger } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { send } from '../send.js';

/**
 * `/status/<code>`: any final status with the headers and body the query asks for, e.g. a 429 with
 * `header=Retry-After:2`, or a 301 without a Location.
 */
export const statusRoute: Route = {
  pattern: '/status/:code',
  handle(context) {
    const { url } = context;
    const status = parseInteger('code', context.params['code'], { min: 200, max: 599 });
    const body = url.searchParams.get('body') ?? `${status} ${STATUS_CODES[status] ?? 'Unknown'}\n`;
    send(
      context,
      status,
      {
        'content-type': url.searchParams.get('content-type') ?? 'text/plain; charset=utf-8',
        ...headerQuery(url),
      },
      body,
    );
  },
};
