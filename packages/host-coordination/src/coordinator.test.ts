import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import {
  FETCH_THROTTLE_COOLDOWN_MS,
  INFRASTRUCTURE_FAILURE_COOLDOWN_MS,
  MAX_COOLDOWN_MS,
  SEARCH_THROTTLE_COOLDOWN_MS,
} from './admission-policy.js';
import { createManualClock, type ManualClock } from './clock.js';
import {
  type Admission,
  type AdmissionRequest,
  createCoordinator,
  DEFAULT_LEASE_TTL_MS,
  MAX_LEASE_TTL_MS,
  MAX_SCOPE_CONCURRENCY,
  MAX_SCOPE_NAME_LENGTH,
  MAX_SPACING_MS,
  MIN_LEASE_TTL_MS,
  type Permit,
} from './coordinator.js';
import { MAX_MEMORY_BUCKETS } from './memory-store.js';
import { scopeKey } from './scope-key.js';

const search: AdmissionRequest = { scope: 'duckduckgo', kind: 'search', concurrency: 1, spacingMs: 0 };

function setup() {
  const clock = createManualClock();
  const coordinator = createCoordinator({ clock });
  return { clock, coordinator };
}

function permitOf(admission: Admission): Permit {
  if (admission.status !== 'admitted') throw new Error(`expected a permit, got ${JSON.stringify(admission)}`);
  return admission;
}

async function throttle(
  coordinator: ReturnType<typeof createCoordinator>,
  request: AdmissionRequest,
  retryAfterMs?: number,
) {
  const permit = permitOf(await coordinator.admit(request));
  return permit.release(
    retryAfterMs === undefined ? { outcome: 'throttled' } : { outcome: 'throttled', retryAfterMs },
  );
}

