import { WebToolError } from '@mono-agent/budget-policy';
import type { ExtractionReply } from './extraction-protocol.js';
import { EXTRACTION_WORKER_HEAP_MB } from './pool-options.js';

/** Raised inside the pool when the DOM stages used up their time or memory: retry without them. */
export class DomStagesFailed {
  constructor(readonly reason: string) {}
}

/** What a worker reports to the pool: a reply to its task, an error thrown in it, or its exit. */
export type WorkerEvent =
  | { type: 'reply'; reply: ExtractionReply }
  | { type: 'error'; error: Error }
  | { type: 'exit'; exitCode: number };

/** The extraction's deadline passed before the document was ready. */
export function timeoutError(): WebToolError {
  return new WebToolError({
    code: 'timeout',
    message: 'Extraction did not finish before the fetch deadline; the page is too costly to read in time.',
    details: { stage: 'extraction' },
  });
}

/** The extraction was cancelled, by its signal or by the pool's closing. */
export function cancelledError(reason: unknown): WebToolError {
  return new WebToolError({
    code: 'cancelled',
    message: 'The extraction was cancelled.',
    ...(reason === undefined ? {} : { cause: reason }),
    details: { stage: 'extraction' },
  });
}

/** The page needed more than a worker's heap outside the DOM stages. */
export function memoryError(heapMb: number): WebToolError {
  return new WebToolError({
    code: 'too_large',
    message: `The document needs more than ${heapMb} MiB of memory to extract. Ask for format "raw" to read it undecoded by a parser.`,
    details: { stage: 'extraction', limitMb: heapMb, reason: 'memory' },
  });
}

/** The worker failed in a way no page should make it fail: a bug. */
export function workerFailure(event: WorkerEvent): WebToolError {
  const reason =
    event.type === 'exit' ? `exit ${event.exitCode}` : event.type === 'error' ? event.error.name : 'reply';
  return new WebToolError({
    code: 'internal_error',
    message: `The extraction worker stopped unexpectedly (${reason}); this is a bug worth reporting.`,
    details: { stage: 'extraction', reason },
  });
}

/**
 * A worker ended before it was ready. Running out of its heap while loading the extractor is the
 * pool's heap limit set too low for any page, which the operator can change; anything else is a bug.
 */
export function startFailure(exitCode: number, error: Error | undefined, heapMb: number): WebToolError {
  if ((error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new WebToolError({
      code: 'configuration_error',
      message: `The extraction worker ran out of its ${heapMb} MiB heap while loading the extractor, before reading the document; give the extraction pool a larger heapMb (${EXTRACTION_WORKER_HEAP_MB} by default).`,
      details: { stage: 'extraction', limitMb: heapMb, reason: 'worker_start_memory' },
    });
  }
  return workerFailure(error === undefined ? { type: 'exit', exitCode } : { type: 'error', error });
}
