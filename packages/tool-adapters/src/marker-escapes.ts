// Escape decoding for the marker skeleton: kept apart from the spelling tables so the set of
// escapes a reader decodes can be read and reviewed on its own.

const HEX = /^[0-9a-f]+$/i;
const NAMED_ESCAPES: Readonly<Record<string, number>> = {
  lsqb: 0x5b,
  lbrack: 0x5b,
  rsqb: 0x5d,
  rbrack: 0x5d,
  lowbar: 0x5f,
  UnderBar: 0x5f,
  hyphen: 0x2010,
  dash: 0x2010,
  nbsp: 0xa0,
  ensp: 0x2002,
  emsp: 0x2003,
  thinsp: 0x2009,
  shy: 0xad,
  zwj: 0x200d,
  zwnj: 0x200c,
  lrm: 0x200e,
  rlm: 0x200f,
  ZeroWidthSpace: 0x200b,
  NoBreak: 0x2060,
  lang: 0x27e8,
  rang: 0x27e9,
};

function hexValue(text: string, start: number, length: number): number {
  const digits = text.slice(start, start + length);
  return digits.length === length && HEX.test(digits) ? Number.parseInt(digits, 16) : -1;
}

interface DecodedEscape {
  codePoint: number;
  length: number;
}

// A reader decodes escapes without thinking: `%5B`, `\u005B` and `&#91;` are all a bracket to a
// model that reads URLs, JSON or HTML source. Returns the code point and the length of the escape.
export function decodeEscape(text: string, index: number): DecodedEscape | undefined {
  switch (text.charCodeAt(index)) {
    case 0x25 /* % */:
      return decodePercentEscape(text, index);
    case 0x5c /* \ */:
      return decodeBackslashEscape(text, index);
    case 0x26 /* & */:
      return decodeCharacterReference(text, index);
    default:
      return undefined;
  }
}

// How many continuation bytes follow a UTF-8 lead byte, or -1 for a byte that cannot lead.
function utf8ContinuationCount(lead: number): number {
  if (lead >= 0xf0) return 3;
  if (lead >= 0xe0) return 2;
  if (lead >= 0xc0) return 1;
  return -1;
}

// `%5B`, or the UTF-8 bytes of one code point percent-encoded one by one (`%EF%BC%BB`).
function decodePercentEscape(text: string, index: number): DecodedEscape | undefined {
  const first = hexValue(text, index + 1, 2);
  if (first < 0) return undefined;
  if (first < 0x80) return { codePoint: first, length: 3 };
  const continuation = utf8ContinuationCount(first);
  if (continuation < 0) return undefined;
  let codePoint = first & (0x3f >> continuation);
  for (let byte = 1; byte <= continuation; byte += 1) {
    const offset = index + byte * 3;
    if (text.charCodeAt(offset) !== 0x25) return undefined;
    const value = hexValue(text, offset + 1, 2);
    if (value < 0x80 || value > 0xbf) return undefined;
    codePoint = (codePoint << 6) | (value & 0x3f);
  }
  return codePoint <= 0x10ffff ? { codePoint, length: 3 * (continuation + 1) } : undefined;
}

// `\x5B`, `\u{1D404}`, `\u005B`, or a surrogate pair spelled as two `\u` escapes.
function decodeBackslashEscape(text: string, index: number): DecodedEscape | undefined {
  const kind = text[index + 1];
  if (kind === 'x') {
    const value = hexValue(text, index + 2, 2);
    return value < 0 ? undefined : { codePoint: value, length: 4 };
  }
  if (kind !== 'u') return undefined;
  return text[index + 2] === '{' ? decodeBracedEscape(text, index) : decodeUtf16Escape(text, index);
}

function decodeBracedEscape(text: string, index: number): DecodedEscape | undefined {
  const close = text.indexOf('}', index + 3);
  if (close < 0 || close - index > 10) return undefined;
  const value = hexValue(text, index + 3, close - index - 3);
  return value < 0 || value > 0x10ffff ? undefined : { codePoint: value, length: close - index + 1 };
}

// A high surrogate is joined with a low one escaped right after it; any other unit stands alone.
function decodeUtf16Escape(text: string, index: number): DecodedEscape | undefined {
  const high = hexValue(text, index + 2, 4);
  if (high < 0) return undefined;
  if (high >= 0xd800 && high <= 0xdbff && text[index + 6] === '\\' && text[index + 7] === 'u') {
    const low = hexValue(text, index + 8, 4);
    if (low >= 0xdc00 && low <= 0xdfff)
      return { codePoint: 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00), length: 12 };
  }
  return { codePoint: high, length: 6 };
}

// `&#91;`, `&#x5B;` or a named reference among those that spell a gap, a bracket or nothing.
function decodeCharacterReference(text: string, index: number): DecodedEscape | undefined {
  const close = text.indexOf(';', index + 1);
  if (close < 0 || close - index > 16) return undefined;
  const codePoint = referencedCodePoint(text.slice(index + 1, close));
  return codePoint === undefined || codePoint < 0 || codePoint > 0x10ffff
    ? undefined
    : { codePoint, length: close - index + 1 };
}

function referencedCodePoint(name: string): number | undefined {
  if (name.startsWith('#x') || name.startsWith('#X')) return hexValue(name, 2, name.length - 2);
  if (name.startsWith('#') && /^#\d+$/.test(name)) return Number.parseInt(name.slice(1), 10);
  // The name is page text: only the table's own entries count, never a name the object inherits
  // (`constructor`, `__proto__`, `toString`).
  return Object.hasOwn(NAMED_ESCAPES, name) ? NAMED_ESCAPES[name] : undefined;
}
