// The entry of an extraction worker thread: runs `extractWith` for each task the pool sends and
// answers with the document or a structured error. Nothing here outlives a task but loaded modules.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { extractWith } from './extract.js';
import { type ExtractionReply, type ExtractionTask, serializeError } from './extraction-protocol.js';

const port = parentPort;
if (port === null) throw new Error('extraction-worker runs only as a worker thread');

port.on('message', (task: ExtractionTask) => {
  void run(task);
});

async function run(task: ExtractionTask): Promise<void> {
  let reply: ExtractionReply;
  try {
    const document = await extractWith(task.options, {
      skipDomStages: task.skipDomStages,
      onDomStages: () => port?.postMessage({ id: task.id, type: 'dom-stages' } satisfies ExtractionReply),
    });
    reply = { id: task.id, type: 'done', document, heapUsedBytes: getHeapStatistics().used_heap_size };
  } catch (error) {
    reply = {
      id: task.id,
      type: 'failed',
      error: serializeError(error),
      heapUsedBytes: getHeapStatistics().used_heap_size,
    };
  }
  port?.postMessage(reply);
}
