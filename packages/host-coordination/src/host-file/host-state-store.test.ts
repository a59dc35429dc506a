import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterEach, describe, expect, it } from 'vitest';
import { createBucket } from '../admission-policy.js';
import type { BucketState, Lease } from '../bucket-state.js';
import { createManualClock } from '../clock.js';
import { type Admission, createCoordinator, type Permit } from '../coordinator.js';
import { currentOwner } from '../process-identity.js';
import { scopeKey } from '../scope-key.js';
import { createHostStateStore, HOST_POLL_MAX_MS, HOST_POLL_MIN_MS } from './host-state-store.js';
import {
  MAX_LEASES_PER_BUCKET,
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  readStateFile,
  STATE_FILE_VERSION,
} from './state-file.js';

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) {
    chmodSync(parent, 0o700);
    rmSync(parent, { recursive: true, force: true });
  }
});

function directory(): { stateDirectory: string; statePath: string } {
  const parent = mkdtempSync(join(tmpdir(), 'host-state-'));
  parents.push(parent);
  const stateDirectory = join(parent, 'web-control');
  return { stateDirectory, statePath: join(stateDirectory, 'state.json') };
}

function permitOf(admission: Admission): Permit {
  if (admission.status !== 'admitted') throw new Error('expected a permit');
  return admission;
}

const request = { scope: 'searxng:http://127.0.0.1:8088', concurrency: 1, spacingMs: 0 };

async function unsafeProblem(action: () => Promise<unknown>): Promise<string> {
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error, 'state_unsafe'))
    throw new Error(`expected state_unsafe, got ${String(error)}`);
  return error.details['problem'] as string;
}

function writeState(statePath: string, buckets: Record<string, BucketState>, padTo?: number): void {
  let text = JSON.stringify({ version: STATE_FILE_VERSION, buckets });
  if (padTo !== undefined) text = text.padEnd(padTo, ' ');
  writeFileSync(statePath, text, { mode: 0o600 });
}

function lease(overrides: Partial<Lease> = {}): Lease {
  const now = Date.now();
  return {
    id: '00000000-0000-4000-8000-000000000000',
    owner: currentOwner(),
    acquiredAt: now,
    expiresAt: now + 60_000,
    probe: false,
    ...overrides,
  };
}

