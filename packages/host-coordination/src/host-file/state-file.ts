import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import type { BucketTable } from '../bucket-state.js';

/** The most bytes the host state file may hold. */
export const MAX_STATE_BYTES = 256 * 1024;
/** The most buckets (scopes) the host state file may hold. */
export const MAX_STATE_BUCKETS = 512;
/** The most leases one bucket may hold: the largest concurrency a scope may ask for. */
export const MAX_LEASES_PER_BUCKET = 64;
/** The state file format this code reads and writes. */
export const STATE_FILE_VERSION = 1;

/** The most results of combined operations one state keeps: one batch's. */
export const MAX_APPLIED_RESULTS = 64;

/** The parsed state file. */
export interface StateFileContent {
  /** Always {@link STATE_FILE_VERSION}. */
  version: typeof STATE_FILE_VERSION;
  /** Buckets by SHA-256 of the scope name. */
  buckets: BucketTable;
  /**
   * The results of other processes' operations committed by the last combined write, by ticket name:
   * should its writer die before handing them out, the next lock holder hands them out from here
   * instead of applying the operations twice. Lease ids, slot times and outcomes only.
   */
  applied?: Record<string, unknown>;
}

/** Why the state was refused; each value names one problem for `details.problem`. */
export type StateProblem =
  | 'directory_symlink'
  | 'not_a_directory'
  | 'directory_owner'
  | 'directory_permissions'
  | 'file_symlink'
  | 'not_a_file'
  | 'lock_not_a_file'
  | 'file_owner'
  | 'file_permissions'
  | 'file_too_large'
  | 'corrupt_json'
  | 'invalid_state';

/** A `state_unsafe` error naming the problem; the state is never repaired automatically. */
export function unsafeState(problem: StateProblem, path: string, explanation: string, cause?: unknown) {
  return new WebToolError({
    code: 'state_unsafe',
    message: `host state ${problem.replaceAll('_', ' ')}: ${explanation} (${path}); stop opted-in processes and inspect it`,
    details: { problem, path },
    cause,
  });
}

const GROUP_OR_OTHER_BITS = 0o077;

function checkOwnerAndMode(stats: Stats, path: string, what: 'directory' | 'file'): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw unsafeState(`${what}_owner`, path, `owned by uid ${stats.uid}, not by this user (${uid})`);
  }
  if ((stats.mode & GROUP_OR_OTHER_BITS) !== 0) {
    const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
    const wanted = what === 'directory' ? '0700' : '0600';
    throw unsafeState(`${what}_permissions`, path, `mode ${mode} lets others in; expected ${wanted}`);
  }
}

/** Creates the private directory (0700) when missing, then checks it is a real, private, owned directory. */
export function ensurePrivateDirectory(directory: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    stats = lstatSync(directory);
  }
  if (stats.isSymbolicLink())
    throw unsafeState('directory_symlink', directory, 'the directory is a symbolic link');
  if (!stats.isDirectory()) throw unsafeState('not_a_directory', directory, 'the path is not a directory');
  checkOwnerAndMode(stats, directory, 'directory');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const HASHED_KEY = /^[0-9a-f]{64}$/;
const LEASE_ID = /^[0-9a-f-]{36}$/;
const MAX_OWNER_TEXT = 256;
/** A lock queue ticket's name: optional priority or parked mark, arrival in microseconds, PID, random. */
const TICKET_NAME = /^(0-|p-)?[0-9]{17}-[0-9]{1,10}-[0-9a-f]{8}$/;

function leaseProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a lease is not an object';
  const owner = value['owner'];
  if (typeof value['id'] !== 'string' || !LEASE_ID.test(value['id'])) return 'a lease id is malformed';
  if (!isRecord(owner)) return 'a lease has no owner';
  if (!Number.isSafeInteger(owner['pid']) || (owner['pid'] as number) < 1) return 'a lease pid is malformed';
  for (const field of ['host', 'incarnation'] as const) {
    const text = owner[field];
    if (typeof text !== 'string' || text.length === 0 || text.length > MAX_OWNER_TEXT) {
      return `a lease ${field} is malformed`;
    }
  }
  if (!isTime(value['acquiredAt']) || !isTime(value['expiresAt'])) return 'a lease time is malformed';
  if (typeof value['probe'] !== 'boolean') return 'a lease probe flag is malformed';
  return undefined;
}

function bucketProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a bucket is not an object';
  if (value['kind'] !== 'search' && value['kind'] !== 'fetch') return 'a bucket kind is unknown';
  for (const field of [
    'spacingMs',
    'lastStartAt',
    'cooldownUntil',
    'throttleStreak',
    'failureStreak',
    'admissions',
    'updatedAt',
  ]) {
    if (!isTime(value[field])) return `a bucket ${field} is malformed`;
  }
  const cause = value['cooldownCause'];
  if (cause !== undefined && cause !== 'throttled' && cause !== 'infrastructure_failure')
    return 'a bucket cooldownCause is unknown';
  const leases = value['leases'];
  if (!Array.isArray(leases) || leases.length > MAX_LEASES_PER_BUCKET)
    return 'a bucket lease list is malformed';
  for (const lease of leases) {
    const problem = leaseProblem(lease);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** What kind of file system entry a non-regular path is, in words for an operator. */
export function entryKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * Refuses `path` when it exists and is anything but a regular file, before anything opens it: opening
 * a FIFO blocks the whole process (synchronously, so no deadline fires) and opening a device may act on
 * it. `problem` names what the refusal is about. A missing path passes.
 */
export function refuseIrregularEntry(
  path: string,
  problem: 'not_a_file' | 'lock_not_a_file',
  what: string,
): void {
  // No exception for a missing path: waiters ask this of files that come and go many times a second.
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined || stats.isFile()) return;
  if (stats.isSymbolicLink() && problem === 'not_a_file') {
    throw unsafeState('file_symlink', path, 'the state file is a symbolic link');
  }
  throw unsafeState(problem, path, `the ${what} is ${entryKind(stats)}, not a regular file`);
}

