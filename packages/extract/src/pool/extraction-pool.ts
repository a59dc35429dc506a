import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WebToolError } from '@mono-agent/budget-policy';
import { type ExtractOptions, extract } from '../extract.js';
import type { ExtractedDocument } from '../types.js';
import { deserializeError, type ExtractionReply, type ExtractionTask } from './extraction-protocol.js';
import { createFlagLock } from './worker-heap.js';

// One lock for every pool of the process, even pools of two copies of this package: the flag it
// guards is the process's.
const lockKey = Symbol.for('@mono-agent/extract:gc-flag-lock');
const lockHolder = globalThis as Record<symbol, Int32Array | undefined>;
lockHolder[lockKey] ??= createFlagLock();
const GC_FLAG_LOCK = lockHolder[lockKey];

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
 * The body an extraction sends to its workers. Bytes travel as a transferred buffer the pool owns:
 * the caller's own when handed over, else a copy made once; they come back when the DOM stages start,
 * so that a second attempt can send them again.
 */
interface OutgoingBody {
  body: Uint8Array | string;
  owned: boolean;
  /** The bytes were transferred to a worker and have not come back. */
  away: boolean;
}

/** Whether `body` can be moved to a worker as it is: bytes that fill an `ArrayBuffer` of their own. */
function fillsItsBuffer(body: Uint8Array): boolean {
  return (
    body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
  );
}

/**
 * A numeric pool option, or its default when absent. Anything but a finite number at least 0 (above 0
 * where `positive`) is refused with a `validation_error` naming the option, so that a NaN bound
 * cannot quietly switch a limit off.
 */
