import { inflateSync } from 'node:zlib';
import { WebToolError } from '@mono-agent/budget-policy';

/**
 * The most pages whose text is extracted; later pages are named in a closing line instead. Text
 * extraction holds every page's text items, so a page count is a memory bound.
 */
export const MAX_PDF_PAGES = 500;

/**
 * The most bytes the PDF's compressed streams (content, fonts, object streams; images are never
 * decoded for text) may inflate to. A flate bomb is refused before PDF.js decodes it: decoded streams
 * live in buffers outside the JavaScript heap, which no heap limit bounds.
 */
export const MAX_PDF_DECODED_BYTES = 128 * 1024 * 1024;

/** How many filter layers deep a stream is inflated while measuring (`[/FlateDecode /FlateDecode]`). */
const MAX_FILTER_LAYERS = 4;

/** How far before a `stream` keyword its dictionary is looked for. */
const DICTIONARY_WINDOW_BYTES = 2048;

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
const IMAGE_SUBTYPE = /\/Subtype\s*\/Image\b/;

/**
 * Measures what the flate streams of a PDF inflate to, stopping at {@link MAX_PDF_DECODED_BYTES},
 * and throws `too_large` past it. Image streams are not counted. A stream that is not flate data
 * is skipped here and left to PDF.js.
 */
export function assertPdfDecodedSize(body: Uint8Array): void {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let decoded = 0;
  for (let keyword = bytes.indexOf(STREAM); keyword !== -1; keyword = bytes.indexOf(STREAM, keyword + 1)) {
    const start = streamDataStart(bytes, keyword);
    if (start === undefined || isImageStream(bytes, keyword)) continue;
    const end = bytes.indexOf(END_STREAM, start);
    decoded = measureInflated(bytes.subarray(start, end === -1 ? bytes.length : end), decoded);
    keyword = Math.max(keyword, end === -1 ? bytes.length : end);
  }
}

/**
 * Where the data of the stream whose `stream` keyword is at `keyword` begins, after the keyword's
 * end of line; undefined when the keyword is the tail of an `endstream` or no end of line follows.
 */
function streamDataStart(bytes: Buffer, keyword: number): number | undefined {
  // `endstream` contains `stream`; only the opening keyword, followed by an end of line, counts.
  if (keyword >= 3 && bytes.subarray(keyword - 3, keyword).toString('latin1') === 'end') return undefined;
  let start = keyword + STREAM.length;
  if (bytes[start] === 0x0d) start++;
  if (bytes[start] !== 0x0a) return undefined;
  return start + 1;
}

/** Whether the dictionary before the stream at `keyword` (from its object's ` obj` on) declares an image. */
function isImageStream(bytes: Buffer, keyword: number): boolean {
  const dictionary = bytes
    .subarray(Math.max(0, keyword - DICTIONARY_WINDOW_BYTES), keyword)
    .toString('latin1');
  const dictionaryStart = dictionary.lastIndexOf(' obj');
  return IMAGE_SUBTYPE.test(dictionaryStart === -1 ? dictionary : dictionary.slice(dictionaryStart));
}

/**
 * Inflates a stream's data layer by layer and returns `decoded` plus what it inflated to, throwing
 * `too_large` once the total passes {@link MAX_PDF_DECODED_BYTES}. A layer that fails to inflate
 * ends the measuring of this stream.
 */
function measureInflated(data: Buffer, decoded: number): number {
  let total = decoded;
  let layer = data;
  for (let depth = 0; depth < MAX_FILTER_LAYERS && looksLikeZlib(layer); depth++) {
    const budget = MAX_PDF_DECODED_BYTES - total;
    try {
      layer = inflateSync(layer, { maxOutputLength: budget + 1, finishFlush: 2 /* Z_SYNC_FLUSH */ });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw pdfTooLarge();
      break;
    }
    total += layer.byteLength;
    if (total > MAX_PDF_DECODED_BYTES) throw pdfTooLarge();
  }
  return total;
}

/** A zlib header: deflate method, a window of at most 32 KiB and a valid check value. */
function looksLikeZlib(data: Uint8Array): boolean {
  const [method, flags] = [data[0], data[1]];
  if (method === undefined || flags === undefined) return false;
  return (method & 0x0f) === 8 && method >> 4 <= 7 && ((method << 8) | flags) % 31 === 0;
}

function pdfTooLarge(): WebToolError {
  return new WebToolError({
    code: 'too_large',
    message: `The PDF's compressed streams inflate to more than ${MAX_PDF_DECODED_BYTES} bytes (a decompression bomb or an unusually heavy file); its text is not extracted.`,
    details: { kind: 'pdf', limit: MAX_PDF_DECODED_BYTES, reason: 'decoded_size' },
  });
}
