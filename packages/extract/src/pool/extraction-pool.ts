import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WebToolError } from '@mono-agent/budget-policy';
import { type ExtractOptions, extract } from '../extract.js';
import type { ExtractedDocument } from '../types.js';
import { deserializeError, type ExtractionReply, type ExtractionTask } from './extraction-protocol.js';
import {
  cancelledError,
  DomStagesFailed,
  memoryError,
  startFailure,
  timeoutError,
  type WorkerEvent,
  workerFailure,
} from './pool-errors.js';
import {
  DEFAULT_EXTRACTION_DEADLINE_MS,
  DOM_STAGES_BUDGET_MS,
  EXTRACTION_POOL_SIZE,
  EXTRACTION_WORKER_HEAP_MB,
  EXTRACTION_WORKER_YOUNG_HEAP_MB,
  type ExtractionPool,
  type ExtractionPoolOptions,
  poolNumber,
  RECYCLE_WORKER_HEAP_MB,
  recyclesWorker,
  STREAMED_STAGE_RESERVE_MS,
  WORKER_IDLE_MS,
} from './pool-options.js';
import { createFlagLock } from './worker-heap.js';

// One lock for every pool of the process, even pools of two copies of this package: the flag it
// guards is the process's.
const lockKey = Symbol.for('@mono-agent/extract:gc-flag-lock');
const lockHolder = globalThis as Record<symbol, Int32Array | undefined>;
lockHolder[lockKey] ??= createFlagLock();
const GC_FLAG_LOCK = lockHolder[lockKey];

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

/** Takes back the bytes a worker hands back when its DOM stages start, so a second attempt can send them. */
function takeBodyBack(outgoing: OutgoingBody, body: Uint8Array | undefined): void {
  if (body === undefined) return;
  outgoing.body = body;
  outgoing.away = false;
}

/**
 * The error a task ends with when its worker stops instead of replying: the pool was closed, the
 * worker ran out of memory (in the DOM stages, which the streamed stage may retry, or elsewhere),
 * or it failed otherwise.
 */
function stoppedWorkerError(
  event: Exclude<WorkerEvent, { type: 'reply' }>,
  closed: boolean,
  inDomStages: boolean,
  heapMb: number,
): unknown {
  if (event.type === 'exit' && closed) return cancelledError('the extraction pool is closed');
  const outOfMemory =
    event.type === 'error' && (event.error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
  if (outOfMemory && inDomStages) return new DomStagesFailed(`the DOM stages needed more than ${heapMb} MiB`);
  if (outOfMemory) return memoryError(heapMb);
  return workerFailure(event);
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
  /** The error the worker reported while it had no task (while starting), kept for its exit. */
  idleError: Error | undefined;
}

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
  // Workers ended but not yet stopped. They count against `size`: a replacement starts only once the
  // worker it replaces has stopped, so two heaps are never held at once.
  let ending = 0;
  const hasRoom = () => all.size + ending < size;

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
      idleError: undefined,
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
    worker.on('error', (error: Error) => {
      if (pooled.listener === undefined) pooled.idleError = error;
      else pooled.listener({ type: 'error', error });
    });
    worker.on('exit', (exitCode: number) => {
      const wasReady = pooled.ready;
      pooled.alive = false;
      all.delete(pooled);
      removeIdle(pooled);
      pooled.listener?.({ type: 'exit', exitCode });
      // A worker that cannot even start fails the extraction waiting for it instead of being
      // started again and again.
      if (!wasReady && !closed) waiters.shift()?.reject(startFailure(exitCode, pooled.idleError, heapMb));
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
   * Ends a worker. One ended while in use (recycled, or stopped at a deadline) is replaced as soon
   * as it has stopped, so the next extraction finds a ready worker; one ended for being idle is not.
   */
  const end = (pooled: PooledWorker, replace = true) => {
    pooled.listener = undefined;
    removeIdle(pooled);
    if (!pooled.alive) return;
    pooled.alive = false;
    all.delete(pooled);
    ending++;
    void pooled.worker.terminate().finally(() => {
      ending--;
      if (replace && !closed && hasRoom()) spawn();
      serveWaiters();
    });
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
    for (let index = starting; index < waiters.length && hasRoom() && !closed; index++) {
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
      const startDomStages = (body: Uint8Array | undefined) => {
        inDomStages = true;
        takeBodyBack(outgoing, body);
        const budget = Math.min(domBudgetMs, deadlineAt - Date.now() - STREAMED_STAGE_RESERVE_MS);
        const reason = `the DOM stages ran past ${domBudgetMs} ms`;
        if (budget <= 0)
          finish({ error: new DomStagesFailed('too little time was left for the DOM stages') }, 'end');
        else domTimer = setTimeout(() => finish({ error: new DomStagesFailed(reason) }, 'end'), budget);
      };
      pooled.listener = (event) => {
        if (event.type !== 'reply') {
          finish({ error: stoppedWorkerError(event, closed, inDomStages, heapMb) }, 'end');
          return;
        }
        const { reply } = event;
        if (reply.id !== id) return;
        if (reply.type === 'dom-stages') startDomStages(reply.body);
        else if (reply.type === 'done') finish({ document: reply.document }, reply.heapBytes);
        else if (reply.type === 'failed') finish({ error: deserializeError(reply.error) }, reply.heapBytes);
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
      if (closed || idle.length > 0 || starting || !hasRoom()) return;
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
