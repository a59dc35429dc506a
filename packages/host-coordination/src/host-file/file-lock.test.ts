import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { currentOwner } from '../process-identity.js';
import { acquireFileLock, LOCK_RETRY_MAX_MS, LOCK_WAIT_TIMEOUT_MS, TICKET_STALE_MS } from './file-lock.js';
import { LOCK_RECORD_GRACE_MS } from './lock-record.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function lockPath(): string {
  const directory = mkdtempSync(join(tmpdir(), 'file-lock-'));
  directories.push(directory);
  return join(directory, 'state.json.lock');
}

describe('acquireFileLock', () => {
  it('takes a free lock, writes its owner, and frees it on release', async () => {
    const path = lockPath();
    const lock = await acquireFileLock(path);
    const again = acquireFileLock(path, { signal: AbortSignal.timeout(20) });
    await expect(again).rejects.toMatchObject({ code: 'cancelled' });
    lock.release();
    (await acquireFileLock(path)).release();
  });

  it(`waits ${LOCK_WAIT_TIMEOUT_MS} ms for a live holder, then gives up with timeout`, async () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify(currentOwner()));
    const clock = createManualClock();
    let failure: unknown;
    const waiting = acquireFileLock(path, { clock }).catch((error: unknown) => {
      failure = error;
    });
    await clock.advance(LOCK_WAIT_TIMEOUT_MS);
    expect(failure).toBeUndefined();
    // Past the bound, the next attempt (at most one maximum pause, jittered by up to half, later) fails.
    await clock.advance(LOCK_RETRY_MAX_MS * 1.5 + 1);
    await waiting;
    expect(WebToolError.isInstance(failure, 'timeout')).toBe(true);
  });

  it(`keeps an empty lock younger than ${LOCK_RECORD_GRACE_MS} ms and breaks an older one`, async () => {
    const path = lockPath();
    writeFileSync(path, '');
    const young = new Date(Date.now() - LOCK_RECORD_GRACE_MS + 1_000);
    utimesSync(path, young, young);
    await expect(acquireFileLock(path, { signal: AbortSignal.timeout(30) })).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(statSync(path).size).toBe(0);
    const old = new Date(Date.now() - LOCK_RECORD_GRACE_MS - 1_000);
    utimesSync(path, old, old);
    (await acquireFileLock(path)).release();
  });

  it('serves waiters of one process in arrival order', async () => {
    const path = lockPath();
    const first = await acquireFileLock(path);
    const order: number[] = [];
    const waiters = [1, 2, 3].map(async (index) => {
      const lock = await acquireFileLock(path);
      order.push(index);
      lock.release();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it('lets a priority waiter (a release) go ahead of ordinary waiters that queued before it', async () => {
    const path = lockPath();
    const first = await acquireFileLock(path);
    const order: string[] = [];
    const take = async (name: string, priority: boolean) => {
      const lock = await acquireFileLock(path, { priority });
      order.push(name);
      lock.release();
    };
    const ordinary = [take('admission 1', false), take('admission 2', false)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const release = take('release', true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.release();
    await Promise.all([...ordinary, release]);
    expect(order).toEqual(['release', 'admission 1', 'admission 2']);
  });

  it('wakes waiters by watching the lock and the ticket ahead, not at the end of their pauses', async () => {
    const path = lockPath();
    // The manual clock never advances here: every wake below comes from a watch.
    const clock = createManualClock();
    const holder = await acquireFileLock(path);
    const order: string[] = [];
    let second: { release(): void } | undefined;
    const first = acquireFileLock(path, { clock }).then((lock) => {
      order.push('first');
      return lock;
    });
    await until(() => clock.pendingSleeps === 1);
    const secondWait = acquireFileLock(path, { clock }).then((lock) => {
      order.push('second');
      second = lock;
    });
    await until(() => clock.pendingSleeps === 2);
    holder.release();
    const firstLock = await first;
    // The second waiter moved up when the first one's ticket went, and now waits on the lock itself.
    await until(() => clock.pendingSleeps === 1);
    expect(order).toEqual(['first']);
    firstLock.release();
    await secondWait;
    expect(order).toEqual(['first', 'second']);
    second?.release();
  });

  it(`lets a queue ticket of an unjudgeable owner block until it is ${TICKET_STALE_MS} ms old`, async () => {
    const path = lockPath();
    const queue = `${path}.queue`;
    mkdirSync(queue, { mode: 0o700 });
    const ticket = join(queue, '00000000000000001-1-abcd');
    writeFileSync(ticket, JSON.stringify({ pid: 1, host: 'elsewhere.example', incarnation: 'x' }));
    const recent = new Date(Date.now() - TICKET_STALE_MS + 1_000);
    utimesSync(ticket, recent, recent);
    await expect(acquireFileLock(path, { signal: AbortSignal.timeout(30) })).rejects.toMatchObject({
      code: 'cancelled',
    });
    const stale = new Date(Date.now() - TICKET_STALE_MS - 1_000);
    utimesSync(ticket, stale, stale);
    (await acquireFileLock(path)).release();
    expect(readdirSync(queue)).toEqual([]);
  });
});
