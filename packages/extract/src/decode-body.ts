import { WebToolError } from '@mono-agent/budget-policy';
import { decodeText } from './decode-text.js';
import type { CharsetSource } from './types.js';
import { verifiedDetection } from './verify-detected-charset.js';

/** How many leading bytes are searched for a `<meta>` charset, as the HTML prescan does. */
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

const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([^\s"'/>;]+)[^>]*>/i;
const XML_DECLARATION_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

/**
 * Decodes a body: byte order mark, then the HTTP charset, then the document's own declaration,
 * then UTF-8. Bytes that declare nothing and are not valid UTF-8 are decoded with a detected
 * charset only when the detection is verified (see `verifiedDetection`); otherwise they are decoded
 * as UTF-8 and their replacement characters counted. A declared charset this runtime cannot decode
 * is a `charset_error`.
 */
export async function decodeBody(body: Uint8Array, options: DecodeBodyOptions): Promise<DecodedBody> {
  for (const bom of BOMS) {
    if (bom.bytes.every((byte, index) => body[index] === byte)) {
      return decodeWith(body.subarray(bom.bytes.length), bom.charset, 'bom');
    }
  }
  if (options.headerCharset !== undefined) {
    return decodeWith(body, resolveCharset(options.headerCharset, 'header'), 'header');
  }
  const declared = findDeclaredCharset(body, options.declaration);
  if (declared !== undefined) {
    let charset = resolveCharset(declared.label, declared.source);
    // A byte-oriented document cannot really be UTF-16; the HTML standard reads such a meta as UTF-8.
    if (declared.source === 'meta' && charset.startsWith('utf-16')) charset = 'utf-8';
    return decodeWith(body, charset, declared.source);
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    return { text, charset: 'utf-8', charsetSource: 'default', replacementCount: countReplacements(text) };
  } catch {
    const detected = await verifiedDetection(body);
    if (detected !== undefined) return decodeWith(body, detected, 'detected');
    return decodeWith(body, 'utf-8', 'default');
  }
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

/** The WHATWG name of a charset label; an unknown label is a `charset_error`. */
function resolveCharset(label: string, source: CharsetSource): string {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch (error) {
    throw new WebToolError({
      code: 'charset_error',
      message: `The ${source} declares the charset "${label.slice(0, 40)}", which cannot be decoded here.`,
      cause: error,
      details: { charset: label.slice(0, 40), charsetSource: source },
    });
  }
}

function findDeclaredCharset(
  body: Uint8Array,
  declaration: DeclarationSyntax,
): { label: string; source: CharsetSource } | undefined {
  if (declaration === 'none') return undefined;
  const head = new TextDecoder('latin1').decode(body.subarray(0, META_PRESCAN_BYTES));
  if (declaration === 'xml') {
    const match = XML_DECLARATION_ENCODING.exec(head);
    return match?.[1] === undefined ? undefined : { label: match[1], source: 'xml-declaration' };
  }
  const match = META_CHARSET.exec(head);
  return match?.[1] === undefined ? undefined : { label: match[1], source: 'meta' };
}
