// Where the files of a lock live and how they are named: waiters' tickets in `<lock>.queue` (parked
// admissions among them, set apart by their prefix), claimed operations and their results in
// `<lock>.results`, with one inbox per waiting process.
import { lstatSync, mkdirSync } from 'node:fs';
import type { LeaseOwner } from '../bucket-state.js';
import { unsafeState } from './state-file.js';

/** Where waiters' tickets line up: `<lock>.queue`. */
export function queueDirectory(lockPath: string): string {
  return `${lockPath}.queue`;
}

/** Where claimed operations wait: `<lock>.results`. */
export function resultsDirectory(lockPath: string): string {
  return `${lockPath}.results`;
}

/**
 * The folder inside the results directory where one process receives its results (`to-<pid>-<hash of
 * the owner>`). Each process watches only its own, so handing out a batch wakes just the processes it
 * answers.
 */
export function inboxName(owner: LeaseOwner): string {
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

/** Names of parked admissions start with this; they sort after every ticket in line. */
export const PARKED_PREFIX = 'p-';

let suffixCounter = -1;

/**
 * Eight hex digits that differ for every call in this process: with the microseconds and the PID in
 * the same name, that makes names unique without asking for random bytes each time (which cost more
 * than the rest of a queue ticket under contention).
 */
export function nextSuffix(): string {
  if (suffixCounter < 0)
    suffixCounter = process.getBuiltinModule('node:crypto').randomBytes(4).readUInt32BE(0);
  suffixCounter = (suffixCounter + 1) % 0x1_0000_0000;
  return suffixCounter.toString(16).padStart(8, '0');
}

/** A ticket's name: when it arrived, which process made it, and a suffix that keeps it unique. */
export function ticketName(): string {
  // Microseconds since the epoch, zero-padded, so names sort in arrival order across processes.
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1_000);
  return `${String(micros).padStart(17, '0')}-${process.pid}-${nextSuffix()}`;
}

/** Makes the directory at `path` (owner-only) unless it exists; refuses one that is not a plain directory. */
export function ensurePlainDirectory(path: string, what: string): void {
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
