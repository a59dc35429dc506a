import { BadRequestError } from './route-context.js';

/** Bounds and fallback for an integer taken from the path or the query string. */
export interface IntegerRule {
  /** The value when the parameter is absent; without it the parameter is required. */
  readonly fallback?: number;
  /** The smallest accepted value. */
  readonly min: number;
  /** The largest accepted value. */
  readonly max: number;
}

/** Parses a decimal integer, rejecting anything else with a 400 that names the parameter. */
export function parseInteger(name: string, raw: string | null | undefined, rule: IntegerRule): number {
  if (raw === null || raw === undefined || raw === '') {
    if (rule.fallback === undefined) throw new BadRequestError(`${name} is required`);
    return rule.fallback;
  }
  if (!/^\d+$/.test(raw)) throw new BadRequestError(`${name} must be a non-negative integer, got "${raw}"`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < rule.min || value > rule.max) {
    throw new BadRequestError(`${name} must be between ${rule.min} and ${rule.max}, got ${raw}`);
  }
  return value;
}

/** An integer query parameter; see `parseInteger`. */
export function integerQuery(url: URL, name: string, rule: IntegerRule): number {
  return parseInteger(name, url.searchParams.get(name), rule);
}

/** One of a fixed set of values from the path or the query; the fallback when absent, if there is one. */
export function parseChoice<const Choice extends string>(
  name: string,
  raw: string | null | undefined,
  choices: readonly Choice[],
  fallback?: Choice,
): Choice {
  if ((raw === null || raw === undefined || raw === '') && fallback !== undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw ?? '')) {
    throw new BadRequestError(`${name} must be one of ${choices.join(', ')}, got "${raw ?? ''}"`);
  }
  return raw as Choice;
}

/** A query parameter restricted to a fixed set of values; see `parseChoice`. */
export function choiceQuery<const Choice extends string>(
  url: URL,
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  return parseChoice(name, url.searchParams.get(name), choices, fallback);
}

/**
 * Headers given as repeated `header=Name:Value` parameters; a repeated name becomes a list. Names are
 * lower-cased so they override a route's defaults instead of being sent twice.
 */
export function headerQuery(url: URL): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const raw of url.searchParams.getAll('header')) {
    const colon = raw.indexOf(':');
    if (colon <= 0) throw new BadRequestError(`header must look like Name:Value, got "${raw}"`);
    const name = raw.slice(0, colon).trim().toLowerCase();
    const value = raw.slice(colon + 1).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new BadRequestError(`bad header name "${name}"`);
    if (/[\r\n\0]/.test(value)) throw new BadRequestError(`bad value for header ${name}`);
    const existing = headers[name];
    if (existing) existing.push(value);
    else headers[name] = [value];
  }
  return headers;
}
