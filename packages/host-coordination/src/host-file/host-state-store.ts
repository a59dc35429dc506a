import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Clock, cancelledError } from '../clock.js';
import {
  type BucketTableStore,
  createPolicyStore,
  type TableBackedStore,
  type TableOperation,
  type TableUpdateOptions,
} from '../table-store.js';
import { createCommitTimer } from './commit-timer.js';
import { sleepUntilEntryChanges } from './directory-watch.js';
import { acquireFileLock } from './file-lock.js';
import {
  commitState,
  type HostCommitter,
  type HostStateFile,
  recoverClaims,
  submitOperation,
  transactionContext,
  unpackResult,
} from './host-commit.js';
import { putBucket } from './host-table.js';
import { createParkedAdmissions } from './parked-admissions.js';
import {
  ensurePrivateDirectory,
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  readStateFile,
  refuseIrregularEntry,
} from './state-file.js';
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
  const file: HostStateFile = { directory, statePath, lockPath };
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
  const committer: HostCommitter = { file, clock, commits: createCommitTimer(clock) };
  const submit = (key: string, operation: TableOperation, options: TableUpdateOptions, parkedName?: string) =>
    submitOperation(committer, key, operation, options, parkedName);
  const parked = createParkedAdmissions({
    lockPath,
    clock,
    maxWaitMs: HOST_POLL_MAX_MS,
    recover: () => recoverClaims(committer),
    // Not a commit sample: a parked grant waits for its waiter to come for it, which says nothing of
    // how long committing takes.
    answer: (result) => unpackResult(committer, result, false),
    release: (key, release) => submit(key, { type: 'release', release }, { priority: true }),
  });

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
    commitMarginMs: () => committer.commits.marginMs(),
    now: () => clock.now(),
    close: async () => {
      line.leaveAll();
      await parked.close();
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
          const current = transactionContext(clock.now());
          const { bucket, result } = change(content.buckets[key], current);
          putBucket(content.buckets, key, bucket);
          commitState(file, content, text, current.now, new Set([key]));
          committer.commits.record(current.now);
          return result;
        },
        operation.priority,
      );
    },
    async apply(key, operation, options = {}) {
      ensurePrivateDirectory(directory);
      if (operation.type === 'admit') {
        const answer = await parked.readmit(key, (parkedName) => submit(key, operation, options, parkedName));
        if (answer !== undefined) return answer;
      }
      const result = await submit(key, operation, options);
      if (result === 'superseded') throw new Error('an admission without a parked ticket was superseded');
      if (
        operation.type === 'admit' &&
        result.type === 'admit' &&
        result.decision.type === 'wait' &&
        result.decision.reason === 'slot'
      ) {
        parked.park(key, operation);
      }
      return result;
    },
    updateAll(change, operation = {}) {
      return locked(operation.signal, () => {
        const { content, text } = readStateFile(statePath);
        const current = transactionContext(clock.now());
        const { buckets, result } = change(content.buckets, current);
        if (buckets !== undefined) commitState(file, { ...content, buckets }, text, current.now, new Set());
        return result;
      });
    },
    async read() {
      ensurePrivateDirectory(directory);
      // Status takes no lock, so it checks the lock path itself: a FIFO there blocks every writer.
      refuseIrregularEntry(lockPath, 'lock_not_a_file', 'lock path');
      // Writers replace the file by rename, so an unlocked read always sees one whole version.
      const { content, bytes } = readStateFile(statePath);
      return { buckets: content.buckets, bytes, context: transactionContext(clock.now()) };
    },
    async waitForChange(key, { maxMs, attempt, signal }) {
      // Parked: the release that frees a slot grants the admission itself (see the parked admissions).
      if (parked.has(key)) return parked.waitForGrant(key, maxMs, signal);
      const poll = Math.min(HOST_POLL_MAX_MS, HOST_POLL_MIN_MS * 2 ** Math.min(attempt, 16));
      const ms = maxMs === undefined ? poll : Math.min(maxMs, poll);
      return line.wait(key, ms, maxMs ?? HOST_POLL_MAX_MS, signal);
    },
    stopWaiting(key) {
      line.leave(key);
      parked.windUp(key);
    },
  };
}