/** Tracks a pending promise without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

async function expectSkip(
  coordinator: ReturnType<typeof createCoordinator>,
  request: AdmissionRequest,
  clock: ManualClock,
) {
  const admission = await coordinator.admit(request);
  expect(admission.status).toBe('skipped');
  if (admission.status === 'skipped') expect(admission.retryAfterMs).toBe(admission.retryAt - clock.now());
  return admission;
}

describe('admission: slots and spacing (process mode, injected clock)', () => {
  it('admits at once when a slot is free and waits exactly the spacing before the next start', async () => {
    const { clock, coordinator } = setup();
    const request = { ...search, spacingMs: 1_500, concurrency: 3 };
    permitOf(await coordinator.admit(request));
    const second = track(coordinator.admit(request));
    await clock.advance(1_499);
    expect(second.settled).toBe(false);
    await clock.advance(1);
    expect(second.settled).toBe(true);
    expect(permitOf(second.value as Admission).admittedAt).toBe(clock.now());
  });

  it('waits for a free slot and hands it over on release, first come first served', async () => {
    const { clock, coordinator } = setup();
    const request = { ...search, concurrency: 2 };
    const first = permitOf(await coordinator.admit(request));
    permitOf(await coordinator.admit(request));
    const order: string[] = [];
    const third = track(
      coordinator.admit(request).then((admission) => {
        order.push('third');
        return admission;
      }),
    );
    const fourth = track(
      coordinator.admit(request).then((admission) => {
        order.push('fourth');
        return admission;
      }),
    );
    await clock.advance(0);
    expect(third.settled).toBe(false);
    await first.release({ outcome: 'success' });
    await clock.advance(0);
    expect(third.settled).toBe(true);
    expect(fourth.settled).toBe(false);
    expect(order).toEqual(['third']);
  });

  it('stops waiting on abort, frees its place in the queue and leaves no lease', async () => {
    const { clock, coordinator } = setup();
    const holder = permitOf(await coordinator.admit(search));
    const controller = new AbortController();
    const aborted = track(coordinator.admit(search, { signal: controller.signal }));
    const next = track(coordinator.admit(search));
    await clock.advance(0);
    controller.abort();
    await clock.advance(0);
    expect(WebToolError.isInstance(aborted.error, 'cancelled')).toBe(true);
    expect((await coordinator.status()).activeRequests).toBe(1);
    await holder.release({ outcome: 'success' });
    await clock.advance(0);
    // The waiter behind the aborted one moved up and got the slot.
    expect(permitOf(next.value as Admission).status).toBe('admitted');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('refuses an already aborted admission without creating state', async () => {
    const { coordinator } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(coordinator.admit(search, { signal: controller.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect((await coordinator.status()).bucketCount).toBe(0);
  });

  it('reclaims a lease that was never released once its lifetime ends', async () => {
    const { clock, coordinator } = setup();
    permitOf(await coordinator.admit(search));
    const next = track(coordinator.admit(search));
    await clock.advance(DEFAULT_LEASE_TTL_MS - 1);
    expect(next.settled).toBe(false);
    await clock.advance(1);
    expect(permitOf(next.value as Admission).status).toBe('admitted');
  });

  it('releases once; a second release changes nothing', async () => {
    const { coordinator } = setup();
    const permit = permitOf(await coordinator.admit(search));
    expect(await permit.release({ outcome: 'success' })).toEqual({ released: true, coolingDown: false });
    expect(await permit.release({ outcome: 'throttled' })).toEqual({ released: false, coolingDown: false });
    expect((await coordinator.admit(search)).status).toBe('admitted');
  });
});

describe('cooldowns (process mode, injected clock)', () => {
  it('honours Retry-After, then admits one probe when it ends', async () => {
    const { clock, coordinator } = setup();
    const released = await throttle(coordinator, search, 30_000);
    expect(released).toEqual({
      released: true,
      coolingDown: true,
      retryAt: clock.now() + 30_000,
      retryAfterMs: 30_000,
      cause: 'throttled',
    });
    await clock.advance(29_999);
    const skip = await expectSkip(coordinator, search, clock);
    expect(skip).toMatchObject({ code: 'cooldown', reason: 'cooldown', retryAfterMs: 1, cause: 'throttled' });
    await clock.advance(1);
    expect(permitOf(await coordinator.admit(search)).probe).toBe(true);
  });

  it('cools a search scope down 5 minutes and a fetch origin 1 minute without Retry-After', async () => {
    const { clock, coordinator } = setup();
    const fetchRequest: AdmissionRequest = {
      scope: 'https://example.org',
      kind: 'fetch',
      concurrency: 2,
      spacingMs: 0,
    };
    expect((await throttle(coordinator, search)).retryAfterMs).toBe(SEARCH_THROTTLE_COOLDOWN_MS);
    expect((await throttle(coordinator, fetchRequest)).retryAfterMs).toBe(FETCH_THROTTLE_COOLDOWN_MS);
    await clock.advance(FETCH_THROTTLE_COOLDOWN_MS - 1);
    await expectSkip(coordinator, fetchRequest, clock);
    await clock.advance(1);
    expect(permitOf(await coordinator.admit(fetchRequest)).probe).toBe(true);
    await clock.advance(SEARCH_THROTTLE_COOLDOWN_MS - FETCH_THROTTLE_COOLDOWN_MS - 1);
    await expectSkip(coordinator, search, clock);
    await clock.advance(1);
    expect(permitOf(await coordinator.admit(search)).probe).toBe(true);
  });

  it('defaults to the search cooldown when no kind is given', async () => {
    const { coordinator } = setup();
    const { kind: _kind, ...withoutKind } = search;
    expect((await throttle(coordinator, withoutKind)).retryAfterMs).toBe(SEARCH_THROTTLE_COOLDOWN_MS);
  });

  it('doubles the cooldown on repeated throttling up to one hour', async () => {
    const { clock, coordinator } = setup();
    const delays: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      const released = await throttle(coordinator, search);
      delays.push(released.retryAfterMs ?? 0);
      await clock.advance(released.retryAfterMs ?? 0);
    }
    expect(delays).toEqual([300_000, 600_000, 1_200_000, 2_400_000, MAX_COOLDOWN_MS, MAX_COOLDOWN_MS]);
  });

  it('caps a Retry-After at one hour: exactly one hour is kept, one past is cut', async () => {
    const { coordinator } = setup();
    expect((await throttle(coordinator, search, MAX_COOLDOWN_MS)).retryAfterMs).toBe(MAX_COOLDOWN_MS);
    const other = { ...search, scope: 'startpage' };
    expect((await throttle(coordinator, other, MAX_COOLDOWN_MS + 1)).retryAfterMs).toBe(MAX_COOLDOWN_MS);
  });

  it('opens a one-minute cooldown after two infrastructure failures, not after one', async () => {
    const { clock, coordinator } = setup();
    const first = permitOf(await coordinator.admit(search));
    expect(await first.release({ outcome: 'infrastructure_failure' })).toMatchObject({ coolingDown: false });
    const second = permitOf(await coordinator.admit(search));
    expect(await second.release({ outcome: 'infrastructure_failure' })).toMatchObject({
      coolingDown: true,
      retryAfterMs: INFRASTRUCTURE_FAILURE_COOLDOWN_MS,
      cause: 'infrastructure_failure',
    });
    expect((await coordinator.status()).scopes[0]).toMatchObject({ cooldownCause: 'infrastructure_failure' });
    await clock.advance(INFRASTRUCTURE_FAILURE_COOLDOWN_MS - 1);
    expect(await expectSkip(coordinator, search, clock)).toMatchObject({ cause: 'infrastructure_failure' });
    await clock.advance(1);
    expect(permitOf(await coordinator.admit(search)).probe).toBe(true);
  });

  it('a success between infrastructure failures resets the count', async () => {
    const { coordinator } = setup();
    await permitOf(await coordinator.admit(search)).release({ outcome: 'infrastructure_failure' });
    await permitOf(await coordinator.admit(search)).release({ outcome: 'success' });
    const released = await permitOf(await coordinator.admit(search)).release({
      outcome: 'infrastructure_failure',
    });
    expect(released.coolingDown).toBe(false);
  });

  it('admits exactly one probe after a cooldown; others skip while it is out', async () => {
    const { clock, coordinator } = setup();
    const request = { ...search, concurrency: 3 };
    await throttle(coordinator, request, 1_000);
    await clock.advance(1_000);
    const probe = permitOf(await coordinator.admit(request));
    expect(probe.probe).toBe(true);
    const skip = await expectSkip(coordinator, request, clock);
    expect(skip).toMatchObject({
      reason: 'probe_in_flight',
      retryAt: probe.admittedAt + DEFAULT_LEASE_TTL_MS,
    });
    expect((await coordinator.status()).scopes[0]).toMatchObject({ probeInFlight: true, probeDue: false });
    await probe.release({ outcome: 'success' });
    const after = permitOf(await coordinator.admit(request));
    expect(after.probe).toBe(false);
    expect(permitOf(await coordinator.admit(request)).probe).toBe(false);
  });

  it('a successful probe resets the throttle streak; a throttled probe doubles it', async () => {
    const { clock, coordinator } = setup();
    await throttle(coordinator, search);
    await clock.advance(SEARCH_THROTTLE_COOLDOWN_MS);
    expect((await throttle(coordinator, search)).retryAfterMs).toBe(2 * SEARCH_THROTTLE_COOLDOWN_MS);
    await clock.advance(2 * SEARCH_THROTTLE_COOLDOWN_MS);
    const probe = permitOf(await coordinator.admit(search));
    await probe.release({ outcome: 'success' });
    expect((await coordinator.status()).scopes[0]).toMatchObject({ throttleStreak: 0, coolingDown: false });
    expect((await throttle(coordinator, search)).retryAfterMs).toBe(SEARCH_THROTTLE_COOLDOWN_MS);
  });

  it('an abandoned probe lets the next admission probe instead', async () => {
    const { clock, coordinator } = setup();
    await throttle(coordinator, search, 1_000);
    await clock.advance(1_000);
    await permitOf(await coordinator.admit(search)).release({ outcome: 'abandoned' });
    expect(permitOf(await coordinator.admit(search)).probe).toBe(true);
  });

  it('a success that started before the cooldown does not end it', async () => {
    const { clock, coordinator } = setup();
    const request = { ...search, concurrency: 2 };
    const early = permitOf(await coordinator.admit(request));
    await throttle(coordinator, request, 10_000);
    await early.release({ outcome: 'success' });
    await expectSkip(coordinator, request, clock);
  });

  it('a second throttle of the same burst does not double the cooldown again', async () => {
    const { coordinator } = setup();
    const request = { ...search, concurrency: 2 };
    const first = permitOf(await coordinator.admit(request));
    const second = permitOf(await coordinator.admit(request));
    await first.release({ outcome: 'throttled' });
    const released = await second.release({ outcome: 'throttled' });
    expect(released.retryAfterMs).toBe(SEARCH_THROTTLE_COOLDOWN_MS);
    expect((await coordinator.status()).scopes[0]?.throttleStreak).toBe(1);
  });
});

describe('validation', () => {
  const { coordinator } = setup();
  it.each([
    ['concurrency', { concurrency: MAX_SCOPE_CONCURRENCY + 1 }],
    ['concurrency', { concurrency: 0 }],
    ['concurrency', { concurrency: 1.5 }],
    ['spacingMs', { spacingMs: MAX_SPACING_MS + 1 }],
    ['spacingMs', { spacingMs: -1 }],
    ['scope', { scope: 'x'.repeat(MAX_SCOPE_NAME_LENGTH + 1) }],
    ['scope', { scope: '' }],
    ['kind', { kind: 'mail' }],
  ])('rejects a bad %s and stores nothing', async (rule, change) => {
    const error = await coordinator
      .admit({ ...search, ...change } as AdmissionRequest)
      .catch((caught: unknown) => caught);
    expect(WebToolError.isInstance(error, 'validation_error')).toBe(true);
    expect((error as WebToolError).details['rule']).toBe(rule);
    expect((await coordinator.status()).bucketCount).toBe(0);
  });

  it('accepts the bounds themselves', async () => {
    const bounds = setup().coordinator;
    const requests = [
      { ...search, scope: 'widest', concurrency: MAX_SCOPE_CONCURRENCY },
      { ...search, scope: 'slowest', spacingMs: MAX_SPACING_MS },
      { ...search, scope: 'y'.repeat(MAX_SCOPE_NAME_LENGTH) },
    ];
    for (const request of requests) {
      await permitOf(await bounds.admit(request)).release({ outcome: 'success' });
    }
  });

  it('checks lease lifetimes and modes', () => {
    expect(() => createCoordinator({ leaseTtlMs: MIN_LEASE_TTL_MS })).not.toThrow();
    expect(() => createCoordinator({ leaseTtlMs: MAX_LEASE_TTL_MS })).not.toThrow();
    expect(() => createCoordinator({ leaseTtlMs: MIN_LEASE_TTL_MS - 1 })).toThrow(WebToolError);
    expect(() => createCoordinator({ leaseTtlMs: MAX_LEASE_TTL_MS + 1 })).toThrow(WebToolError);
    expect(() => createCoordinator({ mode: 'cluster' as 'host' })).toThrow(WebToolError);
  });

  it('rejects a bad release and keeps the permit held', async () => {
    const fresh = setup().coordinator;
    const permit = permitOf(await fresh.admit(search));
    await expect(permit.release({ outcome: 'lost' as 'success' })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(permit.release({ outcome: 'throttled', retryAfterMs: -5 })).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect((await fresh.status()).activeRequests).toBe(1);
    expect((await permit.release({ outcome: 'success' })).released).toBe(true);
  });
});

describe('status and reset (process mode)', () => {
  it('reports hashed keys and counts only', async () => {
    const { coordinator } = setup();
    const scope = 'searxng:http://127.0.0.1:8088';
    const permit = permitOf(await coordinator.admit({ ...search, scope }));
    const status = await coordinator.status();
    expect(status).toMatchObject({ mode: 'process', bucketCount: 1, activeRequests: 1, coolingDownCount: 0 });
    expect(status.scopes[0]?.key).toBe(scopeKey(scope));
    expect(JSON.stringify(status)).not.toContain('127.0.0.1');
    await permit.release({ outcome: 'success' });
  });

  it('refuses to reset while a permit is held and clears once none is', async () => {
    const { coordinator } = setup();
    const permit = permitOf(await coordinator.admit(search));
    expect(await coordinator.reset()).toEqual({
      mode: 'process',
      reset: false,
      reason: 'active_requests',
      activeRequests: 1,
    });
    await permit.release({ outcome: 'throttled' });
    expect(await coordinator.reset()).toEqual({ mode: 'process', reset: true, clearedBuckets: 1 });
    expect((await coordinator.admit(search)).status).toBe('admitted');
  });

  it(`keeps ${MAX_MEMORY_BUCKETS} live scopes, refuses one more, and evicts expired scopes first`, async () => {
    const { clock, coordinator } = setup();
    const permits: Permit[] = [];
    for (let index = 0; index < MAX_MEMORY_BUCKETS; index += 1) {
      permits.push(permitOf(await coordinator.admit({ ...search, scope: `scope-${index}` })));
    }
    await expect(coordinator.admit({ ...search, scope: 'one-more' })).rejects.toMatchObject({
      code: 'capacity_exceeded',
    });
    await permits[0]!.release({ outcome: 'success' });
    await clock.advance(1);
    expect((await coordinator.admit({ ...search, scope: 'one-more' })).status).toBe('admitted');
  });
});
