/**
 * Matches `pathname` against a pattern such as `/redirect/:hops`; returns the decoded parameters, or
 * `undefined` when it does not match. A pattern ending in `/*` matches that prefix and anything below it.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -2);
    return pathname === prefix || pathname.startsWith(`${prefix}/`) ? {} : undefined;
  }
  const patternParts = pattern.split('/');
  const pathParts = pathname.split('/');
  if (patternParts.length !== pathParts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] ?? '';
    if (part.startsWith(':')) {
      if (actual === '') return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (part !== actual) {
      return undefined;
    }
  }
  return params;
}