function poolNumber(
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

/** Raised inside the pool when the DOM stages used up their time or memory: retry without them. */
class DomStagesFailed {
  constructor(readonly reason: string) {}
}

interface PooledWorker {
  worker: Worker;
  tasks: number;
  alive: boolean;
  /** Whether the worker has loaded its parsers and said so; only ready workers are given tasks. */
  ready: boolean;
  idleTimer: NodeJS.Timeout | undefined;
  /** The running task's handler of worker events. */
  listener: ((event: WorkerEvent) => void) | undefined;
}

type WorkerEvent =
  | { type: 'reply'; reply: ExtractionReply }
  | { type: 'error'; error: Error }
  | { type: 'exit'; exitCode: number };

interface Waiter {
  resolve: (worker: PooledWorker) => void;
  reject: (error: unknown) => void;
}

/**
 * A small pool of extraction workers. Each runs with `resourceLimits`, is ended at its extraction's
 * deadline or cancellation, and is replaced after {@link MAX_TASKS_PER_WORKER} tasks or when its
 * heap occupies more than `recycleHeapMb` after a task, even once collected; idle workers do not keep
 * the process alive.
 */
export function createExtractionPool(options: ExtractionPoolOptions = {}): ExtractionPool {
  const size = Math.max(1, poolNumber(options, 'size', EXTRACTION_POOL_SIZE));
  const heapMb = poolNumber(options, 'heapMb', EXTRACTION_WORKER_HEAP_MB, true);
  const domBudgetMs = poolNumber(options, 'domStagesBudgetMs', DOM_STAGES_BUDGET_MS);
  const preload = options.preloadHtmlParsers ?? true;
  const recycleHeapMb = poolNumber(options, 'recycleHeapMb', RECYCLE_WORKER_HEAP_MB);
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  const waiters: Waiter[] = [];
  let nextId = 0;
  let closed = false;

  const spawn = (): PooledWorker => {
    const { url, execArgv } = workerEntry();
    const worker = new Worker(url, {
      ...(execArgv === undefined ? {} : { execArgv }),
      workerData: { preload, recycleHeapMb, flagLock: GC_FLAG_LOCK },
      resourceLimits: {
        maxOldGenerationSizeMb: heapMb,
        maxYoungGenerationSizeMb: EXTRACTION_WORKER_YOUNG_HEAP_MB,
      },
    });
    const pooled: PooledWorker = {
      worker,
      tasks: 0,
      alive: true,
      ready: false,
      idleTimer: undefined,
      listener: undefined,
    };
    // A starting worker keeps the process alive only while someone waits for it.
    if (waiters.length === 0) worker.unref();
    worker.on('message', (reply: ExtractionReply) => {
      if (reply.type === 'ready') {
        pooled.ready = true;
        makeIdle(pooled);
        return;
      }
      pooled.listener?.({ type: 'reply', reply });
    });
    worker.on('error', (error: Error) => pooled.listener?.({ type: 'error', error }));
    worker.on('exit', (exitCode: number) => {
      const wasReady = pooled.ready;
      pooled.alive = false;
      all.delete(pooled);
      removeIdle(pooled);
      pooled.listener?.({ type: 'exit', exitCode });
      // A worker that cannot even start fails the extraction waiting for it instead of being
      // started again and again.
      if (!wasReady && !closed) waiters.shift()?.reject(workerFailure({ type: 'exit', exitCode }));
      serveWaiters();
    });
    all.add(pooled);
    return pooled;
  };

  const removeIdle = (pooled: PooledWorker) => {
    const index = idle.indexOf(pooled);
    if (index !== -1) idle.splice(index, 1);
    if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
  };

  /**
   * Ends a worker. One ended while in use (recycled, or stopped at a deadline) is replaced at once,
   * so the next extraction finds a ready worker; one ended for being idle is not.
   */
  const end = (pooled: PooledWorker, replace = true) => {
    pooled.listener = undefined;
    removeIdle(pooled);
    if (!pooled.alive) return;
    pooled.alive = false;
    all.delete(pooled);
    void pooled.worker.terminate();
    if (replace && !closed && all.size < size) spawn();
    serveWaiters();
  };

  // Workers start in the background: a waiter is given a ready worker, and a new one is started
  // for it when there is room. A deadline that passes during start-up fails the waiter only; the
  // worker goes on starting and serves the next extraction, so slow start-ups cannot cascade.
  const serveWaiters = () => {
    while (waiters.length > 0 && !closed) {
      const free = idle.pop();
      if (free === undefined) break;
      removeIdle(free);
      take(free);
      (waiters.shift() as Waiter).resolve(free);
    }
    const starting = [...all].filter((pooled) => !pooled.ready).length;
    for (let index = starting; index < waiters.length && all.size < size && !closed; index++) {
      spawn().worker.ref();
    }
  };

  const take = (pooled: PooledWorker) => {
    pooled.worker.ref();
  };

  const makeIdle = (pooled: PooledWorker) => {
    pooled.worker.unref();
    idle.push(pooled);
    pooled.idleTimer = setTimeout(() => end(pooled, false), WORKER_IDLE_MS);
    pooled.idleTimer.unref();
    serveWaiters();
  };

  const release = (pooled: PooledWorker, heapBytes: number) => {
    pooled.listener = undefined;
    pooled.tasks++;
    if (recyclesWorker(pooled.tasks, heapBytes, recycleHeapMb) || closed) {
      end(pooled);
      return;
    }
    makeIdle(pooled);
  };

  const acquire = (deadlineAt: number, signal: AbortSignal | undefined): Promise<PooledWorker> =>
    new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (worker) => {
          cleanup();
          resolve(worker);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      const drop = (error: WebToolError) => {
        const index = waiters.indexOf(waiter);
        if (index !== -1) waiters.splice(index, 1);
        waiter.reject(error);
      };
      const timer = setTimeout(() => drop(timeoutError()), Math.max(0, deadlineAt - Date.now()));
      const onAbort = () => drop(cancelledError(signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      waiters.push(waiter);
      serveWaiters();
    });

  const attempt = async (
    options: ExtractOptions,
    outgoing: OutgoingBody,
    skipDomStages: string | undefined,
    deadlineAt: number,
    signal: AbortSignal | undefined,
  ): Promise<ExtractedDocument> => {
    const pooled = await acquire(deadlineAt, signal);
    const id = ++nextId;
    return new Promise<ExtractedDocument>((resolve, reject) => {
      let inDomStages = false;
      let domTimer: NodeJS.Timeout | undefined;
      const finish = (
        outcome: { document: ExtractedDocument } | { error: unknown },
        heap: number | 'end',
      ) => {
        clearTimeout(deadlineTimer);
        if (domTimer !== undefined) clearTimeout(domTimer);
        signal?.removeEventListener('abort', onAbort);
        if (heap === 'end') end(pooled);
        else release(pooled, heap);
        if ('document' in outcome) resolve(outcome.document);
        else reject(outcome.error);
      };
      const deadlineTimer = setTimeout(
        () => finish({ error: timeoutError() }, 'end'),
        Math.max(0, deadlineAt - Date.now()),
      );
      const onAbort = () => finish({ error: cancelledError(signal?.reason) }, 'end');
      signal?.addEventListener('abort', onAbort, { once: true });
      // Cancelled while the worker was being handed over: nothing was sent yet.
      if (signal?.aborted) {
        finish({ error: cancelledError(signal.reason) }, 0); // the worker is unused, so it goes back idle
        return;
      }
      pooled.listener = (event) => {
        if (event.type === 'reply') {
          const { reply } = event;
          if (reply.id !== id) return;
          if (reply.type === 'dom-stages') {
            inDomStages = true;
            if (reply.body !== undefined) {
              outgoing.body = reply.body;
              outgoing.away = false;
            }
            const budget = Math.min(domBudgetMs, deadlineAt - Date.now() - STREAMED_STAGE_RESERVE_MS);
            const reason = `the DOM stages ran past ${domBudgetMs} ms`;
            if (budget <= 0)
              finish({ error: new DomStagesFailed('too little time was left for the DOM stages') }, 'end');
            else domTimer = setTimeout(() => finish({ error: new DomStagesFailed(reason) }, 'end'), budget);
            return;
          }
          if (reply.type === 'done') finish({ document: reply.document }, reply.heapBytes);
          else if (reply.type === 'failed') finish({ error: deserializeError(reply.error) }, reply.heapBytes);
          return;
        }
        if (event.type === 'exit' && closed) {
          finish({ error: cancelledError('the extraction pool is closed') }, 'end');
          return;
        }
        const outOfMemory =
          event.type === 'error' && (event.error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        if (outOfMemory && inDomStages) {
          finish({ error: new DomStagesFailed(`the DOM stages needed more than ${heapMb} MiB`) }, 'end');
        } else if (outOfMemory) {
          finish({ error: memoryError(heapMb) }, 'end');
        } else {
          finish({ error: workerFailure(event) }, 'end');
        }
      };
      const task: ExtractionTask = { id, options: { ...options, body: outgoing.body }, skipDomStages };
      const transfer: ArrayBuffer[] = [];
      if (outgoing.body instanceof Uint8Array) {
        // Never the caller's lent buffer: transferring that would empty the caller's array.
        if (!outgoing.owned) outgoing.body = new Uint8Array(outgoing.body);
        outgoing.owned = true;
        task.options.body = outgoing.body;
        transfer.push(outgoing.body.buffer as ArrayBuffer);
        outgoing.away = true;
      }
      try {
        pooled.worker.postMessage(task, transfer);
      } catch (error) {
        finish({ error: workerFailure({ type: 'error', error: error as Error }) }, 'end');
      }
    });
  };

  return {
    prepare() {
      const starting = [...all].some((pooled) => !pooled.ready);
      if (closed || idle.length > 0 || starting || all.size >= size) return;
      spawn();
    },
    async extract(options, run = {}) {
      if (closed) throw cancelledError('the extraction pool is closed');
      if (run.signal?.aborted) throw cancelledError(run.signal.reason);
      // Bodies a worker cannot be sent are refused by the same checks extract makes.
      if (typeof options.body !== 'string' && !(options.body instanceof Uint8Array)) return extract(options);
      const deadlineAt = run.deadlineAt ?? Date.now() + DEFAULT_EXTRACTION_DEADLINE_MS;
      const { body } = options;
      const outgoing: OutgoingBody = {
        body,
        owned: body instanceof Uint8Array && run.transferBody === true && fillsItsBuffer(body),
        away: false,
      };
      try {
        return await attempt(options, outgoing, undefined, deadlineAt, run.signal);
      } catch (error) {
        if (!(error instanceof DomStagesFailed)) throw error;
        // The worker hands the bytes back when its DOM stages start, which is when they can fail.
        if (outgoing.away) throw new Error('the extraction worker did not hand the body back');
        return attempt(options, outgoing, error.reason, deadlineAt, run.signal);
      }
    },
    async close() {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(cancelledError('the extraction pool is closed'));
      await Promise.all(
        [...all].map((pooled) => {
          pooled.listener?.({ type: 'exit', exitCode: 1 });
          end(pooled);
          return pooled.worker.terminate();
        }),
      );
    },
  };
}

let sharedPool: ExtractionPool | undefined;

/** The process-wide pool `fetchDocument` uses unless given another; created on first use. */
export function sharedExtractionPool(): ExtractionPool {
  sharedPool ??= createExtractionPool();
  return sharedPool;
}

/** Extraction on the calling thread, with no isolation: for hosts that cannot start worker threads. */
export const inlineExtraction: ExtractionPool = {
  extract: (options) => extract(options),
  close: async () => {},
};

/**
 * Where the worker's code is: the built `extraction-worker.js` beside this module, or, when this
 * module runs from its TypeScript source (tests, benchmarks), the `.ts` file loaded through tsx with
 * the workspace's source condition.
 */
function workerEntry(): { url: URL; execArgv: string[] | undefined } {
  const here = import.meta.url;
  if (!/\.[cm]?ts$/.test(new URL(here).pathname)) {
    return { url: new URL('./extraction-worker.js', here), execArgv: undefined };
  }
  const tsx = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const target = new URL('./extraction-worker.ts', here).href;
  const boot = `const { register } = await import(${JSON.stringify(pathToFileURL(tsx).href)}); register(); await import(${JSON.stringify(target)});`;
  return {
    url: new URL(`data:text/javascript,${encodeURIComponent(boot)}`),
    execArgv: ['--conditions=@mono-agent/source'],
  };
}

function timeoutError(): WebToolError {
  return new WebToolError({
    code: 'timeout',
    message: 'Extraction did not finish before the fetch deadline; the page is too costly to read in time.',
    details: { stage: 'extraction' },
  });
}

function cancelledError(reason: unknown): WebToolError {
  return new WebToolError({
    code: 'cancelled',
    message: 'The extraction was cancelled.',
    ...(reason === undefined ? {} : { cause: reason }),
    details: { stage: 'extraction' },
  });
}

function memoryError(heapMb: number): WebToolError {
  return new WebToolError({
    code: 'too_large',
    message: `The document needs more than ${heapMb} MiB of memory to extract. Ask for format "raw" to read it undecoded by a parser.`,
    details: { stage: 'extraction', limitMb: heapMb, reason: 'memory' },
  });
}

function workerFailure(event: WorkerEvent): WebToolError {
  const reason =
    event.type === 'exit' ? `exit ${event.exitCode}` : event.type === 'error' ? event.error.name : 'reply';
  return new WebToolError({
    code: 'internal_error',
    message: `The extraction worker stopped unexpectedly (${reason}); this is a bug worth reporting.`,
    details: { stage: 'extraction', reason },
  });
}
