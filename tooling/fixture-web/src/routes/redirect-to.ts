import { integerQuery } from '../query-parameters.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send } from '../send.js';

/**
 * `/redirect-to?location=<anything>`: one redirect to a Location taken verbatim, for policy tests that
 * need a hop to a public address, another scheme, or a malformed value.
 */
export const redirectToRoute: Route = {
  pattern: '/redirect-to',
  handle(context) {
    const location = context.url.searchParams.get('location');
    if (location === null) throw new BadRequestError('location is required');
    if (/[\r\n\0]/.test(location)) throw new BadRequestError('location must not contain line breaks');
    const status = integerQuery(context.url, 'status', { fallback: 302, min: 300, max: 399 });
    send(
      context,
      status,
      { location, 'content-type': 'text/plain; charset=utf-8' },
      `redirecting to ${location}\n`,
    );
  },
};
