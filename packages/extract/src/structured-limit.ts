import { WebToolError } from '@mono-agent/budget-policy';

/** The largest body any parser (HTML, JSON, XML, feed, PDF) is given: 8 MiB. */
export const MAX_STRUCTURED_PARSE_BYTES = 8 * 1024 * 1024;

/** Throws `too_large` when a body to be parsed is over {@link MAX_STRUCTURED_PARSE_BYTES}. */
export function assertParseable(byteLength: number, kind: string): void {
  if (byteLength <= MAX_STRUCTURED_PARSE_BYTES) return;
  throw new WebToolError({
    code: 'too_large',
    message: `The ${kind} body is ${byteLength} bytes; structured parsing stops at ${MAX_STRUCTURED_PARSE_BYTES} bytes. Ask for format "raw" to read it undecoded by a parser.`,
    details: { bytes: byteLength, limit: MAX_STRUCTURED_PARSE_BYTES, kind },
  });
}
