import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { fullCollector, occupiedAfterTask } from './worker-heap.js';

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
