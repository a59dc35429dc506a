// The entry of an extraction worker thread: runs `extractWith` for each task the pool sends and
// answers with the document or a structured error. Nothing here outlives a task but loaded modules.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { extractWith } from '../extract.js';
import { loadDefuddle, loadLinkedom, loadReadability, loadTurndown } from '../lazy-modules.js';
import { type ExtractionReply, type ExtractionTask, serializeError } from './extraction-protocol.js';
import { fullCollector, occupiedAfterTask } from './worker-heap.js';

const port = parentPort;
if (port === null) throw new Error('extraction-worker runs only as a worker thread');

// Parsers log (PDF.js warns about every broken file). A worker's output would reach the host's
// stdout, which can be an MCP transport, so nothing in a worker writes there.
const silent = () => {};
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const) {
  console[method] = silent;
}
process.stdout.write = () => true;
process.stderr.write = () => true;

// PDF.js leaves some internal promises of a broken file rejected with no handler. The extraction's
// own promise still settles (or the deadline ends the worker), so such a rejection must not end it.
process.on('unhandledRejection', () => {});

// A worker exists to extract, and most bodies are HTML: its parsers load before it says it is ready,
// often while the request is still on the wire. A failure here shows again, reported, on first use.
const data = workerData as { preload?: boolean; recycleHeapMb?: number; flagLock?: Int32Array } | null;
const preload = data?.preload !== false;
void (
  preload
    ? Promise.all([loadLinkedom(), loadReadability(), loadDefuddle(), loadTurndown()])
    : Promise.resolve()
)
  .catch(() => {})
  .then(() => port.postMessage({ id: 0, type: 'ready' } satisfies ExtractionReply));

// Past the pool's replacement bound after a task, the heap is collected first (see occupiedAfterTask).
const recycleBytes = (data?.recycleHeapMb ?? Number.POSITIVE_INFINITY) * 1024 * 1024;
const collectGarbage = fullCollector(data?.flagLock);
const heapAfterTask = () =>
  occupiedAfterTask(recycleBytes, () => getHeapStatistics().total_physical_size, collectGarbage);

port.on('message', (task: ExtractionTask) => {
  void run(task);
});

async function run(task: ExtractionTask): Promise<void> {
  let reply: ExtractionReply;
  try {
    const document = await extractWith(task.options, {
      skipDomStages: task.skipDomStages,
      onDomStages: () => domStagesStart(task),
    });
    reply = { id: task.id, type: 'done', document, heapBytes: heapAfterTask() };
  } catch (error) {
    reply = {
      id: task.id,
      type: 'failed',
      error: serializeError(error),
      heapBytes: heapAfterTask(),
    };
  }
  port?.postMessage(reply);
}

/**
 * Says that the DOM stages start, and hands the body's bytes back: they are decoded by now, and the
 * pool needs them again only if the DOM stages fail. The pool sends bytes that fill their buffer.
 */
function domStagesStart(task: ExtractionTask): void {
  const { body } = task.options;
  if (body instanceof Uint8Array && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) {
    port?.postMessage({ id: task.id, type: 'dom-stages', body } satisfies ExtractionReply, [
      body.buffer as ArrayBuffer,
    ]);
  } else {
    port?.postMessage({ id: task.id, type: 'dom-stages' } satisfies ExtractionReply);
  }
}
