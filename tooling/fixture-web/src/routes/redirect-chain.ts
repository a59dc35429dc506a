import { buildUrl, isLoopbackHost, type LoopbackHost } from '../loopback-hosts.js';
import { choiceQuery, parseInteger } from '../query-parameters.js';
import { BadRequestError, type Route, type RouteContext } from '../route-context.js';
import { send } from '../send.js';

/** The redirect statuses a chain may use. */
export const REDIRECT_STATUSES = ['301', '302', '303', '307', '308'] as const;

/** The most hops one chain may have; enough to trip any client's redirect limit. */
export const MAX_REDIRECT_HOPS = 1000;

/**
 * `/redirect/<hops>`: `hops` redirect responses in a row, the last one pointing at `to`. Each hop
 * takes the next name from the comma-separated `host` list, so a chain can move between loopback names
 * while staying on the same server.
 */
export const redirectChainRoute: Route = {
  pattern: '/redirect/:hops',
  handle(context: RouteContext) {
    const { url, params } = context;
    const hops = parseInteger('hops', params['hops'], { min: 1, max: MAX_REDIRECT_HOPS });
    const status = Number(choiceQuery(url, 'status', REDIRECT_STATUSES, '302'));
    const target = url.searchParams.get('to') ?? '/echo';
    if (!target.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      throw new BadRequestError('to must be a path starting with / or an absolute URL');
    }
    const hosts = parseHosts(url.searchParams.get('host'));
    const [nextHost, ...laterHosts] = hosts;

    let nextPath = target;
    if (hops > 1) {
      const query = new URLSearchParams(url.searchParams);
      if (laterHosts.length > 0) query.set('host', laterHosts.join(','));
      else query.delete('host');
      const search = query.toString();
      nextPath = `/redirect/${hops - 1}${search === '' ? '' : `?${search}`}`;
    }

    let location: string;
    if (nextPath.startsWith('/') && nextHost !== undefined) {
      location = buildUrl(nextHost, context.state.port, nextPath);
    } else if (nextPath.startsWith('/') && url.searchParams.get('absolute') === '1') {
      location = new URL(nextPath, url).href;
    } else {
      location = nextPath;
    }

    send(
      context,
      status,
      { location, 'content-type': 'text/plain; charset=utf-8', 'x-fixture-hops-left': String(hops - 1) },
      `redirecting to ${location}\n`,
    );
  },
};

function parseHosts(raw: string | null): LoopbackHost[] {
  if (raw === null || raw === '') return [];
  return raw.split(',').map((host) => {
    const trimmed = host.trim();
    if (!isLoopbackHost(trimmed)) throw new BadRequestError(`host must be a loopback name, got "${trimmed}"`);
    return trimmed;
  });
}
