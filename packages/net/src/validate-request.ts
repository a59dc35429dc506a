import { WebToolError } from '@mono-agent/budget-policy';

/** The only request headers a caller may set (lower case). Anything else is a validation error. */
export const ALLOWED_REQUEST_HEADERS = Object.freeze([
  'accept',
  'accept-language',
  'range',
  'user-agent',
] as const);

/** One allowed request header name. */
export type AllowedRequestHeader = (typeof ALLOWED_REQUEST_HEADERS)[number];

/** The longest header value (and Content-Type, and credential) accepted. */
export const MAX_HEADER_VALUE_LENGTH = 8192;

/** The longest URL accepted, in characters after parsing. */
export const MAX_URL_LENGTH = 8192;

const allowedHeaders = new Set<string>(ALLOWED_REQUEST_HEADERS);
// Visible ASCII, space and tab inside; no CR, LF or NUL, so no header can be smuggled in.
const headerValuePattern = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Parses and checks a request URL: http or https only, no embedded credentials, bounded length.
 * The fragment is dropped since it is never sent.
 */
export function validateRequestUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(typeof input === 'string' ? input : input.href);
  } catch (error) {
    throw invalid('the URL cannot be parsed', { field: 'url' }, error);
  }
  const problem = urlProblem(url);
  if (problem !== undefined)
    throw invalid(problem, { field: 'url', ...(url.protocol ? { scheme: url.protocol } : {}) });
  url.hash = '';
  return url;
}

/** Why a URL may not be requested, or `undefined` when it may; shared by the first URL and redirect targets. */
export function urlProblem(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https URLs may be requested, not ${url.protocol.replace(/:$/, '')}`;
  }
  if (url.username !== '' || url.password !== '') return 'URLs with embedded credentials are refused';
  if (url.href.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
  return undefined;
}

/** Checks caller headers against {@link ALLOWED_REQUEST_HEADERS} and returns them with lower-case names. */
export function validateRequestHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined) return result;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw invalid('headers must be an object of names to strings', { field: 'headers' });
  }
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!allowedHeaders.has(lower)) {
      throw invalid(
        `request header "${name}" is not allowed; only ${ALLOWED_REQUEST_HEADERS.join(', ')} may be set`,
        {
          field: 'headers',
          header: name,
        },
      );
    }
    if (lower in result)
      throw invalid(`request header "${name}" is given twice`, { field: 'headers', header: name });
    result[lower] = validateHeaderValue(value, name);
  }
  return result;
}

/** Checks one header value: a string, no line breaks, bounded length. */
export function validateHeaderValue(value: unknown, name: string): string {
  if (typeof value !== 'string')
    throw invalid(`header "${name}" must be a string`, { field: 'headers', header: name });
  if (value.length > MAX_HEADER_VALUE_LENGTH) {
    throw invalid(`header "${name}" is longer than ${MAX_HEADER_VALUE_LENGTH} characters`, {
      field: 'headers',
      header: name,
      limit: MAX_HEADER_VALUE_LENGTH,
    });
  }
  if (!headerValuePattern.test(value)) {
    throw invalid(`header "${name}" contains a control character`, { field: 'headers', header: name });
  }
  return value.trim();
}

function invalid(message: string, details: Record<string, unknown>, cause?: unknown): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details, cause });
}