/** Checks parsed JSON against the state format; returns a description of the first problem found. */
export function stateProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the top level is not an object';
  if (value['version'] !== STATE_FILE_VERSION) return `the version is not ${STATE_FILE_VERSION}`;
  const buckets = value['buckets'];
  if (!isRecord(buckets)) return 'buckets is not an object';
  const keys = Object.keys(buckets);
  if (keys.length > MAX_STATE_BUCKETS) return `more than ${MAX_STATE_BUCKETS} buckets`;
  for (const key of keys) {
    if (!HASHED_KEY.test(key)) return 'a bucket key is not a SHA-256 hash';
    const problem = bucketProblem(buckets[key]);
    if (problem !== undefined) return problem;
  }
  const applied = value['applied'];
  if (applied !== undefined) {
    if (!isRecord(applied)) return 'applied is not an object';
    const names = Object.keys(applied);
    if (names.length > MAX_APPLIED_RESULTS) return `more than ${MAX_APPLIED_RESULTS} applied results`;
    for (const name of names) {
      if (!TICKET_NAME.test(name)) return 'an applied result is not named by a queue ticket';
      if (!isRecord(applied[name])) return 'an applied result is not an object';
    }
  }
  return undefined;
}

/** A state with no buckets. */
export function emptyState(): StateFileContent {
  return { version: STATE_FILE_VERSION, buckets: {} };
}

/** The result of reading the state file. */
export interface StateRead {
  /** The validated content (empty when the file does not exist yet). */
  content: StateFileContent;
  /** The file's size, 0 when absent. */
  bytes: number;
  /** The exact text read, so an unchanged state is not written again. */
  text: string;
}

/**
 * Reads and validates the state file without following a symbolic link. A missing file is an empty
 * state; anything unsafe or unparseable throws `state_unsafe`.
 */
export function readStateFile(path: string): StateRead {
  refuseIrregularEntry(path, 'not_a_file', 'state path');
  let fd: number;
  try {
    // O_NONBLOCK: should a FIFO be swapped in after the check above, the open still returns at once.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { content: emptyState(), bytes: 0, text: '' };
    if (code === 'ELOOP') throw unsafeState('file_symlink', path, 'the state file is a symbolic link', error);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw unsafeState('not_a_file', path, `the state path is ${entryKind(stats)}, not a regular file`);
    }
    checkOwnerAndMode(stats, path, 'file');
    if (stats.size > MAX_STATE_BYTES) {
      throw unsafeState(
        'file_too_large',
        path,
        `${stats.size} bytes is over the ${MAX_STATE_BYTES}-byte cap`,
      );
    }
    // Sized to the file, one byte more to see it end (zero-filling a buffer of the whole cap cost
    // more than the rest of the read). A file that grew after fstat grows the buffer, up to one byte
    // past the cap, which detects a file over it.
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(MAX_STATE_BYTES + 1, buffer.length * 2));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_STATE_BYTES) {
        throw unsafeState('file_too_large', path, `more than ${MAX_STATE_BYTES} bytes`);
      }
    }
    const text = buffer.toString('utf8', 0, length);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw unsafeState('corrupt_json', path, 'the state file is not valid JSON', error);
    }
    const problem = stateProblem(parsed);
    if (problem !== undefined) throw unsafeState('invalid_state', path, problem);
    return { content: parsed as StateFileContent, bytes: length, text };
  } finally {
    closeSync(fd);
  }
}

/** Serializes a state; bucket order is kept so equal states give equal text. */
export function serializeState(content: StateFileContent): string {
  return JSON.stringify(content);
}

/** Temp files are named `<state>.<pid>.<random>.tmp`, so a breaker can remove a dead writer's leftovers. */
export function tempFileName(statePath: string, pid: number): string {
  // randomUUID draws on a pooled buffer; per-call randomBytes costs more on this hot path.
  const random = process.getBuiltinModule('node:crypto').randomUUID().replaceAll('-', '').slice(0, 12);
  return `${statePath}.${pid}.${random}.tmp`;
}

/**
 * Replaces the state file atomically: a new 0600 temp file, fsync, rename over the target, fsync the
 * directory. A crash at any point leaves either the old or the new complete file.
 */
export function writeStateFile(directory: string, path: string, text: string): void {
  const temp = tempFileName(path, process.pid);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  const directoryFd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(directoryFd);
  } finally {
    closeSync(directoryFd);
  }
}
