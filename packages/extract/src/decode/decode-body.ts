import { WebToolError } from '@mono-agent/budget-policy';
import type { CharsetSource } from '../types.js';
import { charsetHint } from './charset-hint.js';
import { decodeText } from './decode-text.js';
import { headMetaCharset, META_CHARSET } from './head-meta.js';

/**
 * How many leading bytes are searched for a `<meta>` charset, as the HTML prescan does. Bytes that
 * are not UTF-8 and name no charset there are searched on through the rest of the page's head.
 */
export const META_PRESCAN_BYTES = 1024;

/** Which in-document declaration may name the charset. */
export type DeclarationSyntax = 'html' | 'xml' | 'none';

/** A body decoded to text. */
export interface DecodedBody {
  /** The decoded text, without a byte order mark. */
  text: string;
  /** The WHATWG name of the charset used. */
  charset: string;
  /** Where the charset came from. */
  charsetSource: CharsetSource;
  /** How many U+FFFD replacement characters the text holds. */
  replacementCount: number;
  /**
   * The charset a detector reads the bytes as, when the decoding left replacement characters (or
   * the NULs of UTF-16 read byte by byte) and the detector names another charset. A hint for the
   * reader only: it never changes {@link DecodedBody.text}.
   */
  charsetHint?: string;
  /**
   * The charset the page's own declaration (`<meta>` or XML declaration) named, when the bytes
   * contradict it by being valid UTF-8 throughout and were read as UTF-8 instead
   * ({@link DecodedBody.charsetSource} is then `bytes`).
   */
  declaredCharset?: string;
}

/** Options of {@link decodeBody}. */
export interface DecodeBodyOptions {
  /** The `charset` parameter of the HTTP Content-Type, when present. */
  headerCharset?: string | undefined;
  /** Which in-document declaration to look for when neither a BOM nor the header names a charset. */
  declaration: DeclarationSyntax;
}

const BOMS: ReadonlyArray<{ bytes: readonly number[]; charset: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], charset: 'utf-8' },
  { bytes: [0xfe, 0xff], charset: 'utf-16be' },
  { bytes: [0xff, 0xfe], charset: 'utf-16le' },
];

const XML_DECLARATION_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

/**
 * The first bytes of an XML declaration (`<?xm`) in UTF-16 without a byte order mark: how XML's
 * encoding detection tells the byte order before the declaration itself can be read.
 */
const UTF16_XML_STARTS: ReadonlyArray<{ bytes: readonly number[]; charset: string }> = [
  { bytes: [0x3c, 0x00, 0x3f, 0x00, 0x78, 0x00, 0x6d, 0x00], charset: 'utf-16le' },
  { bytes: [0x00, 0x3c, 0x00, 0x3f, 0x00, 0x78, 0x00, 0x6d], charset: 'utf-16be' },
];

/**
 * Decodes a body in the contract's order: byte order mark, then the HTTP charset, then the
 * document's own declaration (HTML `<meta>` or XML declaration), then UTF-8. A `<meta>` is looked
 * for in the first {@link META_PRESCAN_BYTES} bytes, and past them through the rest of the head
 * when the bytes do not read cleanly as UTF-8, as a browser's parser still obeys one met there.
 * Nothing else picks the charset: bytes that declare nothing are read as UTF-8 even when they are
 * not UTF-8, and every replacement character that leaves is counted, so damaged text is reported
 * rather than silently replaced by a guess. What a detector makes of such bytes is only returned as
 * {@link DecodedBody.charsetHint}. A declared charset this runtime cannot decode is a `charset_error`.
 *
 * One check is not a guess: a document's own declaration travels with copies of the page that
 * were re-encoded (saved pages, archives, templates), so when it names a legacy charset and every
 * byte of the body is valid UTF-8, with at least one multi-byte sequence, the body is read as
 * UTF-8 and the declaration is returned as {@link DecodedBody.declaredCharset}. Text in a legacy
 * charset that uses its non-ASCII bytes is not valid UTF-8, so this never changes a body its
 * declaration reads right. The HTTP charset describes the bytes as sent and is always obeyed.
 */
export async function decodeBody(body: Uint8Array, options: DecodeBodyOptions): Promise<DecodedBody> {
  return withHint(body, decodeInOrder(body, options));
}

function decodeInOrder(body: Uint8Array, options: DecodeBodyOptions): DecodedBody {
  for (const bom of BOMS) {
    if (startsWith(body, bom.bytes)) return decodeWith(body.subarray(bom.bytes.length), bom.charset, 'bom');
  }
  if (options.headerCharset !== undefined) {
    return decodeWith(body, resolveCharset(options.headerCharset, 'header'), 'header');
  }
  let declared = findDeclaredCharset(body, options.declaration);
  if (declared === undefined) {
    const utf8 = decodeWith(body, 'utf-8', 'default');
    if (utf8.replacementCount === 0) return utf8;
    declared = laterMetaCharset(body, options.declaration);
    if (declared === undefined) return utf8;
  }
  // UTF-16 found by an XML declaration's first bytes is not ASCII-compatible, so not in question.
  if (declared.charset !== 'utf-8' && !declared.charset.startsWith('utf-16')) {
    const utf8 = utf8Throughout(body);
    if (utf8 !== undefined) {
      const declaredCharset = declared.charset;
      return { text: utf8, charset: 'utf-8', charsetSource: 'bytes', replacementCount: 0, declaredCharset };
    }
  }
  return decodeWith(body, declared.charset, declared.source);
}

