import { WebToolError } from '@mono-agent/budget-policy';
import { parseDomainList } from './domain-filter.js';
import { TIME_RANGES, type TimeRange } from './search-provider.js';

/** The fewest results a search may ask for. */
export const MIN_RESULT_LIMIT = 1;
/** The most results a search may ask for. */
export const MAX_RESULT_LIMIT = 10;
/** The result limit when the caller gives none. */
export const DEFAULT_RESULT_LIMIT = 5;
/** The most alternate wordings one search may carry. */
export const MAX_ALTERNATE_QUERIES = 3;
/** The longest query (and alternate) in characters: DuckDuckGo refuses 500 or more. */
export const MAX_QUERY_CHARS = 499;
/** The longest language tag accepted. */
export const MAX_LANGUAGE_CHARS = 35;

/** A search as the tool receives it (after schema validation of its types). */
export interface SearchRequestInput {
  /** The main query, sent unchanged. */
  query: string;
  /** Other wordings, tried in order only while nothing relevant was accepted. */
  alternateQueries?: readonly string[];
  /** How many results to return (1–10). */
  limit?: number;
  /** Only results within these domains (and their subdomains). */
  domains?: readonly string[];
  /** No results within these domains. */
  excludeDomains?: readonly string[];
  /** A language tag such as `en` or `pt-BR`. */
  language?: string;
  /** A freshness limit. */
  timeRange?: TimeRange;
}

/** A validated search request. */
export interface SearchRequest {
  /** The main query. */
  query: string;
  /** Alternate wordings (0–3), de-duplicated, without the main query. */
  alternateQueries: string[];
  /** Result limit, 1–10. */
  limit: number;
  /** Parsed include domains. */
  domains: string[];
  /** Parsed exclude domains. */
  excludeDomains: string[];
  /** Language tag, when given. */
  language?: string;
  /** Time range, when given. */
  timeRange?: TimeRange;
}

function invalid(field: string, message: string): WebToolError {
  return new WebToolError({ code: 'validation_error', message: `${field} ${message}`, details: { field } });
}

function checkQuery(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'must be a non-empty string');
  if (value.length > MAX_QUERY_CHARS) throw invalid(field, `must be at most ${MAX_QUERY_CHARS} characters`);
  return value;
}

/** Validates and normalizes a search request; throws `validation_error` naming the field and rule. */
export function parseSearchRequest(input: SearchRequestInput): SearchRequest {
  const query = checkQuery(input.query, 'query');
  const alternates = input.alternateQueries ?? [];
  if (!Array.isArray(alternates) || alternates.length > MAX_ALTERNATE_QUERIES) {
    throw invalid('alternate_queries', `must be a list of at most ${MAX_ALTERNATE_QUERIES} queries`);
  }
  const alternateQueries = [
    ...new Set(alternates.map((alternate, index) => checkQuery(alternate, `alternate_queries[${index}]`))),
  ].filter((alternate) => alternate !== query);
  const limit = input.limit ?? DEFAULT_RESULT_LIMIT;
  if (!Number.isInteger(limit) || limit < MIN_RESULT_LIMIT || limit > MAX_RESULT_LIMIT) {
    throw invalid('limit', `must be an integer from ${MIN_RESULT_LIMIT} through ${MAX_RESULT_LIMIT}`);
  }
  if (input.timeRange !== undefined && !(TIME_RANGES as readonly string[]).includes(input.timeRange)) {
    throw invalid('time_range', `must be one of ${TIME_RANGES.join(', ')}`);
  }
  if (
    input.language !== undefined &&
    (input.language.length > MAX_LANGUAGE_CHARS ||
      !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(input.language))
  ) {
    throw invalid('language', 'must be a language tag such as en or pt-BR');
  }
  return {
    query,
    alternateQueries,
    limit,
    domains: parseDomainList(input.domains, 'domains'),
    excludeDomains: parseDomainList(input.excludeDomains, 'exclude_domains'),
    ...(input.language === undefined ? {} : { language: input.language }),
    ...(input.timeRange === undefined ? {} : { timeRange: input.timeRange }),
  };
}
