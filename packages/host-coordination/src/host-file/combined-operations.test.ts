// Operations queued behind the host lock: one holder commits them together, a holder that died is
// recovered from, and a release grants the admission parked for its slot in the same write.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseOwner } from '../bucket-state.js';
import { systemClock } from '../clock.js';
import type { StoreAdmission, StoreAdmitRequest } from '../coordination-store.js';
import { currentOwner } from '../process-identity.js';
import { scopeKey } from '../scope-key.js';
import { acquireFileLock } from './file-lock.js';
import { createHostStateStore } from './host-state-store.js';
import { resultsDirectory } from './lock-layout.js';
import { MAX_COMBINED_OPERATIONS } from './queued-operations.js';
import { readStateFile, STATE_FILE_VERSION } from './state-file.js';

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

function paths() {
  const parent = mkdtempSync(join(tmpdir(), 'combined-'));
  parents.push(parent);
  const stateDirectory = join(parent, 'web-control');
  const statePath = join(stateDirectory, 'state.json');
  const lockPath = `${statePath}.lock`;
  return { stateDirectory, statePath, lockPath, queuePath: `${lockPath}.queue` };
}

const oneAtATime: StoreAdmitRequest = { kind: 'search', concurrency: 1, spacingMs: 0, leaseTtlMs: 60_000 };

function granted(answer: StoreAdmission): Extract<StoreAdmission, { type: 'granted' }> {
  if (answer.type !== 'granted') throw new Error(`expected a grant, got ${JSON.stringify(answer)}`);
  return answer;
}

