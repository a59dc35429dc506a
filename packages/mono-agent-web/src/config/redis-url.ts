import type { ConfigField } from './config-field.js';
import type { ConfigProblems } from './config-problem.js';

/**
 * Checks the Redis server URL of `coordination: "redis"`: `redis://` or `rediss://` (TLS), a host, an
 * optional database number as the path, no query or fragment. A password in the URL is allowed (Redis
 * AUTH needs one) and is never echoed: problems name the key, not the value.
 */
export function checkRedisUrl(
  text: string,
  field: ConfigField,
  problems: ConfigProblems,
): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.add(
      field.key,
      'url',
      'is not a URL (expected redis://host:port or rediss://host:port)',
      field.label,
    );
    return undefined;
  }
  const before = problems.size;
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    problems.add(field.key, 'scheme', `must use redis:// or rediss://, not ${url.protocol}//`, field.label);
  }
  if (url.hostname === '') problems.add(field.key, 'url', 'must name a host', field.label);
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,2}$/.test(url.pathname)) {
    problems.add(field.key, 'path', 'may carry only a database number as its path, e.g. /0', field.label);
  }
  if (url.search !== '' || text.includes('?'))
    problems.add(field.key, 'query', 'must not contain a query', field.label);
  if (url.hash !== '' || text.includes('#'))
    problems.add(field.key, 'fragment', 'must not contain a fragment', field.label);
  return problems.size === before ? text : undefined;
}
