// Operations queued behind the lock.
//
// A waiter may put what it wants done (an admission, a release: plain data) into its ticket. Whoever
// holds the lock then claims the queued operations (each ticket is renamed into `<lock>.results` as
// `<ticket>.claimed`, so a waiter that gives up and a holder that claims can never both win), applies
// them together with its own, commits them in one write, and leaves each waiter its result there as
// `<ticket>.result`. Under contention this turns one durable write per operation into one per batch.
// A holder that dies after claiming leaves `.claimed` files behind; the next holder finds them and
// either hands out the results its predecessor committed or applies them itself (see the host store).
import {
  closeSync,
  constants,
  type Dirent,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Clock, cancelledError, systemClock } from '../clock.js';
import { currentOwner, isPidRunning } from '../process-identity.js';
import { sleepUntilWoken, watchEntry } from './directory-watch.js';
import {
  acquireFileLock,
  enterQueue,
  type HeldLock,
  heldLock,
  LOCK_RETRY_MAX_MS,
  LOCK_RETRY_MIN_MS,
  LOCK_WAIT_TIMEOUT_MS,
  type LockOptions,
  linkTicketAsLock,
  lockTimeout,
  queuePlace,
  TICKET_STALE_MS,
} from './file-lock.js';
import {
  ensurePlainDirectory,
  inboxName,
  nextSuffix,
  PARKED_PREFIX,
  queueDirectory,
  resultsDirectory,
} from './lock-layout.js';
import {
  ageMs,
  breakAbandonedLock,
  isAbandoned,
  parseQueued,
  type QueuedOperation,
  readRecord,
  removeIfPresent,
} from './lock-record.js';
import { unsafeState } from './state-file.js';

/** The most operations one holder commits together: its own and those it claims. */
export const MAX_COMBINED_OPERATIONS = 64;

/** An inbox untouched this long is removed once empty; results left in it are older than any wait. */
const INBOX_STALE_MS = 3 * TICKET_STALE_MS;
/** How often a holder clears what gone waiters left in the results directory. */
const LEFTOVER_SWEEP_MS = 5_000;
let lastSweep = Number.NEGATIVE_INFINITY;

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

