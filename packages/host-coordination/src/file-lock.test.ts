import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from './clock.js';
import { acquireFileLock, LOCK_RECORD_GRACE_MS, LOCK_WAIT_TIMEOUT_MS, TICKET_STALE_MS } from './file-lock.js';
import { currentOwner } from './process-identity.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

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
    // Past the bound, the next attempt (at most one maximum pause later) fails.
    await clock.advance(10);
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
