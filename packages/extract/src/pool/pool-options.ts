import { WebToolError } from '@mono-agent/budget-policy';
import type { ExtractOptions } from '../extract.js';
import type { ExtractedDocument } from '../types.js';

/** Worker threads a pool runs at most; more extractions wait for a free one. */
export const EXTRACTION_POOL_SIZE = 2;

/**
 * The old-generation heap of one extraction worker, in MiB. A page that needs more ends its worker
 * (and falls back to a cheaper stage or becomes `too_large`) instead of growing the process.
 */
export const EXTRACTION_WORKER_HEAP_MB = 192;

/** The young-generation heap of one extraction worker, in MiB. */
export const EXTRACTION_WORKER_YOUNG_HEAP_MB = 16;

/**
 * The most time the DOM stages (Readability, Defuddle, Turndown) get for one page. Past it the worker
 * is ended and the page is read again by the streamed-text stage, which takes linear time. Real
 * article pages take a small fraction of it; what takes longer is a page built to be slow.
 */
export const DOM_STAGES_BUDGET_MS = 4_000;

/** Time kept back from the deadline for the streamed-text stage when the DOM stages fail. */
export const STREAMED_STAGE_RESERVE_MS = 5_000;

/** The deadline of an extraction when the caller gives none. */
export const DEFAULT_EXTRACTION_DEADLINE_MS = 45_000;

/** Extractions one worker runs before it is replaced, so what its parsers keep cannot accumulate. */
export const MAX_TASKS_PER_WORKER = 200;

/**
 * A worker whose heap occupies more than this many MiB after a task collects its garbage in full,
 * and is replaced if it still does. V8 keeps the memory a large page made the heap grow by for as
 * long as the worker runs, so without this one large page would raise the process's memory for the
 * rest of its life. After ordinary pages a worker's heap occupies about 40 to 55 MB once collected.
 */
export const RECYCLE_WORKER_HEAP_MB = 64;

/** An idle worker is ended after this long. */
export const WORKER_IDLE_MS = 30_000;

/** Bounds of one extraction through a pool. */
export interface ExtractionRun {
  /** Epoch milliseconds by which the document must be ready; the worker is ended then. */
  deadlineAt?: number | undefined;
  /** Cancels the extraction; its worker is ended. */
  signal?: AbortSignal | undefined;
  /**
   * Hands a byte body over to the pool instead of lending it: when it fills its `ArrayBuffer`, the
   * buffer is moved to the worker rather than copied, and the caller's array is left empty (length 0).
   * For a caller that does not read the body after extracting it. By default the pool copies it.
   */
  transferBody?: boolean | undefined;
}

/** Runs extractions off the calling thread. */
export interface ExtractionPool {
  /**
   * Extracts like {@link extract}, in a worker thread with its own bounded heap. Resolves to the
   * document or rejects with a `WebToolError` (`timeout` at the deadline, `cancelled`, `too_large`
   * when the page needs more memory than a worker has, or the extraction's own failure).
   */
  extract(options: ExtractOptions, run?: ExtractionRun): Promise<ExtractedDocument>;
  /**
   * Starts a worker ahead of need when none is idle, so that its start-up overlaps whatever comes
   * before the extraction (`fetchDocument` calls it before the request goes out).
   */
  prepare?(): void;
  /** Ends every worker; extractions still running or waiting are cancelled. */
  close(): Promise<void>;
}

/** Options of {@link createExtractionPool}. */
export interface ExtractionPoolOptions {
  /** Workers at most; {@link EXTRACTION_POOL_SIZE} by default. */
  size?: number | undefined;
  /** Old-generation heap per worker in MiB; {@link EXTRACTION_WORKER_HEAP_MB} by default. */
  heapMb?: number | undefined;
  /** The DOM stages' time budget; {@link DOM_STAGES_BUDGET_MS} by default. */
  domStagesBudgetMs?: number | undefined;
  /** Whether a new worker loads the HTML parsers before it takes work; true by default. */
  preloadHtmlParsers?: boolean | undefined;
  /**
   * The heap size in MiB past which a worker collects its garbage after a task, and is replaced if
   * the heap stays past it; {@link RECYCLE_WORKER_HEAP_MB} by default.
   */
  recycleHeapMb?: number | undefined;
}

/**
 * Whether a worker is replaced after a task: it has run {@link MAX_TASKS_PER_WORKER} tasks, or its
 * heap occupies more than `recycleHeapMb` (measured after the full collection the worker makes then).
 */
export function recyclesWorker(tasks: number, heapBytes: number, recycleHeapMb: number): boolean {
  return tasks >= MAX_TASKS_PER_WORKER || heapBytes > recycleHeapMb * 1024 * 1024;
}

/**
 * A numeric pool option, or its default when absent. Anything but a finite number at least 0 (above 0
 * where `positive`) is refused with a `validation_error` naming the option, so that a NaN bound
 * cannot quietly switch a limit off.
 */
export function poolNumber(
  options: ExtractionPoolOptions,
  name: 'size' | 'heapMb' | 'domStagesBudgetMs' | 'recycleHeapMb',
  fallback: number,
  positive = false,
): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && (positive ? value > 0 : value >= 0))
    return value;
  throw new WebToolError({
    code: 'validation_error',
    message: `The extraction pool option ${name} must be a finite number ${positive ? 'above' : 'of at least'} 0.`,
    details: { option: name, value: String(value).slice(0, 40) },
  });
}
