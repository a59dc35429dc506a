// The host lock: waiters line up as tickets and take the lock in arrival order.
import { closeSync, constants, linkSync, lstatSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { type Clock, cancelledError, systemClock } from '../clock.js';
import { currentOwner } from '../process-identity.js';
import { sleepUntilFileChanges } from './directory-watch.js';
import {
  ensurePlainDirectory,
  inboxName,
  PARKED_PREFIX,
  queueDirectory,
  resultsDirectory,
  ticketName,
} from './lock-layout.js';
import {
  type Attempt,
  ageMs,
  breakAbandonedLock,
  createExclusive,
  isAbandoned,
  parseQueued,
  readRecord,
  recordTemp,
  removeDeadWritersTemps,
  removeIfPresent,
} from './lock-record.js';

/** How long a process waits for the state lock before giving up with `timeout`. */
export const LOCK_WAIT_TIMEOUT_MS = 10_000;
/**
 * A queue ticket older than this is removed whoever owns it: its waiter gave up after
 * {@link LOCK_WAIT_TIMEOUT_MS} at the latest, so only a waiter whose liveness cannot be judged (another
 * host, another PID namespace) or a stopped one can leave it, and neither may block the queue.
 */
export const TICKET_STALE_MS = 2 * LOCK_WAIT_TIMEOUT_MS;
/** The shortest pause between two attempts to take the lock. */
export const LOCK_RETRY_MIN_MS = 1;
/**
 * The longest pause between two attempts to take the lock. Waiters are woken sooner by a watch on what
 * they wait for (the lock, or the ticket ahead of theirs); the pause bounds the wait where no watch
 * fires (a predecessor that died, a file system without change notification).
 */
export const LOCK_RETRY_MAX_MS = 20;

/** Options of one lock acquisition. */
export interface LockOptions {
  /** Stops waiting. */
  signal?: AbortSignal;
  /** Measures the wait and sleeps between attempts (default the system clock). */
  clock?: Clock;
  /**
   * Queue ahead of ordinary waiters (still behind earlier priority ones). For short operations that
   * free capacity, such as a release: behind a line of admissions that will only learn there is no slot,
   * a release would keep every one of them waiting longer.
   */
  priority?: boolean;
}

/** A held lock. */
export interface HeldLock {
  /** Releases the lock. */
  release(): void;
}

/**
 * Takes the lock by hard-linking the caller's own queue ticket, which already holds its whole record,
 * to `lockPath`: one change to the directory where a fresh record file costs three (create, link,
 * unlink), and every change is something the next fsync has to commit. `gone` when the ticket is no
 * longer there (claimed by the previous holder, or removed).
 */
export function linkTicketAsLock(ticketPath: string, lockPath: string): Attempt | 'gone' {
  try {
    linkSync(ticketPath, lockPath);
    return { taken: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { taken: false, holder: readRecord(lockPath) };
    if (code === 'ENOENT' && lstatSync(ticketPath, { throwIfNoEntry: false }) === undefined) return 'gone';
    throw error;
  }
}

/** Joins the queue of `lockPath` with a ticket holding `record`; returns the ticket's name. */
export function enterQueue(queuePath: string, lockPath: string, record: string, priority: boolean): string {
  // A priority ticket's name sorts before every ordinary one ("0-" before "00"), in arrival order.
  const nextName = () => (priority ? `0-${ticketName()}` : ticketName());
  let ticket = nextName();
  while (!createExclusive(join(queuePath, ticket), record, recordTemp(lockPath)).taken) ticket = nextName();
  return ticket;
}

/** The error of a waiter that waited {@link LOCK_WAIT_TIMEOUT_MS} in vain. */
export function lockTimeout(): WebToolError {
  return new WebToolError({
    code: 'timeout',
    message: `the host state lock stayed taken by live processes for ${LOCK_WAIT_TIMEOUT_MS} ms`,
    details: { limit: LOCK_WAIT_TIMEOUT_MS },
  });
}

/** Where a ticket stands in its queue. */
interface QueuePlace {
  /** The first live ticket (tickets of proven-dead waiters are removed on the way). */
  head: string | undefined;
  /** The ticket just ahead of the caller's, whose removal moves the caller up. */
  ahead: string | undefined;
}

/** The head of the queue and the ticket ahead of `ticket`. */
export function queuePlace(queuePath: string, ticket: string): QueuePlace {
  // Parked admissions wait for a slot, not for the lock: they are not in line.
  const names = readdirSync(queuePath)
    .filter((name) => !name.startsWith(PARKED_PREFIX))
    .sort();
  let head: string | undefined;
  let ahead: string | undefined;
  for (const name of names) {
    if (name >= ticket) break;
    ahead = name;
  }
  for (const name of names) {
    const path = join(queuePath, name);
    const record = readRecord(path);
    if (record === undefined) continue;
    const stale = (ageMs(path) ?? 0) > TICKET_STALE_MS;
    const abandoned = isAbandoned(path, record);
    if (!stale && !abandoned) {
      head = name;
      break;
    }
    try {
      unlinkSync(path);
    } catch {
      // Another waiter removed it first.
    }
    // A waiter killed while creating its ticket may have left its record's temp file behind.
    if (abandoned) removeDeadWritersTemps(queuePath.replace(/\.queue$/, ''), record);
  }
  return { head, ahead: head === ticket ? undefined : ahead };
}

/** The lock at `lockPath`, taken by this process: releasing it also wakes the next waiter. */
export function heldLock(lockPath: string): HeldLock {
  return {
    release: () => {
      removeIfPresent(lockPath);
      wakeHead(lockPath);
    },
  };
}

/**
 * After a release: tells the waiter now first in line, when it queued an operation, that the lock is
 * free, by a `<ticket>.wake` file in its inbox. Operation waiters watch only their inbox (their result
 * comes there too), so a release wakes one process, not every waiter. A plain lock waiter first in
 * line watches the lock file itself.
 */
function wakeHead(lockPath: string): void {
  const queuePath = queueDirectory(lockPath);
  let names: string[];
  try {
    names = readdirSync(queuePath);
  } catch {
    return;
  }
  let first: string | undefined;
  for (const name of names) {
    if (name.endsWith('.tmp') || name.startsWith(PARKED_PREFIX)) continue;
    if (first === undefined || name < first) first = name;
  }
  if (first === undefined) return;
  const queued = parseQueued(first, readRecord(join(queuePath, first)));
  if (queued === undefined) return;
  try {
    closeSync(
      openSync(
        join(resultsDirectory(lockPath), inboxName(queued.owner), `${first}.wake`),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      ),
    );
  } catch {
    // Woken already, or its inbox is gone: its own polling still finds the lock free.
  }
}

/**
 * Takes the exclusive lock `lockPath` (a file linked into place whole, holding the owner's PID and
 * incarnation).
 * Waiters line up as tickets in `<lock>.queue` and only the first live ticket tries the lock, so
 * the lock is handed over in arrival order: a plain polling lock lets a process that just released
 * take it again at once and starved others for seconds under contention (measured). A lock or ticket
 * whose owner is proven dead is removed (the lock by one serialized breaker); a live holder is waited
 * for, up to {@link LOCK_WAIT_TIMEOUT_MS}.
 */
export async function acquireFileLock(lockPath: string, options: LockOptions = {}): Promise<HeldLock> {
  const { signal, clock = systemClock, priority = false } = options;
  if (signal?.aborted) throw cancelledError(signal);
  const ownRecord = JSON.stringify(currentOwner());
  const queuePath = queueDirectory(lockPath);
  ensurePlainDirectory(queuePath, 'lock queue');
  const ticket = enterQueue(queuePath, lockPath, ownRecord, priority);
  const ticketPath = join(queuePath, ticket);
  const leaveQueue = () => {
    try {
      unlinkSync(ticketPath);
    } catch {
      // Removed already (judged dead by a waiter while this process was stopped).
    }
  };
  const started = clock.now();
  let pause = LOCK_RETRY_MIN_MS;
  try {
    for (;;) {
      if (signal?.aborted) throw cancelledError(signal);
      const place = queuePlace(queuePath, ticket);
      // What this waiter waits for next: the lock when it heads the queue, else the ticket ahead.
      let awaited = place.ahead === undefined ? undefined : join(queuePath, place.ahead);
      if (place.head === ticket) {
        const linked = linkTicketAsLock(ticketPath, lockPath);
        // A plain ticket is never claimed; one removed as stale takes the lock with a record of its own.
        const attempt =
          linked === 'gone' ? createExclusive(lockPath, ownRecord, recordTemp(lockPath)) : linked;
        if (attempt.taken) {
          leaveQueue();
          return heldLock(lockPath);
        }
        if (attempt.holder !== undefined && isAbandoned(lockPath, attempt.holder)) {
          breakAbandonedLock(lockPath, attempt.holder, ownRecord);
          continue;
        }
        awaited = lockPath;
      }
      if (clock.now() - started > LOCK_WAIT_TIMEOUT_MS) throw lockTimeout();
      // Jitter keeps waiters of several processes out of lockstep.
      const ms = pause * (0.5 + Math.random());
      if (awaited === undefined) await clock.sleep(ms, signal);
      else await sleepUntilFileChanges(awaited, ms, clock.sleep, signal, () => cancelledError(signal));
      pause = Math.min(LOCK_RETRY_MAX_MS, pause * 2);
    }
  } catch (error) {
    leaveQueue();
    throw error;
  }
}
