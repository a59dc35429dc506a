import { afterEach, describe, expect, it, vi } from 'vitest';

// Counts the workers the pool starts, and the most that lived at once; they are real workers.
const started = vi.hoisted(() => ({ count: 0, alive: 0, mostAlive: 0 }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:worker_threads')>();
  class CountedWorker extends original.Worker {
    constructor(...args: ConstructorParameters<typeof original.Worker>) {
      super(...args);
      started.count++;
      started.alive++;
      started.mostAlive = Math.max(started.mostAlive, started.alive);
      this.once('exit', () => {
        started.alive--;
      });
    }
  }
  return { ...original, Worker: CountedWorker };
});

const { createExtractionPool } = await import('./extraction-pool.js');
type Pool = ReturnType<typeof createExtractionPool>;

const url = 'https://example.org/';
const page = `<!doctype html><html><head><title>T</title></head><body><article><h1>Title</h1>${'<p>Some words of a paragraph that reads like an article.</p>'.repeat(20)}</article></body></html>`;
let pool: Pool | undefined;
afterEach(async () => {
  await pool?.close();
  Object.assign(started, { count: 0, alive: 0, mostAlive: 0 });
});

const extractThree = async (created: Pool) => {
  for (let index = 0; index < 3; index++) {
    const document = await created.extract({
      body: new TextEncoder().encode(page),
      url,
      contentType: 'text/html',
    });
    expect(document.title).toBe('T');
  }
};

describe('worker replacement by heap size', { timeout: 90_000 }, () => {
  it('keeps one worker while its heap stays under the bound', async () => {
    pool = createExtractionPool({ size: 1, recycleHeapMb: 4096 });
    await extractThree(pool);
    expect(started.count).toBe(1);
  });

  it('replaces the worker after each task whose heap ends past the bound, and goes on serving', async () => {
    pool = createExtractionPool({ size: 1, recycleHeapMb: 1 });
    await extractThree(pool);
    // One for each task, and the replacement started after the last once that one has stopped:
    // a replacement never holds its heap beside the heap of the worker it replaces.
    await vi.waitFor(() => expect(started.count).toBe(4));
    expect(started.mostAlive).toBe(1);
  });
});
