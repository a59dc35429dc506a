import { describe, expect, it } from 'vitest';
import { type Clock, systemClock } from './clock.js';
import { MIN_LEASE_TTL_MS } from './coordinator.js';
import { createMemoryStore } from './memory-store.js';
import { scopeKey } from './scope-key.js';

/** A clock that moves on by `stepMs` each time it is read, as a busy machine's clock does between two reads. */
function steppingClock(stepMs: number): Clock {
  let now = 1_700_000_000_000;
  return { now: () => (now += stepMs), sleep: systemClock.sleep };
}

describe('a store answering a wait', () => {
  it('counts the wait from the answer’s time, so the time spent deciding is not waited twice', async () => {
    const store = createMemoryStore({ clock: steppingClock(7) });
    const key = scopeKey('wait-from-answer');
    const request = { kind: 'search', concurrency: 1, spacingMs: 200, leaseTtlMs: MIN_LEASE_TTL_MS } as const;
    const first = await store.admit(key, request);
    if (first.type !== 'granted') throw new Error(`expected a grant, got ${first.type}`);
    await store.release(key, { leaseId: first.leaseId, startAt: first.startAt, outcome: 'success' });
    const spaced = await store.admit(key, request);
    if (spaced.type !== 'wait') throw new Error(`expected a wait, got ${spaced.type}`);
    expect(spaced.reason).toBe('spacing');
    expect(spaced.now + spaced.waitMs).toBe(first.startAt + 200);

    const held = await store.admit(scopeKey('wait-from-answer-slot'), request);
    if (held.type !== 'granted') throw new Error(`expected a grant, got ${held.type}`);
    const full = await store.admit(scopeKey('wait-from-answer-slot'), request);
    if (full.type !== 'wait') throw new Error(`expected a wait, got ${full.type}`);
    expect(full.reason).toBe('slot');
    expect(full.now + full.waitMs).toBe(held.startAt + MIN_LEASE_TTL_MS);
    await store.close();
  });
});
