import { headerQuery, integerQuery, parseInteger } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { send, sendJson } from '../send.js';

/**
 * `/flaky/<key>`: the first `fail` requests for `key` fail, later ones succeed. Failure is a status
 * (default 503, optionally with Retry-After) or, with `status=reset`, a connection dropped without any
 * response. Counts live on the fixture instance, so parallel tests only need distinct keys.
 */
export const flakyRoute: Route = {
  pattern: '/flaky/:key',
  handle(context) {
    const { url, state, response } = context;
    const key = context.params['key'] ?? '';
    const failures = integerQuery(url, 'fail', { fallback: 1, min: 0, max: 1_000_000 });
    const rawStatus = url.searchParams.get('status') ?? '503';
    const reset = rawStatus === 'reset';
    const status = reset ? 0 : parseInteger('status', rawStatus, { min: 400, max: 599 });
    const retryAfter = url.searchParams.get('retry-after');

    const attempt = (state.flakyAttempts.get(key) ?? 0) + 1;
    state.flakyAttempts.set(key, attempt);
    const attemptHeader = { 'x-fixture-attempt': String(attempt) };

    if (attempt > failures) {
      sendJson(context, 200, { key, attempt, failures }, attemptHeader);
      return;
    }
    if (reset) {
      response.socket?.destroy();
      return;
    }
    send(
      context,
      status,
      {
        'content-type': 'text/plain; charset=utf-8',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
        ...attemptHeader,
        ...headerQuery(url),
      },
      `attempt ${attempt} of ${failures} failing attempts for ${key}\n`,
    );
  },
};
