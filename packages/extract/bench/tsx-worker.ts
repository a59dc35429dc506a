// Starts a worker thread that runs a bench file's own TypeScript through tsx, the way the extraction
// pool loads its worker, with the pool's young generation and the given old-generation bound.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A worker thread running `fileUrl` (a bench file's `import.meta.url`) with `workerData`. */
export async function startTsxWorker(
  fileUrl: string,
  workerData: unknown,
  oldHeapMb: number,
): Promise<Worker> {
  const { EXTRACTION_WORKER_YOUNG_HEAP_MB } = await import('../src/pool/pool-options.js');
  const tsx = createRequire(fileUrl)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const boot = `const { register } = await import(${JSON.stringify(pathToFileURL(tsx).href)}); register(); await import(${JSON.stringify(fileUrl)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
    execArgv: ['--conditions=@mono-agent/source'],
    workerData,
    resourceLimits: {
      maxOldGenerationSizeMb: oldHeapMb,
      maxYoungGenerationSizeMb: EXTRACTION_WORKER_YOUNG_HEAP_MB,
    },
  });
}
