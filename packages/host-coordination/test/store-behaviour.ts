// One behavioural suite for every CoordinationStore: process memory, the host state file and Redis.
// It drives each store through the public coordinator with the real clock, so a store passes only by
// keeping the same admission contract (slots, spacing, cooldowns, the probe, leases, status, reset).
import { describe, expect, it } from 'vitest';
import {
  type Admission,
  type CoordinationStore,
  createCoordinator,
  MIN_LEASE_TTL_MS,
  type Permit,
  SEARCH_THROTTLE_COOLDOWN_MS,
  scopeKey,
} from '../src/index.js';

/** A fresh, empty store for one test, and how to end a cooldown early without waiting it out. */
export interface StoreUnderTest {
  store: CoordinationStore;
  /** Moves the scope's cooldown end into the past, as if it had run out. */
  endCooldown(key: string): Promise<void>;
}

function permitOf(admission: Admission): Permit {
  if (admission.status !== 'admitted') throw new Error(`expected a permit, got ${JSON.stringify(admission)}`);
  return admission;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the suite for one store kind. */
export function describeStoreBehaviour(name: string, create: () => Promise<StoreUnderTest>): void {
  describe(`store behaviour: ${name}`, () => {
    async function setup(leaseTtlMs?: number) {
      const target = await create();
      const coordinator = createCoordinator({
        store: target.store,
        ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
      });
      return { ...target, coordinator };
    }

    it('admits up to the concurrency, holds the next caller until a release, then admits it', async () => {
      const { coordinator, store } = await setup();
      const request = { scope: 'slots', concurrency: 2, spacingMs: 0 };
      const first = permitOf(await coordinator.admit(request));
      const second = permitOf(await coordinator.admit(request));
      let third: Admission | undefined;
      const waiting = coordinator.admit(request).then((admission) => {
        third = admission;
        return admission;
      });
      await sleep(150);
      expect(third).toBeUndefined();
      expect((await coordinator.status()).activeRequests).toBe(2);
      await first.release({ outcome: 'success' });
      permitOf(await waiting);
      expect((await coordinator.status()).activeRequests).toBe(2);
      expect((await second.release({ outcome: 'success' })).released).toBe(true);
      expect((await second.release({ outcome: 'success' })).released).toBe(false);
      await permitOf(third as Admission).release({ outcome: 'abandoned' });
      expect((await coordinator.status()).activeRequests).toBe(0);
      await store.close();
    });

    it('lets callers go no sooner than the spacing apart, measured where admit() resolves', async () => {
      const { coordinator, store } = await setup();
      const request = { scope: 'spacing', concurrency: 3, spacingMs: 120 };
      const resolved: number[] = [];
      await Promise.all(
        [0, 1, 2].map(async () => {
          const permit = permitOf(await coordinator.admit(request));
          resolved.push(performance.now());
          await permit.release({ outcome: 'success' });
        }),
      );
      resolved.sort((left, right) => left - right);
      // Timers may fire up to a millisecond early after rounding; never more.
      expect(resolved[1]! - resolved[0]!).toBeGreaterThanOrEqual(119);
      expect(resolved[2]! - resolved[1]!).toBeGreaterThanOrEqual(119);
      await store.close();
    });

    it('spaces the next start from the start a caller reports, even one ahead of the store clock', async () => {
      // A caller on another machine estimates the store's clock from the grant's answer, so the start
      // it reports (its permit's admittedAt) can be ahead of the store's clock at release by up to a
      // round trip. The next grant must still come a whole spacing after that reported start.
      const { store } = await setup();
      const key = scopeKey(`reported-start-${name}`);
      const request = { kind: 'search', concurrency: 1, spacingMs: 200, leaseTtlMs: 5_000 } as const;
      const first = await store.admit(key, request);
      if (first.type !== 'granted') throw new Error(`expected a grant, got ${first.type}`);
      const reported = first.startAt + 80;
      await store.release(key, {
        leaseId: first.leaseId,
        startAt: first.startAt,
        outcome: 'success',
        startedAt: reported,
      });
      let next = await store.admit(key, request);
      for (let attempt = 0; next.type === 'wait' && attempt < 20; attempt += 1) {
        await sleep(next.waitMs);
        next = await store.admit(key, request);
      }
      if (next.type !== 'granted') throw new Error(`expected a grant, got ${next.type}`);
      expect(next.startAt).toBeGreaterThanOrEqual(reported + 200);
      await store.release(key, { leaseId: next.leaseId, startAt: next.startAt, outcome: 'success' });
      await store.close();
    });

    it('bounds a reported start by the lease it was reported for', async () => {
      const { store } = await setup();
      const key = scopeKey(`reported-start-bound-${name}`);
      const request = {
        kind: 'search',
        concurrency: 1,
        spacingMs: 200,
        leaseTtlMs: MIN_LEASE_TTL_MS,
      } as const;
      const first = await store.admit(key, request);
      if (first.type !== 'granted') throw new Error(`expected a grant, got ${first.type}`);
      // An hour ahead: no real caller reports that, and it may hold the scope no longer than the lease.
      await store.release(key, {
        leaseId: first.leaseId,
        startAt: first.startAt,
        outcome: 'success',
        startedAt: first.startAt + 3_600_000,
      });
      const next = await store.admit(key, request);
      expect(next.type).toBe('wait');
      if (next.type !== 'wait') return;
      // Moved by the report (a plain release would leave about one spacing to wait), but no further
      // than one spacing past the lease's expiry; the wait counts from now plus the commit margin.
      expect(next.waitMs).toBeGreaterThan(MIN_LEASE_TTL_MS - 300);
      expect(next.now + next.waitMs).toBeLessThanOrEqual(first.startAt + MIN_LEASE_TTL_MS + 200);
      await store.close();
    });

    it('skips while a throttle cooldown runs, then lets exactly one probe through', async () => {
      const { coordinator, store } = await setup();
      const request = { scope: 'throttled', concurrency: 2, spacingMs: 0 };
      const throttled = await permitOf(await coordinator.admit(request)).release({
        outcome: 'throttled',
        retryAfterMs: 400,
      });
      expect(throttled).toMatchObject({ released: true, coolingDown: true });
      expect(throttled.retryAfterMs).toBeGreaterThan(300);
      expect(throttled.retryAfterMs).toBeLessThanOrEqual(400);
      const skip = await coordinator.admit(request);
      expect(skip).toMatchObject({
        status: 'skipped',
        code: 'cooldown',
        reason: 'cooldown',
        cause: 'throttled',
      });
      expect(throttled.cause).toBe('throttled');
      const status = await coordinator.status();
      expect(status.coolingDownCount).toBe(1);
      expect(status.scopes[0]).toMatchObject({
        key: scopeKey('throttled'),
        coolingDown: true,
        throttleStreak: 1,
      });
      await sleep(450);
      expect((await coordinator.status()).scopes[0]).toMatchObject({ probeDue: true, probeInFlight: false });
      const probe = permitOf(await coordinator.admit(request));
      expect(probe.probe).toBe(true);
      expect(await coordinator.admit(request)).toMatchObject({
        status: 'skipped',
        reason: 'probe_in_flight',
      });
      expect((await coordinator.status()).scopes[0]).toMatchObject({ probeInFlight: true });
      expect(await probe.release({ outcome: 'success' })).toMatchObject({ coolingDown: false });
      const after = permitOf(await coordinator.admit(request));
      expect(after.probe).toBe(false);
      await after.release({ outcome: 'success' });
      expect((await coordinator.status()).scopes[0]).toMatchObject({ throttleStreak: 0, coolingDown: false });
      await store.close();
    });

    it('doubles the cooldown when the probe is throttled again, but not for one burst', async () => {
      const { coordinator, store, endCooldown } = await setup();
      const request = { scope: 'doubling', concurrency: 2, spacingMs: 0 };
      const first = permitOf(await coordinator.admit(request));
      const second = permitOf(await coordinator.admit(request));
      const opened = await first.release({ outcome: 'throttled' });
      const sameBurst = await second.release({ outcome: 'throttled' });
      expect(opened.retryAfterMs).toBeGreaterThan(SEARCH_THROTTLE_COOLDOWN_MS - 1_000);
      expect(sameBurst.retryAt).toBe(opened.retryAt);
      await endCooldown(scopeKey('doubling'));
      const probe = permitOf(await coordinator.admit(request));
      expect(probe.probe).toBe(true);
      const doubled = await probe.release({ outcome: 'throttled' });
      expect(doubled.retryAfterMs).toBeGreaterThan(2 * SEARCH_THROTTLE_COOLDOWN_MS - 1_000);
      expect(doubled.retryAfterMs).toBeLessThanOrEqual(2 * SEARCH_THROTTLE_COOLDOWN_MS);
      expect((await coordinator.status()).scopes[0]?.throttleStreak).toBe(2);
      await store.close();
    });

    it('opens a cooldown after two infrastructure failures', async () => {
      const { coordinator, store } = await setup();
      const request = { scope: 'failing', kind: 'fetch' as const, concurrency: 1, spacingMs: 0 };
      const once = await permitOf(await coordinator.admit(request)).release({
        outcome: 'infrastructure_failure',
      });
      expect(once.coolingDown).toBe(false);
      const twice = await permitOf(await coordinator.admit(request)).release({
        outcome: 'infrastructure_failure',
      });
      expect(twice).toMatchObject({ coolingDown: true, cause: 'infrastructure_failure' });
      expect(await coordinator.admit(request)).toMatchObject({
        status: 'skipped',
        cause: 'infrastructure_failure',
      });
      expect((await coordinator.status()).scopes[0]).toMatchObject({
        cooldownCause: 'infrastructure_failure',
      });
      await store.close();
    });

    it(`frees a lease nobody released once its ${MIN_LEASE_TTL_MS} ms lifetime passes`, async () => {
      const { coordinator, store } = await setup(MIN_LEASE_TTL_MS);
      const request = { scope: 'ttl', concurrency: 1, spacingMs: 0 };
      permitOf(await coordinator.admit(request));
      const started = performance.now();
      const next = permitOf(await coordinator.admit(request));
      expect(performance.now() - started).toBeGreaterThanOrEqual(MIN_LEASE_TTL_MS - 50);
      await next.release({ outcome: 'success' });
      expect((await coordinator.status()).activeRequests).toBe(0);
      await store.close();
    });

    it('reports hashed keys only, refuses reset while a request is active, and clears after', async () => {
      const { coordinator, store } = await setup();
      const scope = 'https://secret.example/path?q=private';
      const permit = permitOf(await coordinator.admit({ scope, concurrency: 1, spacingMs: 0 }));
      const status = await coordinator.status();
      expect(JSON.stringify(status)).not.toContain('secret.example');
      expect(status.scopes.map((entry) => entry.key)).toEqual([scopeKey(scope)]);
      expect(await coordinator.reset()).toMatchObject({
        reset: false,
        reason: 'active_requests',
        activeRequests: 1,
      });
      await permit.release({ outcome: 'success' });
      expect(await coordinator.reset()).toMatchObject({ reset: true, clearedBuckets: 1 });
      expect((await coordinator.status()).bucketCount).toBe(0);
      await store.close();
    });

    it('leaves no lease behind when an admission is aborted while waiting', async () => {
      const { coordinator, store } = await setup();
      const request = { scope: 'abort', concurrency: 1, spacingMs: 0 };
      const holder = permitOf(await coordinator.admit(request));
      const controller = new AbortController();
      const waiting = coordinator.admit(request, { signal: controller.signal });
      await sleep(50);
      controller.abort();
      await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
      await holder.release({ outcome: 'success' });
      expect((await coordinator.status()).activeRequests).toBe(0);
      await store.close();
    });
  });
}