/** Resolves once `predicate` holds, checking every few milliseconds (at most 5 s). */
async function until(predicate: () => boolean): Promise<void> {
  for (let waited = 0; !predicate(); waited += 5) {
    if (waited > 5_000) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const queued = (queuePath: string) =>
  existsSync(queuePath) ? readdirSync(queuePath).filter((name) => !name.startsWith('p-')).length : 0;

/** What a holder that died leaves of an operation it claimed: the claimed ticket, with no result. */
function leaveClaimed(lockPath: string, name: string, owner: LeaseOwner, key: string): void {
  const results = resultsDirectory(lockPath);
  mkdirSync(results, { recursive: true, mode: 0o700 });
  const operation = { key, operation: { type: 'admit', request: oneAtATime, marginMs: 0 } };
  writeFileSync(join(results, `${name}.claimed`), JSON.stringify({ ...owner, operation }), { mode: 0o600 });
}

/** A result as a holder hands it out. */
interface HandedOut {
  ok: { decision: { type: string; lease: { id: string } } };
}

/** The result handed out for `name`, from this process's inbox. */
function handedOut(lockPath: string, name: string): { result: HandedOut } {
  const results = resultsDirectory(lockPath);
  const inbox = readdirSync(results).find((entry) => entry.startsWith('to-')) as string;
  return JSON.parse(readFileSync(join(results, inbox, `${name}.result`), 'utf8'));
}

const ticket = (pid: number, suffix: string) =>
  `${String(Date.now() * 1_000).padStart(17, '0')}-${pid}-${suffix}`;

describe('operations queued behind the host lock', () => {
  it('commits the operations of every queued waiter in the holder’s one write', async () => {
    const { stateDirectory, statePath, lockPath, queuePath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    const keys = ['a', 'b', 'c', 'd', 'e'].map((name) => scopeKey(`scope-${name}`));
    const held = await acquireFileLock(lockPath);
    const answers = keys.map((key) => store.admit(key, oneAtATime));
    await until(() => queued(queuePath) === keys.length);
    held.release();
    for (const answer of await Promise.all(answers)) granted(answer);
    const { content } = readStateFile(statePath);
    // The first in line applied its own admission and the four behind it, and kept their results
    // (for its successor, should it die before handing them out) in the same write.
    expect(Object.keys(content.applied ?? {})).toHaveLength(keys.length - 1);
    for (const key of keys) expect(content.buckets[key]?.leases).toHaveLength(1);
    await store.close();
  });

  it(`applies at most ${MAX_COMBINED_OPERATIONS} operations in one write`, async () => {
    const { stateDirectory, statePath, lockPath, queuePath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    const count = MAX_COMBINED_OPERATIONS + 6;
    const keys = Array.from({ length: count }, (_, index) => scopeKey(`bound-${index}`));
    const held = await acquireFileLock(lockPath);
    const answers = keys.map((key) => store.admit(key, oneAtATime));
    await until(() => queued(queuePath) === count);
    held.release();
    for (const answer of await Promise.all(answers)) granted(answer);
    const applied = Object.keys(readStateFile(statePath).content.applied ?? {}).length;
    expect(applied).toBeLessThanOrEqual(MAX_COMBINED_OPERATIONS - 1);
    expect(Object.keys(readStateFile(statePath).content.buckets)).toHaveLength(count);
    await store.close();
  });

  it('hands out a result its holder committed before dying, without applying it again', async () => {
    const { stateDirectory, statePath, lockPath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    const key = scopeKey('recovered');
    const owner = currentOwner();
    const name = ticket(process.pid, '0000abcd');
    const lease = {
      id: '11111111-2222-4333-8444-555555555555',
      owner,
      acquiredAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      probe: false,
    };
    const result = {
      ok: { type: 'admit', decision: { type: 'granted', lease } },
      decidedAt: lease.acquiredAt,
    };
    // What a holder that died right after its write leaves: the state with the grant and its result,
    // the claimed operation, and no result handed out.
    writeFileSync(
      statePath,
      JSON.stringify({
        version: STATE_FILE_VERSION,
        buckets: {
          [key]: {
            kind: 'search',
            spacingMs: 0,
            leases: [lease],
            lastStartAt: lease.acquiredAt,
            cooldownUntil: 0,
            throttleStreak: 0,
            failureStreak: 0,
            admissions: 1,
            updatedAt: lease.acquiredAt,
          },
        },
        applied: { [name]: result },
      }),
      { mode: 0o600 },
    );
    leaveClaimed(lockPath, name, owner, key);

    // Any later holder hands the committed result out.
    granted(await store.admit(scopeKey('another'), oneAtATime));
    expect(handedOut(lockPath, name).result).toEqual(result);
    expect(existsSync(join(resultsDirectory(lockPath), `${name}.claimed`))).toBe(false);
    expect(readStateFile(statePath).content.buckets[key]?.leases).toEqual([lease]);
    await store.close();
  });

  it('applies an operation its holder claimed but died before committing', async () => {
    const { stateDirectory, statePath, lockPath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    const key = scopeKey('claimed-not-committed');
    const name = ticket(process.pid, '0000beef');
    leaveClaimed(lockPath, name, currentOwner(), key);

    granted(await store.admit(scopeKey('another'), oneAtATime));
    const delivered = handedOut(lockPath, name);
    expect(delivered.result.ok.decision.type).toBe('granted');
    const leases = readStateFile(statePath).content.buckets[key]?.leases ?? [];
    expect(leases.map((lease) => lease.id)).toEqual([delivered.result.ok.decision.lease.id]);
    await store.close();
  });

  it('drops an operation claimed for a waiter that is gone', async () => {
    const { stateDirectory, statePath, lockPath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    const key = scopeKey('gone-waiter');
    const gone = { pid: 2 ** 22 + 17, host: currentOwner().host, incarnation: 'no-such-process' };
    const name = ticket(gone.pid, '0000cafe');
    leaveClaimed(lockPath, name, gone, key);

    granted(await store.admit(scopeKey('another'), oneAtATime));
    expect(existsSync(join(resultsDirectory(lockPath), `${name}.claimed`))).toBe(false);
    expect(readStateFile(statePath).content.buckets[key]).toBeUndefined();
    await store.close();
  });

  it('refuses a results path that is not a plain directory', async () => {
    const { stateDirectory, lockPath } = paths();
    const store = createHostStateStore({ stateDirectory, clock: systemClock });
    await store.snapshot();
    writeFileSync(resultsDirectory(lockPath), 'not a directory', { mode: 0o600 });
    const error = await store.admit(scopeKey('x'), oneAtATime).catch((caught: unknown) => caught);
    expect(WebToolError.isInstance(error, 'state_unsafe')).toBe(true);
    expect((error as WebToolError).details['problem']).toBe('not_a_directory');
    await store.close();
  });
});

describe('admissions parked for a slot', () => {
  it('are granted by the release that frees the slot, in the same write', async () => {
    const { stateDirectory, statePath } = paths();
    const first = createHostStateStore({ stateDirectory, clock: systemClock });
    const second = createHostStateStore({ stateDirectory, clock: systemClock });
    const key = scopeKey('handoff');
    const holder = granted(await first.admit(key, oneAtATime));
    const waiting = await second.admit(key, oneAtATime);
    expect(waiting).toMatchObject({ type: 'wait', reason: 'slot' });

    await first.release(key, { leaseId: holder.leaseId, startAt: holder.startAt, outcome: 'success' });
    // Read before the waiter has run at all: the release's own write already holds its grant.
    const { content } = readStateFile(statePath);
    const leases = content.buckets[key]?.leases ?? [];
    expect(leases).toHaveLength(1);
    expect(leases[0]?.id).not.toBe(holder.leaseId);
    expect(Object.keys(content.applied ?? {}).some((name) => name.startsWith('p-'))).toBe(true);

    // The waiter wakes on its grant and takes it, with no write of its own.
    await second.waitForChange(key, { maxMs: 5_000, attempt: 0 });
    const answer = granted(await second.admit(key, oneAtATime));
    expect(answer.leaseId).toBe(leases[0]?.id);
    expect(readFileSync(statePath, 'utf8')).toBe(JSON.stringify(content));
    await second.release(key, { leaseId: answer.leaseId, startAt: answer.startAt, outcome: 'success' });
    await first.close();
    await second.close();
  });

  it('keep their place while they are told to wait again', async () => {
    const { stateDirectory, queuePath } = paths();
    const first = createHostStateStore({ stateDirectory, clock: systemClock });
    const second = createHostStateStore({ stateDirectory, clock: systemClock });
    const key = scopeKey('keeps-place');
    granted(await first.admit(key, oneAtATime));
    expect((await second.admit(key, oneAtATime)).type).toBe('wait');
    const parked = readdirSync(queuePath).filter((name) => name.startsWith('p-'));
    expect(parked).toHaveLength(1);
    expect((await second.admit(key, oneAtATime)).type).toBe('wait');
    expect(readdirSync(queuePath).filter((name) => name.startsWith('p-'))).toEqual(parked);
    await second.close();
    expect(readdirSync(queuePath).filter((name) => name.startsWith('p-'))).toEqual([]);
    await first.close();
  });

  it('release a grant that arrives after their waiter stopped waiting', async () => {
    const { stateDirectory, statePath } = paths();
    const first = createHostStateStore({ stateDirectory, clock: systemClock });
    const second = createHostStateStore({ stateDirectory, clock: systemClock });
    const key = scopeKey('stopped');
    const holder = granted(await first.admit(key, oneAtATime));
    expect((await second.admit(key, oneAtATime)).type).toBe('wait');
    await first.release(key, { leaseId: holder.leaseId, startAt: holder.startAt, outcome: 'success' });
    expect(readStateFile(statePath).content.buckets[key]?.leases).toHaveLength(1);
    // The caller gave up (cancelled, or decided otherwise): the slot it was granted is freed.
    second.stopWaiting?.(key);
    await second.close();
    expect(readStateFile(statePath).content.buckets[key]?.leases).toEqual([]);
    await first.close();
  });

  it('answer with the parked grant when a holder granted it before the admission was decided again', async () => {
    const { stateDirectory, statePath, lockPath, queuePath } = paths();
    const first = createHostStateStore({ stateDirectory, clock: systemClock });
    const second = createHostStateStore({ stateDirectory, clock: systemClock });
    const key = scopeKey('superseded');
    granted(await first.admit(key, oneAtATime));
    expect((await second.admit(key, oneAtATime)).type).toBe('wait');
    const [parked] = readdirSync(queuePath).filter((name) => name.startsWith('p-'));
    const held = await acquireFileLock(lockPath);
    const again = second.admit(key, oneAtATime);
    await until(() => queued(queuePath) === 1);
    // Meanwhile a holder answered the parked admission (here: a cooldown skip) and handed it out.
    const results = resultsDirectory(lockPath);
    const inbox = readdirSync(results).find((entry) => entry.startsWith('to-')) as string;
    const skip = { type: 'skipped', reason: 'cooldown', retryAt: Date.now() + 60_000 };
    renameSync(join(queuePath, parked as string), join(results, `${parked}.claimed`));
    writeFileSync(
      join(results, inbox, `${parked}.result`),
      JSON.stringify({ result: { ok: { type: 'admit', decision: skip }, decidedAt: Date.now() } }),
    );
    unlinkSync(join(results, `${parked}.claimed`));
    held.release();
    // The queued admission is superseded by that answer: it is not decided (or granted) a second time.
    expect(await again).toMatchObject({ type: 'skipped', reason: 'cooldown', retryAt: skip.retryAt });
    expect(readStateFile(statePath).content.buckets[key]?.leases).toHaveLength(1);
    await first.close();
    await second.close();
  });
});