describe('host state file', () => {
  it('creates a 0700 directory and a 0600 file holding hashed keys only', async () => {
    const { stateDirectory, statePath } = directory();
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    const permit = permitOf(await coordinator.admit(request));
    await permit.release({ outcome: 'throttled', retryAfterMs: 5_000 });
    expect(statSync(stateDirectory).mode & 0o777).toBe(0o700);
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    const text = readFileSync(statePath, 'utf8');
    expect(text).toContain(scopeKey(request.scope));
    expect(text).not.toContain('searxng');
    expect(text).not.toContain('127.0.0.1');
    const status = await coordinator.status();
    expect(status).toMatchObject({ mode: 'host', stateFile: statePath, bucketCount: 1, coolingDownCount: 1 });
    expect(JSON.stringify(status)).not.toContain('searxng');
  });

  it('fails closed on corrupt JSON and leaves the file as it was', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    writeFileSync(statePath, '{"version":1,"buckets":', { mode: 0o600 });
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect(await unsafeProblem(() => coordinator.admit(request))).toBe('corrupt_json');
    expect(await unsafeProblem(() => coordinator.status())).toBe('corrupt_json');
    expect(await unsafeProblem(() => coordinator.reset())).toBe('corrupt_json');
    expect(readFileSync(statePath, 'utf8')).toBe('{"version":1,"buckets":');
  });

  it('fails closed on JSON that is not a state', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    writeFileSync(statePath, JSON.stringify({ version: 1, buckets: { 'searxng:http://x': {} } }), {
      mode: 0o600,
    });
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect(await unsafeProblem(() => coordinator.admit(request))).toBe('invalid_state');
  });

  it('fails closed on a 0644 file', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    writeState(statePath, {});
    chmodSync(statePath, 0o644);
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect(await unsafeProblem(() => coordinator.admit(request))).toBe('file_permissions');
    expect(statSync(statePath).mode & 0o777).toBe(0o644);
  });

  it('fails closed on a 0755 directory', async () => {
    const { stateDirectory } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    chmodSync(stateDirectory, 0o755);
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect(await unsafeProblem(() => coordinator.admit(request))).toBe('directory_permissions');
  });

  it('fails closed on a symlinked file and a symlinked directory', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const elsewhere = join(stateDirectory, 'elsewhere.json');
    writeState(elsewhere, {});
    symlinkSync(elsewhere, statePath);
    expect(
      await unsafeProblem(() => createCoordinator({ mode: 'host', stateDirectory }).admit(request)),
    ).toBe('file_symlink');
    const linkedDirectory = `${stateDirectory}-link`;
    symlinkSync(stateDirectory, linkedDirectory);
    expect(
      await unsafeProblem(() =>
        createCoordinator({ mode: 'host', stateDirectory: linkedDirectory }).admit(request),
      ),
    ).toBe('directory_symlink');
  });

  it(`reads a file of exactly ${MAX_STATE_BYTES} bytes and refuses one byte more`, async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    writeState(statePath, {}, MAX_STATE_BYTES);
    expect(readStateFile(statePath).bytes).toBe(MAX_STATE_BYTES);
    writeState(statePath, {}, MAX_STATE_BYTES + 1);
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect(await unsafeProblem(() => coordinator.admit(request))).toBe('file_too_large');
  });

  it('refuses reset while a permit is held, clears after release, and refuses again on unsafe state', async () => {
    const { stateDirectory, statePath } = directory();
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    const permit = permitOf(await coordinator.admit(request));
    expect(await coordinator.reset()).toEqual({
      mode: 'host',
      stateFile: statePath,
      reset: false,
      reason: 'active_requests',
      activeRequests: 1,
    });
    await permit.release({ outcome: 'throttled' });
    expect(await coordinator.reset()).toEqual({
      mode: 'host',
      stateFile: statePath,
      reset: true,
      clearedBuckets: 1,
    });
    expect((await coordinator.admit(request)).status).toBe('admitted');
    chmodSync(statePath, 0o640);
    expect(await unsafeProblem(() => coordinator.reset())).toBe('file_permissions');
  });

  it('reclaims leases of dead owners, reused PIDs and expired lifetimes during admission', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const now = Date.now();
    const bucket = (held: Lease) => ({ ...createBucket('search', 0, now), leases: [held] });
    writeState(statePath, {
      [scopeKey('dead')]: bucket(lease({ owner: { ...currentOwner(), pid: 4_194_303 } })),
      [scopeKey('reused')]: bucket(
        lease({ owner: { ...currentOwner(), pid: process.ppid, incarnation: 'x:1' } }),
      ),
      [scopeKey('expired')]: bucket(lease({ expiresAt: now - 1 })),
    });
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect((await coordinator.status()).activeRequests).toBe(0);
    for (const scope of ['dead', 'reused', 'expired']) {
      expect((await coordinator.admit({ scope, concurrency: 1, spacingMs: 0 })).status).toBe('admitted');
    }
  });

  it('waits for a live holder and stops on abort without leaving a lease', async () => {
    const { stateDirectory } = directory();
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    const holder = permitOf(await coordinator.admit(request));
    const controller = new AbortController();
    const waiting = coordinator.admit(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    expect((await coordinator.status()).activeRequests).toBe(1);
    await holder.release({ outcome: 'success' });
    expect((await coordinator.admit(request)).status).toBe('admitted');
  });

  it(`holds ${MAX_STATE_BUCKETS} active scopes, refuses one more, and evicts expired ones first`, async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const now = Date.now();
    const buckets: Record<string, BucketState> = {};
    for (let index = 0; index < MAX_STATE_BUCKETS - 1; index += 1) {
      buckets[scopeKey(`busy-${index}`)] = { ...createBucket('fetch', 0, now), cooldownUntil: now + 600_000 };
    }
    writeState(statePath, buckets);
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    expect((await coordinator.admit({ ...request, scope: 'last' })).status).toBe('admitted');
    const refused = await coordinator
      .admit({ ...request, scope: 'one-more' })
      .catch((error: unknown) => error);
    expect(WebToolError.isInstance(refused, 'capacity_exceeded')).toBe(true);
    expect((await coordinator.status()).bucketCount).toBe(MAX_STATE_BUCKETS);

    const { content } = readStateFile(statePath);
    const first = content.buckets[scopeKey('busy-0')]!;
    first.cooldownUntil = 0;
    first.updatedAt = now - 1;
    writeState(statePath, content.buckets);
    expect((await coordinator.admit({ ...request, scope: 'one-more' })).status).toBe('admitted');
    expect(readStateFile(statePath).content.buckets[scopeKey('busy-0')]).toBeUndefined();
  });

  it(`refuses a change that would take the file past ${MAX_STATE_BYTES} bytes`, async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const now = Date.now();
    const buckets: Record<string, BucketState> = {};
    const leases = Array.from({ length: 64 }, (_, index) =>
      lease({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}` }),
    );
    // Fill to just under the cap with live leases, which cannot be evicted.
    for (
      let index = 0;
      JSON.stringify({ version: 1, buckets }).length < MAX_STATE_BYTES - 12_000;
      index += 1
    ) {
      buckets[scopeKey(`full-${index}`)] = { ...createBucket('fetch', 0, now), leases };
    }
    writeState(statePath, buckets);
    const before = readFileSync(statePath, 'utf8');
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    const refused = await coordinator
      .admit({ ...request, scope: 'big', concurrency: 64 })
      .then(async (first) => {
        // Each admission adds a lease; keep going until the cap refuses one.
        const held = [first];
        for (;;) held.push(await coordinator.admit({ ...request, scope: 'big', concurrency: 64 }));
      })
      .catch((error: unknown) => error);
    expect(WebToolError.isInstance(refused, 'capacity_exceeded')).toBe(true);
    expect(readStateFile(statePath).bytes).toBeLessThanOrEqual(MAX_STATE_BYTES);
    expect(before.length).toBeLessThan(MAX_STATE_BYTES);
  });

  it('breaks a lock left by a dead process and an empty lock older than the grace period', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const lockPath = `${statePath}.lock`;
    writeFileSync(lockPath, JSON.stringify({ ...currentOwner(), pid: 4_194_303 }), { mode: 0o600 });
    writeFileSync(`${statePath}.4194303.abcdef.tmp`, 'partial', { mode: 0o600 });
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    await permitOf(await coordinator.admit(request)).release({ outcome: 'success' });
    expect(() => statSync(`${statePath}.4194303.abcdef.tmp`)).toThrow();

    writeFileSync(lockPath, '', { mode: 0o600 });
    const old = new Date(Date.now() - 10_000);
    utimesSync(lockPath, old, old);
    await permitOf(await coordinator.admit(request)).release({ outcome: 'success' });
  });

  it('waits on a lock held by a live process and stops on abort', async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    writeFileSync(`${statePath}.lock`, JSON.stringify(currentOwner()), { mode: 0o600 });
    const coordinator = createCoordinator({ mode: 'host', stateDirectory });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(coordinator.admit(request, { signal: controller.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
    rmSync(`${statePath}.lock`);
    expect((await coordinator.status()).bucketCount).toBe(0);
  });
});

describe('host state polling', () => {
  it(`polls every ${HOST_POLL_MIN_MS} ms at first and never slower than every ${HOST_POLL_MAX_MS} ms`, async () => {
    const { stateDirectory } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const clock = createManualClock();
    const store = createHostStateStore({ stateDirectory, clock });
    for (const [attempt, interval] of [
      [0, HOST_POLL_MIN_MS],
      [30, HOST_POLL_MAX_MS],
    ] as const) {
      let woke = false;
      const waiting = store.waitForChange('key', { maxMs: undefined, attempt }).then(() => {
        woke = true;
      });
      await clock.advance(interval - 1);
      expect(woke).toBe(false);
      await clock.advance(1);
      await waiting;
      expect(woke).toBe(true);
    }
  });

  it(`refuses a bucket with more than ${MAX_LEASES_PER_BUCKET} leases as invalid state`, async () => {
    const { stateDirectory, statePath } = directory();
    mkdirSync(stateDirectory, { mode: 0o700 });
    const leases = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        lease({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}` }),
      );
    writeState(statePath, {
      [scopeKey('many')]: { ...createBucket('fetch', 0, Date.now()), leases: leases(MAX_LEASES_PER_BUCKET) },
    });
    expect(readStateFile(statePath).content.buckets[scopeKey('many')]?.leases).toHaveLength(
      MAX_LEASES_PER_BUCKET,
    );
    writeState(statePath, {
      [scopeKey('many')]: {
        ...createBucket('fetch', 0, Date.now()),
        leases: leases(MAX_LEASES_PER_BUCKET + 1),
      },
    });
    expect(await unsafeProblem(async () => readStateFile(statePath))).toBe('invalid_state');
  });
});
