import { HOSTILE_KINDS, type HostileName, hostilePage } from '../hostile/hostile-pages.js';
import { integerQuery } from '../query-parameters.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send } from '../send.js';

/** The largest decoded size a bomb page may ask for: 16 GiB. */
const MAX_BOMB_SIZE = 2 ** 34;
/** The largest count or depth a page may ask for, so the fixture itself stays small. */
const MAX_COUNT = 10_000_000;

/** `/hostile/<name>?<parameter>=<n>`: one of the pages of `HOSTILE_KINDS`, built from its parameters. */
export const hostileRoute: Route = {
  pattern: '/hostile/:name',
  handle(context) {
    const name = context.params['name'] ?? '';
    if (!Object.hasOwn(HOSTILE_KINDS, name)) {
      throw new BadRequestError(
        `unknown hostile page "${name}"; one of ${Object.keys(HOSTILE_KINDS).join(', ')}`,
        404,
      );
    }
    const defaults: Readonly<Record<string, number>> = HOSTILE_KINDS[name as HostileName].defaults;
    const parameters: Record<string, number> = {};
    for (const [key, fallback] of Object.entries(defaults)) {
      parameters[key] = integerQuery(context.url, key, {
        fallback,
        min: 0,
        max: key === 'size' ? MAX_BOMB_SIZE : MAX_COUNT,
      });
    }
    const page = hostilePage(name as HostileName, parameters);
    send(context, 200, { 'content-type': page.contentType }, page.body);
  },
};
