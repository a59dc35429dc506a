import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPool } from './extraction-pool.js';
import {
  type ExtractionPool,
  MAX_TASKS_PER_WORKER,
  RECYCLE_WORKER_HEAP_MB,
  recyclesWorker,
} from './pool-options.js';

const url = 'https://example.org/';
const article = `<!doctype html><html><head><title>T</title></head><body><article><h1>Title</h1>${'<p>Some words of a paragraph that reads like an article.</p>'.repeat(20)}</article></body></html>`;
const bigJson = JSON.stringify(Array.from({ length: 150_000 }, (_, index) => ({ index, name: `n${index}` })));
const pools: ExtractionPool[] = [];
const pool = (options: Parameters<typeof createExtractionPool>[0] = {}) => {
  const created = createExtractionPool(options);
  pools.push(created);
  return created;
};
afterAll(async () => {
  await Promise.all(pools.map((created) => created.close()));
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => {
      if (!WebToolError.isInstance(error)) throw error;
      return error;
    },
  );

// Worker start-up on a busy machine can take many seconds; the bounds tested here are not timings.
describe('the extraction pool', { timeout: 90_000 }, () => {
  it('extracts in a worker and leaves the caller’s bytes intact', async () => {
    const body = new TextEncoder().encode(article);
    const document = await pool().extract({ body, url, contentType: 'text/html' });
    expect(document.title).toBe('T');
    expect(body.byteLength).toBe(article.length);
  });

  it('ends the worker at the deadline with a timeout', async () => {
    const error = await failure(
      pool().extract(
        { body: bigJson, url, contentType: 'application/json' },
        { deadlineAt: Date.now() + 20 },
      ),
    );
    expect(error.code).toBe('timeout');
  });

  it('ends the worker when cancelled', async () => {
    const controller = new AbortController();
    const pending = pool().extract(
      { body: bigJson, url, contentType: 'application/json' },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await failure(pending)).code).toBe('cancelled');
  });

  it('moves a handed-over body to the worker instead of copying it', async () => {
    const body = new TextEncoder().encode(article);
    const document = await pool().extract({ body, url, contentType: 'text/html' }, { transferBody: true });
    expect(document.title).toBe('T');
    expect(document.content).toContain('Some words of a paragraph');
    // The caller gave its buffer away: its array is empty now.
    expect(body.byteLength).toBe(0);
  });

  it('copies a handed-over body that is a view into a larger buffer, leaving that buffer intact', async () => {
    const bytes = new TextEncoder().encode(`xx${article}yy`);
    const body = bytes.subarray(2, bytes.length - 2);
    const document = await pool().extract({ body, url, contentType: 'text/html' }, { transferBody: true });
    expect(document.title).toBe('T');
    expect(body.byteLength).toBe(article.length);
    expect(new TextDecoder().decode(bytes)).toBe(`xx${article}yy`);
  });

  it.each([
    ['lent', false],
    ['handed over', true],
  ])('sends a %s byte body again when the DOM stages fail', async (_, transferBody) => {
    const body = new TextEncoder().encode(article);
    const document = await pool({ domStagesBudgetMs: 1 }).extract(
      { body, url, contentType: 'text/html' },
      { transferBody },
    );
    expect(document.stage).toBe('streamed-text');
    expect(document.content).toContain('# Title');
    expect(document.content).toContain('Some words of a paragraph');
    expect(body.byteLength).toBe(transferBody ? 0 : article.length);
  });

  it.each([
    ['size', Number.NaN],
    ['size', -1],
    ['heapMb', 0],
    ['heapMb', Number.POSITIVE_INFINITY],
    ['domStagesBudgetMs', -5],
    ['recycleHeapMb', Number.NaN],
    ['recycleHeapMb', '80'],
  ] as const)('refuses the pool option %s = %s, naming it', (option, value) => {
    let error: unknown;
    try {
      createExtractionPool({ [option]: value } as Parameters<typeof createExtractionPool>[0]);
    } catch (caught) {
      error = caught;
    }
    expect(WebToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'validation_error', details: { option } });
    expect((error as Error).message).toContain(option);
  });

  it('takes the bounds of its options at their edges', async () => {
    const edge = pool({ size: 0, recycleHeapMb: 0, domStagesBudgetMs: 0, heapMb: 64 });
    // A budget of 0 ms sends every page to the streamed stage; a bound of 0 replaces each worker.
    const document = await edge.extract({ body: article, url, contentType: 'text/html' });
    expect(document.stage).toBe('streamed-text');
  });

  it('replaces a worker whose heap grew past the bound, or that ran its share of tasks', () => {
    const bound = RECYCLE_WORKER_HEAP_MB * 1024 * 1024;
    expect(recyclesWorker(1, bound, RECYCLE_WORKER_HEAP_MB)).toBe(false);
    expect(recyclesWorker(1, bound + 1, RECYCLE_WORKER_HEAP_MB)).toBe(true);
    expect(recyclesWorker(MAX_TASKS_PER_WORKER - 1, 0, RECYCLE_WORKER_HEAP_MB)).toBe(false);
    expect(recyclesWorker(MAX_TASKS_PER_WORKER, 0, RECYCLE_WORKER_HEAP_MB)).toBe(true);
  });

  it('falls back to the streamed-text stage when the DOM stages run past their budget', async () => {
    const document = await pool({ domStagesBudgetMs: 1 }).extract({
      body: article,
      url,
      contentType: 'text/html',
    });
    expect(document.stage).toBe('streamed-text');
    expect(document.parserFailures[0]?.reason).toBe('skipped: the DOM stages ran past 1 ms');
    expect(document.content).toContain('# Title');
  });

  // 16 MiB holds the extractor's code (a worker needs about 5 to start) but not the parsed document.
  it('answers too_large when a document needs more memory than a worker has', async () => {
    const error = await failure(
      pool({ heapMb: 16, preloadHtmlParsers: false }).extract({
        body: bigJson,
        url,
        contentType: 'application/json',
      }),
    );
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ reason: 'memory', limitMb: 16 });
  });

  // A heap too small to load the extractor is the pool's setting, not the document: said as such,
  // not as a bug (it was an internal_error "exit 1" before) nor as the document being too large.
  it.each([2, 4])(
    'answers configuration_error when a %d MiB worker cannot even load the extractor',
    async (heapMb) => {
      const error = await failure(
        pool({ heapMb, preloadHtmlParsers: false }).extract({
          body: '{"a":1}',
          url,
          contentType: 'application/json',
        }),
      );
      expect(error.code).toBe('configuration_error');
      expect(error.message).toContain(`ran out of its ${heapMb} MiB heap while loading the extractor`);
      expect(error.message).toContain('larger heapMb');
      expect(error.details).toMatchObject({ reason: 'worker_start_memory', limitMb: heapMb });
    },
  );

  it('keeps serving after a worker was ended', async () => {
    const shared = pool({ size: 1 });
    await failure(
      shared.extract(
        { body: bigJson, url, contentType: 'application/json' },
        { deadlineAt: Date.now() + 20 },
      ),
    );
    const document = await shared.extract({ body: '{"a":1}', url, contentType: 'application/json' });
    expect(document.content).toBe('{\n  "a": 1\n}');
  });
});
