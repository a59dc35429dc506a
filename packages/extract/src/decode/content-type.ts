/** A parsed `Content-Type` header value. */
export interface ParsedContentType {
  /** The lower-case media type without parameters (`text/html`), or `undefined` when absent. */
  mediaType: string | undefined;
  /** The `charset` parameter as written (trimmed, unquoted), when present. */
  charset: string | undefined;
}

/** Splits a Content-Type value into its media type and charset; tolerant of odd spacing and quotes. */
export function parseContentType(value: string | undefined): ParsedContentType {
  if (value === undefined || value.trim() === '') return { mediaType: undefined, charset: undefined };
  const [type = '', ...parameters] = value.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals === -1) continue;
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const raw = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (raw !== '') charset = raw;
    break;
  }
  const mediaType = type.trim().toLowerCase();
  return { mediaType: mediaType === '' ? undefined : mediaType, charset };
}