/** Takes a delivered result: its value, or `undefined` when none is there yet. */
export function takeResult(resultPath: string): { result: unknown } | undefined {
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

/** A waiter's files: its ticket in the queue, and where its result and its wake-up arrive. */
interface Waiter {
  lockPath: string;
  queuePath: string;
  ticket: string;
  ticketPath: string;
  inboxPath: string;
  resultName: string;
  resultPath: string;
  wakeName: string;
  wakePath: string;
  claimedPath: string;
  /** The waiter's own lock record, for breaking an abandoned lock. */
  ownRecord: string;
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
  const waiter = queueOperation(lockPath, operation, priority);
  const started = clock.now();
  let pause = LOCK_RETRY_MIN_MS;
  try {
    for (;;) {
      const delivered = takeResult(waiter.resultPath);
      if (delivered !== undefined) return { kind: 'delivered', result: delivered.result };
      removeWake(waiter);
      // Claimed by a holder (the wait cannot be cancelled any more: the caller undoes the result).
      if (!isPresent(waiter.ticketPath)) return await awaitOwnClaim(waiter, recover, clock);
      const giveUp = signal?.aborted ? cancelledError(signal) : undefined;
      const late = clock.now() - started > LOCK_WAIT_TIMEOUT_MS;
      // A ticket this process removes was not claimed: the operation is withdrawn, never applied.
      if (giveUp !== undefined || late) {
        if (removeIfPresent(waiter.ticketPath)) throw giveUp ?? lockTimeout();
        continue;
      }
      const turn = tryTakeLock(waiter);
      if (turn === 'again') continue;
      if (turn !== 'wait') return turn;
      await sleepUntilAnswered(waiter, pause * (0.5 + Math.random()), clock, signal);
      pause = Math.min(LOCK_RETRY_MAX_MS, pause * 2);
    }
  } catch (error) {
    removeIfPresent(waiter.ticketPath);
    throw error;
  } finally {
    removeWake(waiter);
  }
}

/** Queues `operation` behind the lock at `lockPath`, making the queue and the inbox as needed. */
function queueOperation(lockPath: string, operation: unknown, priority: boolean): Waiter {
  const owner = currentOwner();
  const ownRecord = JSON.stringify(owner);
  const queuePath = queueDirectory(lockPath);
  const resultsPath = resultsDirectory(lockPath);
  ensurePlainDirectory(queuePath, 'lock queue');
  ensurePlainDirectory(resultsPath, 'lock results directory');
  const inboxPath = join(resultsPath, inboxName(owner));
  ensurePlainDirectory(inboxPath, 'lock results inbox');
  const ticket = enterQueue(queuePath, lockPath, JSON.stringify({ ...owner, operation }), priority);
  const resultName = `${ticket}.result`;
  const wakeName = `${ticket}.wake`;
  return {
    lockPath,
    queuePath,
    ticket,
    ticketPath: join(queuePath, ticket),
    inboxPath,
    resultName,
    resultPath: join(inboxPath, resultName),
    wakeName,
    wakePath: join(inboxPath, wakeName),
    claimedPath: join(resultsPath, `${ticket}.claimed`),
    ownRecord,
  };
}

/** Whether an entry is at `path`; finding none throws nothing. */
function isPresent(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Removes the wake file a release left for this waiter, when there is one. */
function removeWake(waiter: Waiter): void {
  if (isPresent(waiter.wakePath)) removeIfPresent(waiter.wakePath);
}

/**
 * Waits for the result of this waiter's operation, which a holder claimed: delivered, or a timeout
 * when neither the claim nor a result is there.
 */
async function awaitOwnClaim(waiter: Waiter, recover: () => void, clock: Clock): Promise<Submission> {
  const answer = await awaitClaimedResult(
    waiter.lockPath,
    waiter.claimedPath,
    waiter.resultPath,
    recover,
    clock,
  );
  if (answer !== undefined) return { kind: 'delivered', result: answer.result };
  // Neither queued, claimed nor answered: the ticket was judged stale and removed unapplied.
  throw lockTimeout();
}

/**
 * Tries the lock when the waiter's ticket heads the queue: `holder` when taken, `again` when the
 * waiter should look again at once, `wait` when it should wait for a release or its result first.
 */
function tryTakeLock(waiter: Waiter): Submission | 'again' | 'wait' {
  if (queuePlace(waiter.queuePath, waiter.ticket).head !== waiter.ticket) return 'wait';
  const attempt = linkTicketAsLock(waiter.ticketPath, waiter.lockPath);
  // Claimed by the holder just before: its result follows (or it died with it claimed).
  if (attempt === 'gone') return 'again';
  if (attempt.taken) {
    // Nobody claims while this process holds the lock, so the ticket is still there to remove.
    removeIfPresent(waiter.ticketPath);
    return { kind: 'holder', lock: heldLock(waiter.lockPath), name: waiter.ticket };
  }
  if (attempt.holder !== undefined && isAbandoned(waiter.lockPath, attempt.holder)) {
    breakAbandonedLock(waiter.lockPath, attempt.holder, waiter.ownRecord);
    return 'again';
  }
  return 'wait';
}

/**
 * Sleeps up to `ms`, woken by the result, or by a release that leaves this ticket first in line; the
 * pause bounds the wait where neither comes (a holder that died, a file system without change
 * notification).
 */
function sleepUntilAnswered(
  waiter: Waiter,
  ms: number,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<void> {
  return sleepUntilWoken(
    ms,
    clock.sleep,
    undefined,
    () => cancelledError(signal),
    (wake) => {
      const result = watchEntry(waiter.inboxPath, waiter.resultName, wake);
      const woken = watchEntry(waiter.inboxPath, waiter.wakeName, wake);
      return () => {
        result();
        woken();
      };
    },
  );
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

/**
 * Waits for the result a holder leaves at `resultPath` for the operation it claimed (`claimedPath`).
 * A holder hands it out before it lets the lock go; should it die first, this process takes the lock
 * itself and runs `recover`. `undefined` when the claim is gone and no result came.
 */
export async function awaitClaimedResult(
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
    if (!isPresent(claimedPath)) return takeResult(resultPath);
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
