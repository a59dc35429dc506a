import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import type { LeaseOwner } from '../bucket-state.js';
import { type Clock, cancelledError, systemClock } from '../clock.js';
import { currentOwner, isOwnerAlive, isPidRunning } from '../process-identity.js';
import { sleepUntilFileChanges, sleepUntilWoken, watchEntry } from './directory-watch.js';
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
 * Takes the lock by hard-linking the caller's own queue ticket, which already holds its whole record,
 * to `lockPath`: one change to the directory where a fresh record file costs three (create, link,
 * unlink), and every change is something the next fsync has to commit. `gone` when the ticket is no
 * longer there (claimed by the previous holder, or removed).
 */
function linkTicketAsLock(ticketPath: string, lockPath: string): Attempt | 'gone' {
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

let suffixCounter = -1;

/**
 * Eight hex digits that differ for every call in this process: with the microseconds and the PID in
 * the same name, that makes names unique without asking for random bytes each time (which cost more
 * than the rest of a queue ticket under contention).
 */
function nextSuffix(): string {
  if (suffixCounter < 0)
    suffixCounter = process.getBuiltinModule('node:crypto').randomBytes(4).readUInt32BE(0);
  suffixCounter = (suffixCounter + 1) % 0x1_0000_0000;
  return suffixCounter.toString(16).padStart(8, '0');
}

function ticketName(): string {
  // Microseconds since the epoch, zero-padded, so names sort in arrival order across processes.
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1_000);
  return `${String(micros).padStart(17, '0')}-${process.pid}-${nextSuffix()}`;
}

function ensurePlainDirectory(path: string, what: string): void {
  let stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    stats = lstatSync(path);
  }
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw unsafeState('not_a_directory', path, `the ${what} is not a plain directory`);
  }
}

/** Joins the queue of `lockPath` with a ticket holding `record`; returns the ticket's name. */
function enterQueue(queuePath: string, lockPath: string, record: string, priority: boolean): string {
  // A priority ticket's name sorts before every ordinary one ("0-" before "00"), in arrival order.
  const nextName = () => (priority ? `0-${ticketName()}` : ticketName());
  let ticket = nextName();
  while (!createExclusive(join(queuePath, ticket), record, recordTemp(lockPath)).taken) ticket = nextName();
  return ticket;
}

