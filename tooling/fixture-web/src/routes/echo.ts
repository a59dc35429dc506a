import type { Route } from '../route-context.js';
import { sendJson } from '../send.js';

/**
 * `/echo`: the request as the server received it, as JSON. It is the default end of a redirect chain,
 * so a client test can see which headers survived each hop.
 */
export const echoRoute: Route = {
  pattern: '/echo',
  handle(context) {
    const { record } = context;
    sendJson(context, 200, {
      method: record.method,
      path: record.path,
      query: Object.fromEntries(
        [...new Set(record.query.keys())].map((key) => [key, record.query.getAll(key)] as const),
      ),
      host: record.host,
      localAddress: record.localAddress,
      headers: record.headers,
      body: context.body.toString('utf8'),
    });
  },
};
