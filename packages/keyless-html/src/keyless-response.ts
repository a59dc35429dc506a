/** Header values as Node's `IncomingHttpHeaders` and most HTTP clients hand them over. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The part of the Fetch API `Headers` class that the parsers use. */
export interface HeadersLike {
  /** The combined value of one header, or `null` when absent. */
  get(name: string): string | null;
}

/** One HTTP response from a keyless engine, as the caller received it (redirects not followed). */
export interface KeylessResponse {
  /** The HTTP status code. */
  status: number;
  /** Response headers: a record with lower-case names, or a `Headers`-like object. */
  headers: HeaderRecord | HeadersLike;
  /** The decoded response body. */
  body: string;
  /** The URL that answered, used to resolve relative links and to spot captcha pages. */
  url?: string;
}

function isHeadersLike(headers: HeaderRecord | HeadersLike): headers is HeadersLike {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** The value of one response header, whichever shape the headers came in; `undefined` when absent. */
export function readHeader(headers: HeaderRecord | HeadersLike, name: string): string | undefined {
  const lowerName = name.toLowerCase();
  if (isHeadersLike(headers)) return headers.get(lowerName) ?? undefined;
  let value = headers[lowerName];
  if (value === undefined) {
    // Records built by hand do not always follow the lower-case convention.
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === lowerName) {
        value = headers[key];
        break;
      }
    }
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}
