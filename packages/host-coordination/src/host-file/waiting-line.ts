import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { type Clock, cancelledError } from '../clock.js';
import { currentOwner } from '../process-identity.js';
import { sleepUntilFileChanges } from './directory-watch.js';
import { ageMs, isAbandoned, readRecord } from './lock-record.js';
import { unsafeState } from './state-file.js';

/** A waiter touches its ticket at least this often, so a ticket left by a stopped waiter can be told apart. */
export const WAITER_TICKET_REFRESH_MS = 5_000;
/** A ticket untouched for this long is removed: its waiter is stopped or gone. */
export const WAITER_TICKET_STALE_MS = 4 * WAITER_TICKET_REFRESH_MS;

/**
 * Where admissions of this process wait for a slot of a scope that is full, in a line shared by every
 * process of the host. Only the first waiter of a scope is woken by changes of the state; each later one
 * is woken when the ticket ahead of its own goes, so a release wakes one process instead of all of them
 * (which would each take the state lock only to learn that the one slot is gone). A later waiter still
 * tries again when its own pause ends, so a first waiter that stalls delays the others by at most that
 * pause.
 */
export interface WaitingLine {
  /**
   * Joins the line of `key` (once per admission) and waits: up to `ms` for a change of the state when
   * first in line, else for the waiter ahead to leave, up to the line's later pause or `maxMs`, whichever
   * is sooner. Rejects with `cancelled` when `signal` aborts.
   */
  wait(key: string, ms: number, maxMs: number, signal: AbortSignal | undefined): Promise<void>;
  /** Leaves the line of `key`, when in it. */
  leave(key: string): void;
  /** Leaves every line. */
  leaveAll(): void;
}

interface Ticket {
  name: string;
  touchedAt: number;
}

/**
 * A waiting line kept as ticket files in `directory` (named `<key>-<arrival>-<pid>-<random>`, holding
 * the owner's PID and incarnation). `waitForState` is the first waiter's wait.
 */
export function createWaitingLine(
  directory: string,
  clock: Clock,
  waitForState: (ms: number, signal: AbortSignal | undefined) => Promise<void>,
  laterPauseMs: number,
): WaitingLine {
  const tickets = new Map<string, Ticket>();

  function ensureDirectory(): void {
    try {
      mkdirSync(directory, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stats = lstatSync(directory);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      throw unsafeState('not_a_directory', directory, 'the waiting line is not a plain directory');
    }
  }

  function enter(key: string): Ticket {
    ensureDirectory();
    for (;;) {
      const micros = Math.floor((performance.timeOrigin + performance.now()) * 1_000);
      const name = `${key}-${String(micros).padStart(17, '0')}-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`;
      let fd: number;
      try {
        // O_EXCL never follows a symbolic link. An empty ticket (its creator between open and write)
        // counts as live, so the record needs no temp file: a ticket decides order, never safety.
        fd = openSync(
          join(directory, name),
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
          0o600,
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      try {
        writeSync(fd, JSON.stringify(currentOwner()));
      } finally {
        closeSync(fd);
      }
      return { name, touchedAt: Date.now() };
    }
  }

  /** The first live ticket of `key`'s line and the one just ahead of `own`; dead and stale ones go. */
  function place(key: string, own: string): { first: string | undefined; ahead: string | undefined } {
    const prefix = `${key}-`;
    const names = readdirSync(directory)
      .filter((name) => name.startsWith(prefix))
      .sort();
    let first: string | undefined;
    for (const name of names) {
      if (name === own) {
        first ??= own;
        break;
      }
      const path = join(directory, name);
      const record = readRecord(path);
      if (record === undefined) continue;
      if ((ageMs(path) ?? 0) <= WAITER_TICKET_STALE_MS && !isAbandoned(path, record)) {
        first = name;
        break;
      }
      try {
        unlinkSync(path);
      } catch {
        // Another waiter removed it first.
      }
    }
    let ahead: string | undefined;
    for (const name of names) {
      if (name >= own) break;
      ahead = name;
    }
    return { first, ahead: first === own ? undefined : ahead };
  }

  function leave(key: string): void {
    const ticket = tickets.get(key);
    if (ticket === undefined) return;
    tickets.delete(key);
    try {
      unlinkSync(join(directory, ticket.name));
    } catch {
      // Removed already, as stale while this process was stopped.
    }
  }

  return {
    async wait(key, ms, maxMs, signal) {
      if (signal?.aborted) throw cancelledError(signal);
      let ticket = tickets.get(key);
      if (ticket === undefined) {
        ticket = enter(key);
        tickets.set(key, ticket);
      } else if (Date.now() - ticket.touchedAt >= WAITER_TICKET_REFRESH_MS) {
        const now = new Date();
        try {
          utimesSync(join(directory, ticket.name), now, now);
          ticket.touchedAt = now.getTime();
        } catch {
          // Removed as stale while this process was stopped: join again, at the back.
          ticket = enter(key);
          tickets.set(key, ticket);
        }
      }
      const { first, ahead } = place(key, ticket.name);
      if (first === ticket.name || ahead === undefined) return waitForState(ms, signal);
      // Behind another waiter, the pause is only a guard against a first waiter that stalls: the
      // longest pause (or the caller's bound, when sooner), not the first waiter's short ones.
      return sleepUntilFileChanges(
        join(directory, ahead),
        Math.min(maxMs, laterPauseMs),
        clock.sleep,
        signal,
        () => cancelledError(signal),
      );
    },
    leave,
    leaveAll() {
      for (const key of [...tickets.keys()]) leave(key);
    },
  };
}
