/**
 * The longest stdout line accepted from `codex app-server`. A search item carries its results inline,
 * so the bound is generous; a longer line is dropped whole instead of growing memory without limit.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** What a {@link LineDecoder} reports. */
export interface LineDecoderHandlers {
  /** One complete line, without its `\n` (and without a trailing `\r`). */
  line(text: string): void;
  /** A line longer than {@link MAX_LINE_BYTES} was dropped; `bytes` is how much was seen. */
  oversized(bytes: number): void;
}

/** Splits a byte stream into newline-delimited UTF-8 lines. */
export interface LineDecoder {
  /** Feeds the next chunk; any number of lines (or part of one) per chunk. */
  push(chunk: Uint8Array): void;
  /** Flushes a final line that had no newline (at end of stream). */
  end(): void;
}

const NEWLINE = 0x0a;

/** Creates a decoder for newline-delimited JSON framing. */
export function createLineDecoder(handlers: LineDecoderHandlers, maxLineBytes = MAX_LINE_BYTES): LineDecoder {
  let parts: Buffer[] = [];
  let length = 0;
  // Bytes of an oversized line still being skipped, or -1 when not skipping.
  let skipped = -1;

  const emit = (buffer: Buffer) => {
    let text = buffer.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    handlers.line(text);
  };

  return {
    push(chunk) {
      let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      while (buffer.length > 0) {
        const index = buffer.indexOf(NEWLINE);
        const piece = index === -1 ? buffer : buffer.subarray(0, index);
        if (skipped >= 0) {
          skipped += piece.length;
        } else if (length + piece.length > maxLineBytes) {
          skipped = length + piece.length;
          parts = [];
          length = 0;
        } else {
          parts.push(Buffer.from(piece));
          length += piece.length;
        }
        if (index === -1) return;
        if (skipped >= 0) {
          handlers.oversized(skipped);
          skipped = -1;
        } else {
          emit(Buffer.concat(parts, length));
          parts = [];
          length = 0;
        }
        buffer = buffer.subarray(index + 1);
      }
    },
    end() {
      if (skipped >= 0) handlers.oversized(skipped);
      else if (length > 0) emit(Buffer.concat(parts, length));
      parts = [];
      length = 0;
      skipped = -1;
    },
  };
}
