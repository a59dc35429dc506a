const encoder = new TextEncoder();

/** The UTF-8 size of a string in bytes. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (text.length * 3 <= maxBytes || utf8ByteLength(text) <= maxBytes) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read);
}

/** The longest suffix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Suffix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let bytes = 0;
  let start = text.length;
  while (start > 0) {
    let step = 1;
    const code = text.charCodeAt(start - 1);
    if (code >= 0xdc00 && code <= 0xdfff && start >= 2) {
      const high = text.charCodeAt(start - 2);
      if (high >= 0xd800 && high <= 0xdbff) step = 2;
    }
    const size = utf8ByteLength(text.slice(start - step, start));
    if (bytes + size > maxBytes) break;
    bytes += size;
    start -= step;
  }
  return text.slice(start);
}

/** The first `maxChars` UTF-16 units of `text`, backing off one unit rather than splitting a surrogate pair. */
export function charPrefix(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const code = text.charCodeAt(maxChars - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars;
  return text.slice(0, Math.max(0, end));
}