/**
 * The body as UTF-8 when every byte of it is valid UTF-8 and at least one byte is not ASCII
 * (bytes that are all ASCII read the same in any charset a document can declare), else undefined.
 */
function utf8Throughout(body: Uint8Array): string | undefined {
  if (!body.some((byte) => byte >= 0x80)) return undefined;
  try {
    return decodeText(body, 'utf-8', { fatal: true });
  } catch {
    return undefined;
  }
}

/**
 * The charset a `<meta>` past the prescan names: an HTML body that declared nothing in its first
 * {@link META_PRESCAN_BYTES} bytes and did not read cleanly as UTF-8 is searched through the rest
 * of its head, as a browser's parser does until the body begins (a page whose scripts, styles or
 * comments come first).
 */
function laterMetaCharset(
  body: Uint8Array,
  declaration: DeclarationSyntax,
): { charset: string; source: CharsetSource } | undefined {
  if (declaration !== 'html' || body.length <= META_PRESCAN_BYTES) return undefined;
  const label = headMetaCharset(new TextDecoder('latin1').decode(body));
  return label === undefined ? undefined : metaCharset(label);
}

/** Adds the detector's reading of bytes the chosen charset could not read cleanly. */
async function withHint(body: Uint8Array, decoded: DecodedBody): Promise<DecodedBody> {
  if (decoded.replacementCount === 0 && !decoded.text.includes('\u0000')) return decoded;
  const hint = await charsetHint(body);
  return hint === undefined || hint === decoded.charset ? decoded : { ...decoded, charsetHint: hint };
}

function startsWith(body: Uint8Array, bytes: readonly number[]): boolean {
  return bytes.every((byte, index) => body[index] === byte);
}

/** Counts U+FFFD characters in a decoded text. */
export function countReplacements(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1)) count++;
  return count;
}

function decodeWith(body: Uint8Array, charset: string, charsetSource: CharsetSource): DecodedBody {
  const text = decodeText(body, charset);
  return { text, charset, charsetSource, replacementCount: countReplacements(text) };
}

/** Who declares a charset, as a refusal names them. */
const DECLARED_BY: Readonly<Partial<Record<CharsetSource, string>>> = {
  header: 'The HTTP Content-Type header declares',
  meta: "The page's <meta> declares",
  'xml-declaration': 'The XML declaration names',
};

/** The longest charset label a refusal repeats. */
const MAX_LABEL_CHARS = 40;

/**
 * The WHATWG name of a charset label; an unknown label is a `charset_error` whose message names the
 * label, reduced to the characters labels are made of, since it comes from the server.
 */
function resolveCharset(label: string, source: CharsetSource): string {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch (error) {
    const shown = label
      .trim()
      .slice(0, MAX_LABEL_CHARS)
      .replace(/[^\w.:+-]/g, '?');
    throw new WebToolError({
      code: 'charset_error',
      message: `${DECLARED_BY[source] ?? 'The body declares'} the charset "${shown}", which this runtime cannot decode, so the text was not read rather than read wrongly; look for another copy of the page in a standard character set such as UTF-8.`,
      cause: error,
      details: { charset: shown, charsetSource: source },
    });
  }
}

/**
 * The charset a document declares for itself: an HTML page by its `<meta>`, else by an XML
 * declaration (XHTML), and an XML document by its XML declaration. A declaration read from ASCII-compatible bytes cannot
 * truly name UTF-16, so such a name means UTF-8 (as the HTML standard has it for `<meta>`), and
 * `x-user-defined` in a `<meta>` means windows-1252. An XML declaration in UTF-16 without a byte
 * order mark is found by its first bytes, and names the byte order they show.
 */
function findDeclaredCharset(
  body: Uint8Array,
  declaration: DeclarationSyntax,
): { charset: string; source: CharsetSource } | undefined {
  if (declaration === 'none') return undefined;
  const utf16 = UTF16_XML_STARTS.find((start) => startsWith(body, start.bytes));
  if (utf16 !== undefined) {
    const head = new TextDecoder(utf16.charset).decode(body.subarray(0, 2 * META_PRESCAN_BYTES));
    const label = XML_DECLARATION_ENCODING.exec(head)?.[1];
    // A UTF-16 declaration may name any charset, but only a UTF-16 one could have been read here.
    if (label !== undefined) resolveCharset(label, 'xml-declaration');
    return { charset: utf16.charset, source: 'xml-declaration' };
  }
  const head = new TextDecoder('latin1').decode(body.subarray(0, META_PRESCAN_BYTES));
  // An XHTML page may name its charset in its XML declaration only; a `<meta>` comes first.
  const meta = declaration === 'html' ? META_CHARSET.exec(head)?.[1] : undefined;
  const label = meta ?? XML_DECLARATION_ENCODING.exec(head)?.[1];
  if (label === undefined) return undefined;
  if (meta !== undefined) return metaCharset(meta);
  const charset = resolveCharset(label, 'xml-declaration');
  return { charset: charset.startsWith('utf-16') ? 'utf-8' : charset, source: 'xml-declaration' };
}

/**
 * The charset a `<meta>` label names: `x-user-defined` means windows-1252 and a UTF-16 name means
 * UTF-8 (a declaration read from ASCII-compatible bytes), as the HTML standard has it.
 */
function metaCharset(label: string): { charset: string; source: CharsetSource } {
  if (label.trim().toLowerCase() === 'x-user-defined') return { charset: 'windows-1252', source: 'meta' };
  const charset = resolveCharset(label, 'meta');
  return { charset: charset.startsWith('utf-16') ? 'utf-8' : charset, source: 'meta' };
}
