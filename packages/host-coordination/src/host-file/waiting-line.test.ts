import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createWaitingLine, WAITER_TICKET_STALE_MS } from './waiting-line.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const KEY = 'a'.repeat(64);
const OTHER_KEY = 'b'.repeat(64);

function lineDirectory(): string {
  const parent = mkdtempSync(join(tmpdir(), 'waiting-line-'));
  directories.push(parent);
  return join(parent, 'state.json.waiters');
}

/** A line whose first-waiter wait is counted and ends when the test says so. */
function line(directory: string, clock = createManualClock()) {
  const stateWaits: { end: () => void }[] = [];
  const created = createWaitingLine(
    directory,
    clock,
    () =>
      new Promise<void>((resolve) => {
        stateWaits.push({ end: resolve });
      }),
    100,
  );
  return { line: created, stateWaits, clock };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the waiting line of a full scope', () => {
  it('lets only the first waiter wait on the state; the next moves up when it leaves', async () => {
    const directory = lineDirectory();
    // Two lines over one directory stand for two processes.
    const first = line(directory);
    const second = line(directory);
    const firstWait = first.line.wait(KEY, 50, 100, undefined);
    expect(first.stateWaits).toHaveLength(1);
    let secondDone = false;
    const secondWait = second.line.wait(KEY, 50, 100, undefined).then(() => {
      secondDone = true;
    });
    // The second waits on the first one's ticket, with its own (manual) clock standing still.
    await until(() => second.clock.pendingSleeps === 1);
    expect(second.stateWaits).toHaveLength(0);
    first.line.leave(KEY);
    await secondWait;
    expect(secondDone).toBe(true);
    // Now first in line, its next wait is on the state.
    void second.line.wait(KEY, 50, 100, undefined);
    expect(second.stateWaits).toHaveLength(1);
    first.stateWaits[0]?.end();
    await firstWait;
    second.line.leaveAll();
    expect(readdirSync(directory)).toEqual([]);
  });

  it('keeps the lines of different scopes apart', async () => {
    const directory = lineDirectory();
    const first = line(directory);
    const second = line(directory);
    void first.line.wait(KEY, 50, 100, undefined);
    void second.line.wait(OTHER_KEY, 50, 100, undefined);
    expect(first.stateWaits).toHaveLength(1);
    expect(second.stateWaits).toHaveLength(1);
    first.line.leaveAll();
    second.line.leaveAll();
  });

  it('bounds a later waiter by the line pause, so a stalled first waiter only delays it', async () => {
    const directory = lineDirectory();
    const first = line(directory);
    const second = line(directory);
    void first.line.wait(KEY, 50, 1_000, undefined);
    let done = false;
    const waiting = second.line.wait(KEY, 50, 1_000, undefined).then(() => {
      done = true;
    });
    await until(() => second.clock.pendingSleeps === 1);
    await second.clock.advance(99);
    expect(done).toBe(false);
    await second.clock.advance(1);
    await waiting;
    expect(done).toBe(true);
    first.line.leaveAll();
    second.line.leaveAll();
  });

  it('removes the ticket of a dead waiter instead of waiting behind it', async () => {
    const directory = lineDirectory();
    mkdirSync(directory, { mode: 0o700 });
    const dead = join(directory, `${KEY}-00000000000000001-999999999-abcd`);
    writeFileSync(dead, JSON.stringify({ pid: 999_999_999, host: hostname(), incarnation: 'gone' }));
    const first = line(directory);
    void first.line.wait(KEY, 50, 100, undefined);
    expect(first.stateWaits).toHaveLength(1);
    expect(existsSync(dead)).toBe(false);
    first.line.leaveAll();
  });

  it(`waits behind an unjudgeable waiter's ticket until it is ${WAITER_TICKET_STALE_MS} ms untouched`, async () => {
    const directory = lineDirectory();
    mkdirSync(directory, { mode: 0o700 });
    const elsewhere = join(directory, `${KEY}-00000000000000001-1-abcd`);
    writeFileSync(elsewhere, JSON.stringify({ pid: 1, host: 'elsewhere.example', incarnation: 'x' }));
    const recent = new Date(Date.now() - WAITER_TICKET_STALE_MS + 1_000);
    utimesSync(elsewhere, recent, recent);
    const first = line(directory);
    void first.line.wait(KEY, 50, 100, undefined);
    expect(first.stateWaits).toHaveLength(0);
    first.line.leaveAll();
    const stale = new Date(Date.now() - WAITER_TICKET_STALE_MS - 1_000);
    utimesSync(elsewhere, stale, stale);
    const second = line(directory);
    void second.line.wait(KEY, 50, 100, undefined);
    expect(second.stateWaits).toHaveLength(1);
    expect(existsSync(elsewhere)).toBe(false);
    second.line.leaveAll();
  });

  it('refuses a line path that is not a plain directory', async () => {
    const directory = lineDirectory();
    writeFileSync(directory, '');
    const first = line(directory);
    await expect(first.line.wait(KEY, 50, 100, undefined)).rejects.toMatchObject({
      code: 'state_unsafe',
      details: { problem: 'not_a_directory' },
    });
  });

  it('ends a wait with cancelled when the signal aborts', async () => {
    const directory = lineDirectory();
    const first = line(directory);
    const second = line(directory);
    void first.line.wait(KEY, 50, 100, undefined);
    const controller = new AbortController();
    const waiting = second.line.wait(KEY, 50, 100, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    first.line.leaveAll();
    second.line.leaveAll();
    expect(readdirSync(directory)).toEqual([]);
  });
});
