import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import type { LeaseOwner } from './bucket-state.js';
import { type Clock, cancelledError, systemClock } from './clock.js';
import { sleepUntilFileChanges } from './directory-watch.js';
import { currentOwner, isOwnerAlive } from './process-identity.js';
import { entryKind, refuseIrregularEntry, tempFileName, unsafeState } from './state-file.js';

/** How long a process waits for the state lock before giving up with `timeout`. */
export const LOCK_WAIT_TIMEOUT_MS = 10_000;
/** A lock or breaker file without a readable record is judged abandoned after this long. */
export const LOCK_RECORD_GRACE_MS = 2_000;
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

type Attempt = { taken: true } | { taken: false; holder: string | undefined };

/**
 * Creates `path` holding `record`, or reports who holds it. The record is written to a temp file first
 * and hard-linked into place, so the file never exists empty while its creator lives: creating it with
 * O_EXCL and writing afterwards left a window in which a creator stalled on a busy disk (a write waiting
 * on the journal or on dirty-page throttling, seconds under load) had its live lock judged abandoned by
 * the empty-record rule, and two processes held the lock at once.
 */
function createExclusive(path: string, record: string, tempPath: string): Attempt {
  // O_EXCL never follows a symbolic link, so a planted link cannot redirect the record.
  const fd = openSync(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeSync(fd, record);
  } finally {
    closeSync(fd);
  }
  try {
    // link() fails with EEXIST on any existing entry, a symbolic link included, and never follows one.
    linkSync(tempPath, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { taken: false, holder: readRecord(path) };
  } finally {
    unlinkSync(tempPath);
  }
  return { taken: true };
}

/**
 * The record in a lock, breaker or ticket file; `undefined` when it is gone. Anything there that is not
 * a regular file (a FIFO would block this read forever, a device could act on it, a directory or link
 * never goes away) fails closed as unsafe state.
 */
export function readRecord(path: string): string | undefined {
  refuseIrregularEntry(path, 'lock_not_a_file', 'lock path');
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') refuseIrregularEntry(path, 'lock_not_a_file', 'lock path');
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw unsafeState('lock_not_a_file', path, `the lock path is ${entryKind(stats)}, not a regular file`);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function parseOwner(record: string): LeaseOwner | undefined {
  try {
    const value = JSON.parse(record) as Partial<LeaseOwner>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.incarnation === 'string'
    ) {
      return { pid: value.pid, host: value.host, incarnation: value.incarnation };
    }
  } catch {
    // Fall through: a creator killed between open and write leaves an empty record.
  }
  return undefined;
}

export function ageMs(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder recorded in `record` is proven gone. A file without a readable record is never
 * made by a live process (records are linked into place whole); only a crash of the machine leaves one,
 * and it is judged abandoned once older than {@link LOCK_RECORD_GRACE_MS}.
 */
export function isAbandoned(path: string, record: string): boolean {
  const owner = parseOwner(record);
  if (owner !== undefined) return !isOwnerAlive(owner);
  const age = ageMs(path);
  return age !== undefined && age > LOCK_RECORD_GRACE_MS;
}

/**
 * A temp file for a record, beside the state file and named like the state writer's temps, so a
 * breaker removes a dead process's leftovers of both kinds together.
 */
function recordTemp(lockPath: string): string {
  return tempFileName(lockPath.replace(/\.lock$/, ''), process.pid);
}

function removeDeadWritersTemps(lockPath: string, record: string): void {
  const owner = parseOwner(record);
  if (owner === undefined) return;
  const statePath = lockPath.replace(/\.lock$/, '');
  const prefix = `${basename(statePath)}.${owner.pid}.`;
  const directory = dirname(lockPath);
  for (const name of readdirSync(directory)) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) {
      try {
        unlinkSync(join(directory, name));
      } catch {
        // Another breaker got there first.
      }
    }
  }
}

/**
 * Removes the lock at `lockPath` if it still holds the same abandoned `record`. Only the holder of the
 * breaker file may do this, so two waiters can never both judge one dead lock and the second delete
 * the fresh lock the first one's successor just took.
 */
function breakAbandonedLock(lockPath: string, record: string, ownRecord: string): void {
  const breakerPath = `${lockPath}.break`;
  const attempt = createExclusive(breakerPath, ownRecord, recordTemp(lockPath));
  if (!attempt.taken) {
    // A breaker that died holding the breaker file: remove it (re-read first to narrow the window).
    const holder = attempt.holder;
    if (holder !== undefined && isAbandoned(breakerPath, holder) && readRecord(breakerPath) === holder) {
      try {
        unlinkSync(breakerPath);
      } catch {
        // Gone already.
      }
    }
    return;
  }
  try {
    if (readRecord(lockPath) === record) {
      unlinkSync(lockPath);
      removeDeadWritersTemps(lockPath, record);
    }
  } finally {
    unlinkSync(breakerPath);
  }
}

function ticketName(): string {
  // Microseconds since the epoch, zero-padded, so names sort in arrival order across processes.
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1_000);
  return `${String(micros).padStart(17, '0')}-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`;
}

function ensureQueueDirectory(queuePath: string): void {
  try {
    mkdirSync(queuePath, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stats = lstatSync(queuePath);
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw unsafeState('not_a_directory', queuePath, 'the lock queue is not a plain directory');
  }
}

/** Where a ticket stands in its queue. */
interface QueuePlace {
  /** The first live ticket (tickets of proven-dead waiters are removed on the way). */
  head: string | undefined;
  /** The ticket just ahead of the caller's, whose removal moves the caller up. */
  ahead: string | undefined;
}

/** The head of the queue and the ticket ahead of `ticket`. */
function queuePlace(queuePath: string, ticket: string): QueuePlace {
  const names = readdirSync(queuePath).sort();
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
  const queuePath = `${lockPath}.queue`;
  ensureQueueDirectory(queuePath);
  // A priority ticket's name sorts before every ordinary one ("0-" before "00"), in arrival order.
  const nextName = () => (priority ? `0-${ticketName()}` : ticketName());
  let ticket = nextName();
  while (!createExclusive(join(queuePath, ticket), ownRecord, recordTemp(lockPath)).taken)
    ticket = nextName();
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
        const attempt = createExclusive(lockPath, ownRecord, recordTemp(lockPath));
        if (attempt.taken) {
          leaveQueue();
          return {
            release: () => {
              try {
                unlinkSync(lockPath);
              } catch (error) {
                if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
              }
            },
          };
        }
        if (attempt.holder !== undefined && isAbandoned(lockPath, attempt.holder)) {
          breakAbandonedLock(lockPath, attempt.holder, ownRecord);
          continue;
        }
        awaited = lockPath;
      }
      if (clock.now() - started > LOCK_WAIT_TIMEOUT_MS) {
        throw new WebToolError({
          code: 'timeout',
          message: `the host state lock stayed taken by live processes for ${LOCK_WAIT_TIMEOUT_MS} ms`,
          details: { limit: LOCK_WAIT_TIMEOUT_MS },
        });
      }
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
