import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { LeaseOwner } from './bucket-state.js';

/** Field 22 of /proc/<pid>/stat (start time in clock ticks), counted after the command name. */
const STAT_STARTTIME_INDEX_AFTER_COMMAND = 19;

let bootIdCache: string | undefined;

function bootId(): string {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      // Without /proc (macOS, BSD) the start time below already carries the date.
      bootIdCache = 'no-boot-id';
    }
  }
  return bootIdCache;
}

/**
 * The incarnation of a running process: boot id plus its start time, or `undefined` when no such process
 * runs. A reused PID gets a different start time, so it never matches an old lease.
 */
export function readIncarnation(pid: number): string | undefined {
  if (process.platform === 'linux') {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // The command name may hold spaces and parentheses; fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[STAT_STARTTIME_INDEX_AFTER_COMMAND];
    return start === undefined ? undefined : `${bootId()}:${start}`;
  }
  try {
    const started = process
      .getBuiltinModule('node:child_process')
      .execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      .trim();
    return started === '' ? undefined : `ps:${started}`;
  } catch {
    return undefined;
  }
}

let ownerCache: LeaseOwner | undefined;

/** This process as a lease owner. */
export function currentOwner(): LeaseOwner {
  if (ownerCache === undefined || ownerCache.pid !== process.pid) {
    ownerCache = {
      pid: process.pid,
      host: hostname(),
      incarnation: readIncarnation(process.pid) ?? `unknown:${process.pid}`,
    };
  }
  return ownerCache;
}

/**
 * Whether some process runs under `pid` on this host: only a PID proven free (ESRCH) is not; one of
 * another user (EPERM) is.
 */
export function isPidRunning(pid: number): boolean {
  // kill(0) and kill(-1) address process groups, never one process.
  if (!Number.isSafeInteger(pid) || pid < 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether `owner` still runs. An owner on another host cannot be judged and counts as alive (its lease
 * still expires). Otherwise it is dead when its PID is gone or now belongs to another incarnation.
 */
export function isOwnerAlive(owner: LeaseOwner): boolean {
  const self = currentOwner();
  if (owner.host !== self.host) return true;
  if (owner.pid === self.pid) return owner.incarnation === self.incarnation;
  if (!isPidRunning(owner.pid)) return false;
  const incarnation = readIncarnation(owner.pid);
  return incarnation !== undefined && incarnation === owner.incarnation;
}
