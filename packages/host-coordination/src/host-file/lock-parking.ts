// Parked admissions.
//
// An admission told to wait for a free slot leaves its operation parked in the queue (`p-<ticket>`,
// not in line for the lock) while it waits. A holder that frees a slot of that scope applies the
// parked admission in the same write and leaves the grant in the waiter's inbox, so the slot passes to
// the next waiter with one durable write instead of two.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Clock, systemClock } from '../clock.js';
import { currentOwner } from '../process-identity.js';
import {
  ensurePlainDirectory,
  inboxName,
  PARKED_PREFIX,
  queueDirectory,
  resultsDirectory,
  ticketName,
} from './lock-layout.js';
import {
  createExclusive,
  isAbandoned,
  parseQueued,
  type QueuedOperation,
  readRecord,
  recordTemp,
  removeIfPresent,
} from './lock-record.js';
import { awaitClaimedResult, takeResult } from './queued-operations.js';

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
