import { homedir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { isBucketExpired } from './admission-policy.js';
import type { BucketTable, LeaseOwner } from './bucket-state.js';
import { type Clock, cancelledError } from './clock.js';
import { sleepUntilEntryChanges } from './directory-watch.js';
import { acquireFileLock } from './file-lock.js';
import { currentOwner, isOwnerAlive } from './process-identity.js';
import {
  ensurePrivateDirectory,
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  readStateFile,
  refuseIrregularEntry,
  STATE_FILE_VERSION,
  serializeState,
  writeStateFile,
} from './state-file.js';
import {
  type BucketTableStore,
  createPolicyStore,
  type StoreContext,
  type TableBackedStore,
} from './table-store.js';
import { createWaitingLine } from './waiting-line.js';

/** The state file's name inside the state directory. */
export const STATE_FILE_NAME = 'state.json';
/** The first pause of a host-mode waiter polling the state file. */
export const HOST_POLL_MIN_MS = 2;
/**
 * The longest pause of a host-mode waiter polling the state file. Waiters are also woken by a file
 * watch on the state directory when the platform offers one, so polling is only the fallback.
 */
export const HOST_POLL_MAX_MS = 100;
/** The lead of a spaced start slot before this process has timed any commit of its own. */
export const HOST_INITIAL_COMMIT_MARGIN_MS = 25;
/** The shortest lead of a spaced start slot in host mode. */
export const HOST_MIN_COMMIT_MARGIN_MS = 5;
/** The longest lead of a spaced start slot: past it, a slow commit is absorbed by the next slot instead. */
export const HOST_MAX_COMMIT_MARGIN_MS = 100;
/** How many recent commits the lead is estimated from. */
const COMMIT_SAMPLES = 16;

/** The default state directory: `~/.mono-agent/web-control`. */
export function defaultStateDirectory(): string {
  return join(homedir(), '.mono-agent', 'web-control');
}

/** Options of {@link createHostStateStore}. */
export interface HostStateStoreOptions {
  /** The private directory holding `state.json` (default `~/.mono-agent/web-control`). */
  stateDirectory?: string;
  /** The time source. */
  clock: Clock;
}

function capacityError(message: string, details: Record<string, unknown>): WebToolError {
  return new WebToolError({ code: 'capacity_exceeded', message, details });
}

function evictExpired(buckets: BucketTable, now: number, keep: string | undefined): number {
  let evicted = 0;
  for (const [key, bucket] of Object.entries(buckets)) {
    if (key !== keep && isBucketExpired(bucket, now)) {
      delete buckets[key];
      evicted += 1;
    }
  }
  return evicted;
}

/**
 * The `host`-mode store: one owner-private JSON file shared by every opted-in process of this OS user,
 * changed under an O_EXCL lock and replaced atomically. File I/O inside the lock is synchronous on
 * purpose: it keeps the lock held for the shortest time, which is what bounds everyone's waiting.
 */
export function createHostStateStore(options: HostStateStoreOptions): TableBackedStore {
  return createPolicyStore(createHostStateTable(options));
}

function createHostStateTable(options: HostStateStoreOptions): BucketTableStore {
  const { clock } = options;
  const directory = options.stateDirectory ?? defaultStateDirectory();
  const statePath = join(directory, STATE_FILE_NAME);
  const lockPath = `${statePath}.lock`;
  // Another process replacing the state file (a rename into the directory) ends the first waiter's wait.
  const line = createWaitingLine(
    `${statePath}.waiters`,
    clock,
    (ms, signal) =>
      sleepUntilEntryChanges(directory, STATE_FILE_NAME, ms, clock.sleep, signal, () =>
        cancelledError(signal),
      ),
    HOST_POLL_MAX_MS,
  );
  // Milliseconds from the decision to the end of its commit, for the last few commits of this process.
  const commitSamples: number[] = [];
  const recordCommit = (decidedAt: number) => {
    commitSamples.push(clock.now() - decidedAt);
    if (commitSamples.length > COMMIT_SAMPLES) commitSamples.shift();
  };

  const context = (): StoreContext => {
    // One verdict per owner per transaction: a lease list may name the same process many times.
    const verdicts = new Map<string, boolean>();
    return {
      now: clock.now(),
      owner: currentOwner(),
      isOwnerAlive(owner: LeaseOwner) {
        const key = `${owner.host}\n${owner.pid}\n${owner.incarnation}`;
        let alive = verdicts.get(key);
        if (alive === undefined) {
          alive = isOwnerAlive(owner);
          verdicts.set(key, alive);
        }
        return alive;
      },
    };
  };

  function persist(buckets: BucketTable, previousText: string, now: number, keep: string | undefined): void {
    if (Object.keys(buckets).length > MAX_STATE_BUCKETS) evictExpired(buckets, now, keep);
    if (Object.keys(buckets).length > MAX_STATE_BUCKETS) {
      throw capacityError(
        `host state already holds ${MAX_STATE_BUCKETS} active scopes; a new scope is refused`,
        {
          limit: MAX_STATE_BUCKETS,
        },
      );
    }
    let text = serializeState({ version: STATE_FILE_VERSION, buckets });
    if (Buffer.byteLength(text) > MAX_STATE_BYTES && evictExpired(buckets, now, keep) > 0) {
      text = serializeState({ version: STATE_FILE_VERSION, buckets });
    }
    if (Buffer.byteLength(text) > MAX_STATE_BYTES) {
      throw capacityError(`host state would exceed ${MAX_STATE_BYTES} bytes; the change is refused`, {
        limit: MAX_STATE_BYTES,
      });
    }
    if (text !== previousText) writeStateFile(directory, statePath, text);
  }

  async function locked<T>(signal: AbortSignal | undefined, body: () => T, priority = false): Promise<T> {
    ensurePrivateDirectory(directory);
    const lock = await acquireFileLock(
      lockPath,
      signal === undefined ? { clock, priority } : { signal, clock, priority },
    );
    try {
      return body();
    } finally {
      lock.release();
    }
  }

  return {
    commitMarginMs() {
      if (commitSamples.length === 0) return HOST_INITIAL_COMMIT_MARGIN_MS;
      // The slowest recent commit plus half again: a slot is missed only by a commit slower than that.
      const slowest = Math.max(...commitSamples);
      return Math.min(
        HOST_MAX_COMMIT_MARGIN_MS,
        Math.max(HOST_MIN_COMMIT_MARGIN_MS, Math.ceil(slowest * 1.5) + 1),
      );
    },
    now: () => clock.now(),
    close: async () => {
      line.leaveAll();
    },
    describe: () => ({
      mode: 'host',
      stateFile: statePath,
      maxBuckets: MAX_STATE_BUCKETS,
      maxBytes: MAX_STATE_BYTES,
    }),
    update(key, change, operation = {}) {
      return locked(
        operation.signal,
        () => {
          const { content, text } = readStateFile(statePath);
          const current = context();
          const { bucket, result } = change(content.buckets[key], current);
          const buckets = content.buckets;
          if (bucket === undefined) delete buckets[key];
          else buckets[key] = bucket;
          persist(buckets, text, current.now, key);
          recordCommit(current.now);
          return result;
        },
        operation.priority,
      );
    },
    updateAll(change, operation = {}) {
      return locked(operation.signal, () => {
        const { content, text } = readStateFile(statePath);
        const current = context();
        const { buckets, result } = change(content.buckets, current);
        if (buckets !== undefined) persist(buckets, text, current.now, undefined);
        return result;
      });
    },
    async read() {
      ensurePrivateDirectory(directory);
      // Status takes no lock, so it checks the lock path itself: a FIFO there blocks every writer.
      refuseIrregularEntry(lockPath, 'lock_not_a_file', 'lock path');
      // Writers replace the file by rename, so an unlocked read always sees one whole version.
      const { content, bytes } = readStateFile(statePath);
      return { buckets: content.buckets, bytes, context: context() };
    },
    waitForChange(key, { maxMs, attempt, signal }) {
      const poll = Math.min(HOST_POLL_MAX_MS, HOST_POLL_MIN_MS * 2 ** Math.min(attempt, 16));
      const ms = maxMs === undefined ? poll : Math.min(maxMs, poll);
      return line.wait(key, ms, maxMs ?? HOST_POLL_MAX_MS, signal);
    },
    stopWaiting(key) {
      line.leave(key);
    },
  };
}