/** Removes a file; false when it was gone already. */
function removeIfPresent(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function lockTimeout(): WebToolError {
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
function queuePlace(queuePath: string, ticket: string): QueuePlace {
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

function heldLock(lockPath: string): HeldLock {
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

function queueDirectory(lockPath: string): string {
  return `${lockPath}.queue`;
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

// --- Operations queued behind the lock --------------------------------------------------------------
//
// A waiter may put what it wants done (an admission, a release: plain data) into its ticket. Whoever
// holds the lock then claims the queued operations (each ticket is renamed into `<lock>.results` as
// `<ticket>.claimed`, so a waiter that gives up and a holder that claims can never both win), applies
// them together with its own, commits them in one write, and leaves each waiter its result there as
// `<ticket>.result`. Under contention this turns one durable write per operation into one per batch.
// A holder that dies after claiming leaves `.claimed` files behind; the next holder finds them and
// either hands out the results its predecessor committed or applies them itself (see the host store).

/** The most operations one holder commits together: its own and those it claims. */
export const MAX_COMBINED_OPERATIONS = 64;

/** Where claimed operations wait: `<lock>.results`. */
export function resultsDirectory(lockPath: string): string {
  return `${lockPath}.results`;
}

/**
 * The folder inside the results directory where one process receives its results (`to-<pid>-<hash of
 * the owner>`). Each process watches only its own, so handing out a batch wakes just the processes it
 * answers.
 */
function inboxName(owner: LeaseOwner): string {
  const identity = `${owner.host}\n${owner.pid}\n${owner.incarnation}`;
  let name = inboxNames.get(identity);
  if (name === undefined) {
    const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
    name = `to-${owner.pid}-${hash.update(identity).digest('hex').slice(0, 16)}`;
    if (inboxNames.size > 256) inboxNames.clear();
    inboxNames.set(identity, name);
  }
  return name;
}
const inboxNames = new Map<string, string>();

/** An inbox untouched this long is removed once empty; results left in it are older than any wait. */
const INBOX_STALE_MS = 3 * TICKET_STALE_MS;
/** How often a holder clears what gone waiters left in the results directory. */
const LEFTOVER_SWEEP_MS = 5_000;
let lastSweep = Number.NEGATIVE_INFINITY;

/** An operation a waiter queued, as the lock's holder claimed it. */
export interface QueuedOperation {
  /** The ticket's name, which names the operation until its result is taken. */
  name: string;
  /** The waiting process. */
  owner: LeaseOwner;
  /** What the waiter asked for, as it wrote it (validate before use). */
  operation: unknown;
}

/** How {@link submitToLock} ended. */
export type Submission =
  /** Another holder applied the operation: its result. */
  | { kind: 'delivered'; result: unknown }
  /** This process holds the lock and applies its own operation (and may claim others'). */
  | { kind: 'holder'; lock: HeldLock; name: string };

/** Options of {@link submitToLock}. */
export interface SubmitOptions extends LockOptions {
  /**
   * Run while holding the lock when a holder died with this process's operation claimed: hands out
   * or applies what the dead holder claimed (see {@link awaitParkedResult}).
   */
  recover: () => void;
}

function parseQueued(name: string, record: string | undefined): QueuedOperation | undefined {
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

/** Takes a delivered result: its value, or `undefined` when none is there yet. */
function takeResult(resultPath: string): { result: unknown } | undefined {
  const text = readRecord(resultPath);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unsafeState('invalid_state', resultPath, "a queued operation's result is not valid JSON", error);
  }
  removeIfPresent(resultPath);
  return { result: (parsed as { result?: unknown }).result };
}

/**
 * Queues `operation` behind the lock at `lockPath` and waits until either another holder hands back its
 * result or this process takes the lock (then it applies the operation itself, see {@link Submission}).
 * Waits in arrival order like {@link acquireFileLock}. Cancelling or timing out withdraws the operation
 * when no holder has claimed it yet; a claimed one is applied, and its result is awaited and returned
 * (the caller undoes it: a cancelled admission releases what it was granted).
 */
export async function submitToLock(
  lockPath: string,
  operation: unknown,
  options: SubmitOptions,
): Promise<Submission> {
  const { signal, clock = systemClock, priority = false, recover } = options;
  if (signal?.aborted) throw cancelledError(signal);
  const owner = currentOwner();
  const ownRecord = JSON.stringify(owner);
  const queuePath = queueDirectory(lockPath);
  const resultsPath = resultsDirectory(lockPath);
  ensurePlainDirectory(queuePath, 'lock queue');
  ensurePlainDirectory(resultsPath, 'lock results directory');
  const inboxPath = join(resultsPath, inboxName(owner));
  ensurePlainDirectory(inboxPath, 'lock results inbox');
  const ticket = enterQueue(queuePath, lockPath, JSON.stringify({ ...owner, operation }), priority);
  const ticketPath = join(queuePath, ticket);
  const resultName = `${ticket}.result`;
  const resultPath = join(inboxPath, resultName);
  const wakeName = `${ticket}.wake`;
  const wakePath = join(inboxPath, wakeName);
  const claimedPath = join(resultsPath, `${ticket}.claimed`);
  const started = clock.now();
  let pause = LOCK_RETRY_MIN_MS;
  try {
    for (;;) {
      const delivered = takeResult(resultPath);
      if (delivered !== undefined) return { kind: 'delivered', result: delivered.result };
      if (lstatSync(wakePath, { throwIfNoEntry: false }) !== undefined) removeIfPresent(wakePath);
      const queued = lstatSync(ticketPath, { throwIfNoEntry: false }) !== undefined;
      if (queued) {
        const giveUp = signal?.aborted ? cancelledError(signal) : undefined;
        const late = clock.now() - started > LOCK_WAIT_TIMEOUT_MS;
        // A ticket this process removes was not claimed: the operation is withdrawn, never applied.
        if (giveUp !== undefined || late) {
          if (removeIfPresent(ticketPath)) throw giveUp ?? lockTimeout();
          continue;
        }
        const place = queuePlace(queuePath, ticket);
        if (place.head === ticket) {
          const attempt = linkTicketAsLock(ticketPath, lockPath);
          // Claimed by the holder just before: its result follows (or it died with it claimed).
          if (attempt === 'gone') continue;
          if (attempt.taken) {
            // Nobody claims while this process holds the lock, so the ticket is still there to remove.
            removeIfPresent(ticketPath);
            return { kind: 'holder', lock: heldLock(lockPath), name: ticket };
          }
          if (attempt.holder !== undefined && isAbandoned(lockPath, attempt.holder)) {
            breakAbandonedLock(lockPath, attempt.holder, ownRecord);
            continue;
          }
        }
      } else {
        // Claimed by a holder (the wait cannot be cancelled any more: the caller undoes the result).
        const answer = await awaitClaimedResult(lockPath, claimedPath, resultPath, recover, clock);
        if (answer !== undefined) return { kind: 'delivered', result: answer.result };
        // Neither queued, claimed nor answered: the ticket was judged stale and removed unapplied.
        throw lockTimeout();
      }
      // Woken by the result, or by a release that leaves this ticket first in line; the pause bounds
      // the wait where neither comes (a holder that died, a file system without change notification).
      const ms = pause * (0.5 + Math.random());
      await sleepUntilWoken(
        ms,
        clock.sleep,
        undefined,
        () => cancelledError(signal),
        (wake) => {
          const result = watchEntry(inboxPath, resultName, wake);
          const woken = watchEntry(inboxPath, wakeName, wake);
          return () => {
            result();
            woken();
          };
        },
      );
      pause = Math.min(LOCK_RETRY_MAX_MS, pause * 2);
    }
  } catch (error) {
    removeIfPresent(ticketPath);
    throw error;
  } finally {
    if (lstatSync(wakePath, { throwIfNoEntry: false }) !== undefined) removeIfPresent(wakePath);
  }
}

/**
 * For the lock's holder: claims up to `max` operations queued by other waiters, in queue order, moving
 * each ticket out of the line. Tickets without an operation (plain lock waiters) stay.
 */
export function claimQueuedOperations(lockPath: string, ownName: string, max: number): QueuedOperation[] {
  const queuePath = queueDirectory(lockPath);
  const claimed: QueuedOperation[] = [];
  if (max <= 0) return claimed;
  let names: string[];
  try {
    names = readdirSync(queuePath).sort();
  } catch {
    return claimed;
  }
  for (const name of names) {
    if (name === ownName || name.endsWith('.tmp') || name.startsWith(PARKED_PREFIX)) continue;
    const queued = parseQueued(name, readRecord(join(queuePath, name)));
    if (queued === undefined) continue;
    if (!claimTicket(lockPath, name)) continue;
    claimed.push(queued);
    if (claimed.length >= max) break;
  }
  return claimed;
}

/**
 * For the lock's holder: operations claimed by a holder that died before handing out their results,
 * oldest first. Also clears what gone waiters left: results nobody took, and their empty inboxes.
 */
export function orphanedOperations(lockPath: string): QueuedOperation[] {
  const resultsPath = resultsDirectory(lockPath);
  let entries: Dirent[];
  try {
    entries = readdirSync(resultsPath, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const now = performance.now();
  const sweep = now - lastSweep > LEFTOVER_SWEEP_MS;
  if (sweep) lastSweep = now;
  const orphans: QueuedOperation[] = [];
  for (const entry of entries) {
    const path = join(resultsPath, entry.name);
    if (entry.name.endsWith('.claimed')) {
      const name = entry.name.slice(0, -'.claimed'.length);
      const queued = parseQueued(name, readRecord(path));
      if (queued !== undefined) orphans.push(queued);
      else removeIfPresent(path);
    } else if (!sweep) {
      // Leftovers are cleared at most once per sweep interval; orphans are looked for every time.
    } else if (entry.isDirectory() && entry.name.startsWith('to-')) {
      // Only the inbox of a process that no longer runs: a live one may be waiting on it, however long.
      const pid = Number(entry.name.split('-')[1]);
      if ((ageMs(path) ?? 0) > INBOX_STALE_MS && !isPidRunning(pid)) clearStaleInbox(path);
    } else if ((ageMs(path) ?? 0) > TICKET_STALE_MS) {
      removeIfPresent(path);
    }
  }
  return orphans;
}

function clearStaleInbox(path: string): void {
  try {
    for (const name of readdirSync(path)) {
      if ((ageMs(join(path, name)) ?? 0) > TICKET_STALE_MS) removeIfPresent(join(path, name));
    }
    rmdirSync(path);
  } catch {
    // Not empty (a live waiter's result), or removed by another holder first.
  }
}

/** For the lock's holder: leaves `result` in the waiter's inbox and ends the claim. */
export function deliverResult(
  lockPath: string,
  queued: Pick<QueuedOperation, 'name' | 'owner'>,
  result: unknown,
): void {
  const resultsPath = resultsDirectory(lockPath);
  const { name } = queued;
  // Written beside the inboxes and renamed into one, so the waiter is woken once, by the whole result.
  const temp = join(resultsPath, `${name}.${process.pid}.${nextSuffix()}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeSync(fd, JSON.stringify({ result }));
  } finally {
    closeSync(fd);
  }
  const inboxPath = join(resultsPath, inboxName(queued.owner));
  try {
    renameSync(temp, join(inboxPath, `${name}.result`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // The inbox was cleared as stale meanwhile: make it again.
    ensurePlainDirectory(inboxPath, 'lock results inbox');
    renameSync(temp, join(inboxPath, `${name}.result`));
  }
  removeIfPresent(join(resultsPath, `${name}.claimed`));
}

/** For the lock's holder: ends a claim without a result (its waiter is gone). */
export function dropClaim(lockPath: string, name: string): void {
  removeIfPresent(join(resultsDirectory(lockPath), `${name}.claimed`));
}

// --- Parked admissions -------------------------------------------------------------------------------
//
// An admission told to wait for a free slot leaves its operation parked in the queue (`p-<ticket>`,
// not in line for the lock) while it waits. A holder that frees a slot of that scope applies the
// parked admission in the same write and leaves the grant in the waiter's inbox, so the slot passes to
// the next waiter with one durable write instead of two.

/** Names of parked admissions start with this; they sort after every ticket in line. */
export const PARKED_PREFIX = 'p-';

/** A parked operation as its own process keeps it. */
export interface ParkedTicket {
  name: string;
  inboxPath: string;
  resultName: string;
}

/** Parks `operation` in the queue of `lockPath` until a holder applies it or its waiter withdraws it. */
export function parkOperation(lockPath: string, operation: unknown): ParkedTicket {
  const owner = currentOwner();
  const queuePath = queueDirectory(lockPath);
  const inboxPath = join(resultsDirectory(lockPath), inboxName(owner));
  ensurePlainDirectory(queuePath, 'lock queue');
  ensurePlainDirectory(resultsDirectory(lockPath), 'lock results directory');
  ensurePlainDirectory(inboxPath, 'lock results inbox');
  const record = JSON.stringify({ ...owner, operation });
  for (;;) {
    const name = `${PARKED_PREFIX}${ticketName()}`;
    if (createExclusive(join(queuePath, name), record, recordTemp(lockPath)).taken) {
      return { name, inboxPath, resultName: `${name}.result` };
    }
  }
}

/**
 * Ends a parked operation: its result when a holder applied it; `withdrawn` when it was still parked
 * (now removed, never to be applied); `claimed` when a holder is applying it right now (its result
 * follows shortly, see {@link awaitParkedResult}).
 */
export function unparkOperation(
  lockPath: string,
  ticket: ParkedTicket,
): { state: 'result'; result: unknown } | { state: 'withdrawn' } | { state: 'claimed' } {
  const taken = takeResult(join(ticket.inboxPath, ticket.resultName));
  if (taken !== undefined) return { state: 'result', result: taken.result };
  if (removeIfPresent(join(queueDirectory(lockPath), ticket.name))) return { state: 'withdrawn' };
  const late = takeResult(join(ticket.inboxPath, ticket.resultName));
  if (late !== undefined) return { state: 'result', result: late.result };
  return { state: 'claimed' };
}

/**
 * Waits for the result of a claimed parked operation. A holder hands it out before it lets the lock
 * go; should it die first, this process takes the lock itself and `recover` (run while holding it)
 * hands out or applies what the dead holder claimed. `undefined` when it never came.
 */
export async function awaitParkedResult(
  lockPath: string,
  ticket: ParkedTicket,
  recover: () => void,
  clock: Clock = systemClock,
): Promise<unknown> {
  const claimedPath = join(resultsDirectory(lockPath), `${ticket.name}.claimed`);
  const resultPath = join(ticket.inboxPath, ticket.resultName);
  return (await awaitClaimedResult(lockPath, claimedPath, resultPath, recover, clock))?.result;
}

/**
 * Waits for the result a holder leaves at `resultPath` for the operation it claimed (`claimedPath`).
 * A holder hands it out before it lets the lock go; should it die first, this process takes the lock
 * itself and runs `recover`. `undefined` when the claim is gone and no result came.
 */
async function awaitClaimedResult(
  lockPath: string,
  claimedPath: string,
  resultPath: string,
  recover: () => void,
  clock: Clock,
): Promise<{ result: unknown } | undefined> {
  const started = clock.now();
  let pause = LOCK_RETRY_MIN_MS;
  for (;;) {
    const taken = takeResult(resultPath);
    if (taken !== undefined) return taken;
    if (lstatSync(claimedPath, { throwIfNoEntry: false }) === undefined) return takeResult(resultPath);
    const holder = readRecord(lockPath);
    if (holder === undefined || isAbandoned(lockPath, holder)) {
      const lock = await acquireFileLock(lockPath, { clock, priority: true });
      try {
        recover();
      } finally {
        lock.release();
      }
      continue;
    }
    if (clock.now() - started > 2 * LOCK_WAIT_TIMEOUT_MS) throw lockTimeout();
    await sleepUntilWoken(
      pause,
      clock.sleep,
      undefined,
      () => new Error('not cancellable'),
      (wake) => watchEntry(dirname(resultPath), basename(resultPath), wake),
    );
    pause = Math.min(LOCK_RETRY_MAX_MS, pause * 2);
  }
}

/** For the lock's holder: the parked operations, oldest first; those of dead waiters are removed. */
export function parkedOperations(lockPath: string): QueuedOperation[] {
  const queuePath = queueDirectory(lockPath);
  let names: string[];
  try {
    names = readdirSync(queuePath).filter((name) => name.startsWith(PARKED_PREFIX));
  } catch {
    return [];
  }
  const parked: QueuedOperation[] = [];
  for (const name of names.sort()) {
    const path = join(queuePath, name);
    const record = readRecord(path);
    if (record === undefined) continue;
    const queued = parseQueued(name, record);
    if (queued === undefined || isAbandoned(path, record)) {
      removeIfPresent(path);
      continue;
    }
    parked.push(queued);
  }
  return parked;
}

/**
 * For the lock's holder: claims the queued or parked operation `name` (moves its ticket out of the
 * queue); false when its waiter withdrew it first.
 */
export function claimTicket(lockPath: string, name: string): boolean {
  try {
    renameSync(join(queueDirectory(lockPath), name), join(resultsDirectory(lockPath), `${name}.claimed`));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Whether the parked operation `name` is still parked (not withdrawn, not claimed). */
export function isParked(lockPath: string, name: string): boolean {
  return lstatSync(join(queueDirectory(lockPath), name), { throwIfNoEntry: false }) !== undefined;
}

/** For the lock's holder: ends a parked operation that its waiter's new admission decided. */
export function removeParked(lockPath: string, name: string): void {
  removeIfPresent(join(queueDirectory(lockPath), name));
}

/** The result a holder left for a parked operation, taken; `undefined` when there is none. */
export function takeParkedOperationResult(ticket: ParkedTicket): { result: unknown } | undefined {
  return takeResult(join(ticket.inboxPath, ticket.resultName));
}
