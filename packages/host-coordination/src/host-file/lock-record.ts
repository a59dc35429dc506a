// The record in a lock, breaker or ticket file (the process that made it), how it is linked into
// place whole, and how a record whose process is proven gone is judged and broken.
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LeaseOwner } from '../bucket-state.js';
import { isOwnerAlive } from '../process-identity.js';
import { entryKind, refuseIrregularEntry, tempFileName, unsafeState } from './state-file.js';

/** A lock or breaker file without a readable record is judged abandoned after this long. */
export const LOCK_RECORD_GRACE_MS = 2_000;

/** How an attempt to create a lock or ticket file ended: taken, or held by the record's writer. */
export type Attempt = { taken: true } | { taken: false; holder: string | undefined };

/**
 * Creates `path` holding `record`, or reports who holds it. The record is written to a temp file first
 * and hard-linked into place, so the file never exists empty while its creator lives: creating it with
 * O_EXCL and writing afterwards left a window in which a creator stalled on a busy disk (a write waiting
 * on the journal or on dirty-page throttling, seconds under load) had its live lock judged abandoned by
 * the empty-record rule, and two processes held the lock at once.
 */
export function createExclusive(path: string, record: string, tempPath: string): Attempt {
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
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (!stats.isFile()) refuseIrregularEntry(path, 'lock_not_a_file', 'lock path');
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

/** How long a process judged alive is taken to be alive without asking again. */
const LIVENESS_VERDICT_MS = 100;
const livenessVerdicts = new Map<string, number>();

/**
 * {@link isOwnerAlive}, remembering a live verdict for {@link LIVENESS_VERDICT_MS}: waiters judge the
 * same few holders and tickets on every wake, and a dead one is still found within that time.
 */
function isOwnerRecentlyAlive(owner: LeaseOwner): boolean {
  const key = `${owner.host}\n${owner.pid}\n${owner.incarnation}`;
  const now = performance.now();
  const judgedAt = livenessVerdicts.get(key);
  if (judgedAt !== undefined && now - judgedAt < LIVENESS_VERDICT_MS) return true;
  const alive = isOwnerAlive(owner);
  if (alive) {
    if (livenessVerdicts.size > 256) livenessVerdicts.clear();
    livenessVerdicts.set(key, now);
  } else {
    livenessVerdicts.delete(key);
  }
  return alive;
}

export function ageMs(path: string): number | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats === undefined ? undefined : Date.now() - stats.mtimeMs;
}

/**
 * Whether the holder recorded in `record` is proven gone. A file without a readable record is never
 * made by a live process (records are linked into place whole); only a crash of the machine leaves one,
 * and it is judged abandoned once older than {@link LOCK_RECORD_GRACE_MS}.
 */
export function isAbandoned(path: string, record: string): boolean {
  const owner = parseOwner(record);
  if (owner !== undefined) return !isOwnerRecentlyAlive(owner);
  const age = ageMs(path);
  return age !== undefined && age > LOCK_RECORD_GRACE_MS;
}

/**
 * A temp file for a record, beside the state file and named like the state writer's temps, so a
 * breaker removes a dead process's leftovers of both kinds together.
 */
export function recordTemp(lockPath: string): string {
  return tempFileName(lockPath.replace(/\.lock$/, ''), process.pid);
}

export function removeDeadWritersTemps(lockPath: string, record: string): void {
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
export function breakAbandonedLock(lockPath: string, record: string, ownRecord: string): void {
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

/** Removes a file; false when it was gone already. */
export function removeIfPresent(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** An operation a waiter queued, as the lock's holder claimed it. */
export interface QueuedOperation {
  /** The ticket's name, which names the operation until its result is taken. */
  name: string;
  /** The waiting process. */
  owner: LeaseOwner;
  /** What the waiter asked for, as it wrote it (validate before use). */
  operation: unknown;
}

export function parseQueued(name: string, record: string | undefined): QueuedOperation | undefined {
  if (record === undefined) return undefined;
  const owner = parseOwner(record);
  if (owner === undefined) return undefined;
  let operation: unknown;
  try {
    operation = (JSON.parse(record) as { operation?: unknown }).operation;
  } catch {
    return undefined;
  }
  return operation === undefined ? undefined : { name, owner, operation };
}
