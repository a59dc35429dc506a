import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { ExtractOptions } from '../extract.js';
import type { ExtractedDocument } from '../types.js';

/** One extraction sent to a worker. */
export interface ExtractionTask {
  /** Matches the replies to the task. */
  id: number;
  /** What {@link extract} is given; a byte body arrives as a transferred buffer. */
  options: ExtractOptions;
  /** Set when the DOM stages failed on an earlier try: why they are skipped this time. */
  skipDomStages?: string | undefined;
}

/** A WebToolError as it crosses the worker boundary (the cause stays behind). */
export interface SerializedError {
  code: FailureCode;
  message: string;
  details: Record<string, unknown>;
  retryAfterMs?: number | undefined;
  retryAt?: number | undefined;
}

/** What a worker answers. */
export type ExtractionReply =
  | { id: 0; type: 'ready' }
  /**
   * The DOM stages start. A byte body comes back with it (transferred): the worker no longer needs
   * it, and the pool sends it again if the DOM stages fail and the page is read by the streamed stage.
   */
  | { id: number; type: 'dom-stages'; body?: Uint8Array | undefined }
  /** `heapBytes`: the memory the worker's heap occupies after the task (V8's physical size). */
  | { id: number; type: 'done'; document: ExtractedDocument; heapBytes: number }
  | { id: number; type: 'failed'; error: SerializedError; heapBytes: number };

/** Turns anything a worker caught into a structured error: expected failures keep their code. */
export function serializeError(error: unknown): SerializedError {
  if (WebToolError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      details: { ...error.details },
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
    };
  }
  // A stack overflow is a document nested past what a parser can walk, not a bug of the caller's.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return {
      code: 'too_large',
      message: 'The document is nested too deeply to extract. Ask for format "raw" to read it undecoded.',
      details: { reason: 'nesting' },
    };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return {
    code: 'internal_error',
    message: `Extraction failed unexpectedly (${name}); this is a bug worth reporting.`,
    details: { reason: name.slice(0, 60) },
  };
}

/** The WebToolError a serialized one stands for. */
export function deserializeError(error: SerializedError): WebToolError {
  return new WebToolError({
    code: error.code,
    message: error.message,
    details: error.details,
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
  });
}
