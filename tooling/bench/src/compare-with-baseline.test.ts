import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareWithBaseline } from './compare-with-baseline.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function spin(iterations: number) {
  let total = 0;
  for (let index = 0; index < iterations; index += 1) total += Math.sqrt(index);
  return total;
}

describe('compareWithBaseline', () => {
  it('measures every case and divides by the baseline', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const rows = await compareWithBaseline({
      title: 'spin',
      baseline: { name: 'light', run: () => spin(200) },
      candidates: [{ name: 'heavy', run: () => spin(20_000) }],
      timeMs: 40,
    });
    expect(rows.map((row) => row.name)).toEqual(['light', 'heavy']);
    expect(rows[0]!.ratioToBaseline).toBe(1);
    // 100 times the work cannot come out cheaper than the baseline.
    expect(rows[1]!.ratioToBaseline).toBeGreaterThan(1);
    expect(log.mock.calls.flat().join('\n')).toContain('light (baseline)');
  });
});
