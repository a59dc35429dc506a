import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import {
  commitMarginMs,
  createCommitTimer,
  HOST_INITIAL_COMMIT_MARGIN_MS,
  HOST_MAX_COMMIT_MARGIN_MS,
  HOST_MIN_COMMIT_MARGIN_MS,
} from './commit-timer.js';

describe('commit timing', () => {
  it('leads by the slowest recent commit plus half again, within bounds', () => {
    expect(commitMarginMs([])).toBe(HOST_INITIAL_COMMIT_MARGIN_MS);
    expect(commitMarginMs([4, 10, 6])).toBe(16);
    expect(commitMarginMs([1])).toBe(HOST_MIN_COMMIT_MARGIN_MS);
    expect(commitMarginMs([500])).toBe(HOST_MAX_COMMIT_MARGIN_MS);
  });

  it('times commits from their decision and forgets all but the last sixteen', () => {
    const clock = createManualClock();
    const timer = createCommitTimer(clock);
    timer.record(clock.now() - 60);
    expect(timer.marginMs()).toBe(91);
    for (let index = 0; index < 16; index += 1) timer.record(clock.now() - 10);
    expect(timer.marginMs()).toBe(16);
  });
});
