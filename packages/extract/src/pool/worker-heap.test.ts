import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createFlagLock, fullCollector, occupiedAfterTask } from './worker-heap.js';

describe('occupiedAfterTask', () => {
  it('collects only a heap past the bound, and reports what is left after collecting', () => {
    let heap = 100;
    let collected = 0;
    const collect = () => {
      collected++;
      heap = 40;
    };
    expect(occupiedAfterTask(100, () => heap, collect)).toBe(100);
    expect(collected).toBe(0);
    expect(occupiedAfterTask(99, () => heap, collect)).toBe(40);
    expect(collected).toBe(1);
  });
});

describe('fullCollector', () => {
  it("frees a heap's garbage, and leaves no other context a gc function", () => {
    const collect = fullCollector();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc === 'function').toBe(
      process.execArgv.includes('--expose-gc'),
    );
    collect();
    const floor = getHeapStatistics().used_heap_size;
    let garbage: unknown[] | undefined = Array.from({ length: 500_000 }, (_, index) => ({
      index,
      text: `item ${index}`,
    }));
    expect(getHeapStatistics().used_heap_size - floor).toBeGreaterThan(20 * 1024 * 1024);
    expect(garbage.length).toBe(500_000);
    garbage = undefined;
    collect();
    expect(getHeapStatistics().used_heap_size - floor).toBeLessThan(5 * 1024 * 1024);
  });
});

/** Starts `threads` worker threads that each ask `rounds` times for a collector, and counts real ones. */
async function collectorsInThreads(threads: number, rounds: number, lock: Int32Array): Promise<number[]> {
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  );
  const heap = new URL('./worker-heap.ts', import.meta.url).href;
  const boot = `
    const { register } = await import(${JSON.stringify(tsx.href)});
    register();
    const { parentPort, workerData } = await import('node:worker_threads');
    const { fullCollector } = await import(${JSON.stringify(heap)});
    let real = 0;
    for (let round = 0; round < workerData.rounds; round++) {
      if (fullCollector(workerData.lock).name === 'gc') real++;
    }
    parentPort.postMessage(real);`;
  return Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
            workerData: { rounds, lock },
          });
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`worker exited (${code}) without an answer`)));
        }),
    ),
  );
}

describe('fullCollector in concurrent worker threads', () => {
  it('gives every thread a real collector while others set and unset the process-wide flag', async () => {
    // Without the shared lock, one thread unsetting the flag while another makes its context left
    // the other with no collector, and the worker ended with exit code 1 before it was ready.
    const counts = await collectorsInThreads(6, 150, createFlagLock());
    expect(counts).toEqual([150, 150, 150, 150, 150, 150]);
  }, 60_000);
});
