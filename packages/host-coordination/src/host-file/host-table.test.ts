// The host store's table operations on plain tables, without a state file or a lock.
import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { createBucket } from '../admission-policy.js';
import type { BucketState, BucketTable } from '../bucket-state.js';
import type { StoreContext, TableOperation } from '../table-store.js';
import {
  applyToTable,
  evictExpired,
  freesSlot,
  keepsWaiting,
  putBucket,
  serializeWithinLimits,
  wouldDecideNow,
} from './host-table.js';
import { MAX_STATE_BUCKETS, MAX_STATE_BYTES, STATE_FILE_VERSION } from './state-file.js';

const NOW = 1_700_000_000_000;

function context(now = NOW): StoreContext {
  return { now, owner: { pid: 4242, host: 'test-host', incarnation: 'boot:1' }, isOwnerAlive: () => true };
}

const admit: TableOperation = {
  type: 'admit',
  request: { kind: 'search', concurrency: 1, spacingMs: 0, leaseTtlMs: 60_000 },
  marginMs: 0,
};

/** A bucket with nothing in flight and nothing pending: evictable. */
function expiredBucket(): BucketState {
  return createBucket('search', 0, NOW - 60_000);
}

/** A bucket whose spacing still runs: kept. */
function spacedBucket(): BucketState {
  return { ...createBucket('search', 10_000, NOW), lastStartAt: NOW };
}

function capacityLimit(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    if (WebToolError.isInstance(error, 'capacity_exceeded')) return error.details['limit'];
    throw error;
  }
  throw new Error('expected capacity_exceeded');
}

describe('host table operations', () => {
  it('grants into a new bucket, makes the next admission wait, and frees the slot on release', () => {
    const buckets: BucketTable = {};
    const first = applyToTable(buckets, 'scope', admit, context(), new Set());
    if (first.type !== 'admit' || first.decision.type !== 'granted') throw new Error('expected a grant');
    expect(buckets['scope']?.leases).toHaveLength(1);
    expect(keepsWaiting(first)).toBe(false);

    const second = applyToTable(buckets, 'scope', admit, context(), new Set());
    expect(second).toMatchObject({ type: 'admit', decision: { type: 'wait', reason: 'slot' } });
    expect(keepsWaiting(second)).toBe(true);

    const { lease } = first.decision;
    const release: TableOperation = {
      type: 'release',
      release: { leaseId: lease.id, startAt: lease.acquiredAt, outcome: 'success' },
    };
    const released = applyToTable(buckets, 'scope', release, context(), new Set());
    expect(freesSlot(released)).toBe(true);
    expect(buckets['scope']?.leases).toEqual([]);
    // A lease released twice was not held the second time: nothing is freed.
    expect(freesSlot(applyToTable(buckets, 'scope', release, context(), new Set()))).toBe(false);
  });

  it('makes room for a new bucket by evicting expired ones, never those the transaction kept', () => {
    const buckets: BucketTable = {};
    for (let index = 0; index < MAX_STATE_BUCKETS; index += 1) buckets[`spaced-${index}`] = spacedBucket();
    buckets['spaced-0'] = expiredBucket();
    expect(capacityLimit(() => applyToTable(buckets, 'new', admit, context(), new Set(['spaced-0'])))).toBe(
      MAX_STATE_BUCKETS,
    );
    expect(buckets['new']).toBeUndefined();

    applyToTable(buckets, 'new', admit, context(), new Set());
    expect(buckets['spaced-0']).toBeUndefined();
    expect(buckets['new']?.leases).toHaveLength(1);
    expect(Object.keys(buckets)).toHaveLength(MAX_STATE_BUCKETS);
  });

  it('tries an admission on a copy, leaving the bucket as it was', () => {
    const buckets: BucketTable = {};
    applyToTable(buckets, 'scope', admit, context(), new Set());
    const before = structuredClone(buckets['scope']);
    expect(wouldDecideNow(buckets['scope'], admit, context())).toBe(false);
    expect(wouldDecideNow(undefined, admit, context())).toBe(true);
    expect(buckets['scope']).toEqual(before);
  });

  it('evicts only expired buckets outside the kept set, and puts or deletes one bucket', () => {
    const buckets: BucketTable = { old: expiredBucket(), kept: expiredBucket(), busy: spacedBucket() };
    expect(evictExpired(buckets, NOW, new Set(['kept']))).toBe(1);
    expect(Object.keys(buckets).sort()).toEqual(['busy', 'kept']);
    putBucket(buckets, 'kept', undefined);
    putBucket(buckets, 'fresh', spacedBucket());
    expect(Object.keys(buckets).sort()).toEqual(['busy', 'fresh']);
  });

  it('serializes within the limits, writing combined results only when there are any', () => {
    const buckets: BucketTable = { busy: spacedBucket() };
    const plain = JSON.parse(
      serializeWithinLimits({ version: STATE_FILE_VERSION, buckets, applied: {} }, NOW, new Set()),
    );
    expect(plain).toEqual({ version: STATE_FILE_VERSION, buckets });
    const withResults = serializeWithinLimits(
      { version: STATE_FILE_VERSION, buckets, applied: { ticket: { superseded: true } } },
      NOW,
      new Set(),
    );
    expect(JSON.parse(withResults).applied).toEqual({ ticket: { superseded: true } });

    // Too large even once the expired bucket is evicted: refused, and the eviction is visible.
    const large = { old: expiredBucket(), busy: spacedBucket() };
    const oversized = {
      version: STATE_FILE_VERSION,
      buckets: large,
      applied: { ticket: 'x'.repeat(300_000) },
    } as const;
    expect(capacityLimit(() => serializeWithinLimits(oversized, NOW, new Set()))).toBe(MAX_STATE_BYTES);
    expect(Object.keys(large)).toEqual(['busy']);

    const crowded: BucketTable = {};
    for (let index = 0; index <= MAX_STATE_BUCKETS; index += 1) crowded[`spaced-${index}`] = spacedBucket();
    expect(
      capacityLimit(() =>
        serializeWithinLimits({ version: STATE_FILE_VERSION, buckets: crowded }, NOW, new Set()),
      ),
    ).toBe(MAX_STATE_BUCKETS);
  });
});
