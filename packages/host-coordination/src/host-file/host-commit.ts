// Commits to the host state file, made while holding its lock: one caller's change, or a batch of the
// operations queued behind the lock, committed in one read and one durable write; and the submission
// of an operation to that queue.
import type { BucketTable, LeaseOwner } from '../bucket-state.js';
import type { Clock } from '../clock.js';
import { currentOwner, isOwnerAlive } from '../process-identity.js';
import type {
  StoreContext,
  TableOperation,
  TableOperationResult,
  TableUpdateOptions,
} from '../table-store.js';
import type { CommitTimer } from './commit-timer.js';
import {
  type CombinedResult,
  failureOf,
  type HostOperation,
  isCombinedResult,
  isHostOperation,
  openCombinedResult,
} from './host-operation.js';
import {
  applyToTable,
  freesSlot,
  keepsWaiting,
  serializeWithinLimits,
  wouldDecideNow,
} from './host-table.js';
import { resultsDirectory } from './lock-layout.js';
import { isParked, parkedOperations, removeParked } from './lock-parking.js';
import type { QueuedOperation } from './lock-record.js';
import {
  claimQueuedOperations,
  claimTicket,
  deliverResult,
  dropClaim,
  MAX_COMBINED_OPERATIONS,
  orphanedOperations,
  submitToLock,
} from './queued-operations.js';
import { readStateFile, type StateFileContent, writeStateFile } from './state-file.js';

/** Where one host store keeps its state. */
export interface HostStateFile {
  /** The private directory holding the state file. */
  directory: string;
  /** The state file. */
  statePath: string;
  /** The lock that serializes changes of the state file. */
  lockPath: string;
}

/** What one host store commits with. */
export interface HostCommitter {
  readonly file: HostStateFile;
  readonly clock: Clock;
  /** Times this process's commits. */
  readonly commits: CommitTimer;
}

/** The context of one transaction at `now`, run by this process. */
export function transactionContext(now: number): StoreContext {
  // One verdict per owner per transaction: a lease list may name the same process many times.
  const verdicts = new Map<string, boolean>();
  return {
    now,
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
}

/**
 * Writes `content` to the state file, within its limits (see {@link serializeWithinLimits}), unless
 * it is the text read at the start of the transaction, `previousText`.
 */
export function commitState(
  file: HostStateFile,
  content: StateFileContent,
  previousText: string,
  now: number,
  keep: ReadonlySet<string>,
): void {
  const text = serializeWithinLimits(content, now, keep);
  if (text !== previousText) writeStateFile(file.directory, file.statePath, text);
}

/** One batch of operations on its way to a commit. */
interface Batch {
  readonly lockPath: string;
  /** The table as read for this batch, changed in place. */
  readonly buckets: BucketTable;
  readonly context: StoreContext;
  /** Scopes changed in this batch: never evicted to make room. */
  readonly touched: Set<string>;
  /** Scopes a release of this batch freed a slot of: their parked admissions may be granted now. */
  readonly released: Set<string>;
  /** Results of other processes' operations applied in this batch, by ticket name. */
  readonly applied: Record<string, CombinedResult>;
  /** What to hand to which waiter once the batch is committed. */
  readonly handOut: Array<[QueuedOperation, CombinedResult]>;
}

/**
 * Runs, as the lock's holder, this process's operation together with every operation waiting behind
 * the lock (up to {@link MAX_COMBINED_OPERATIONS}), in one read and one durable write, then hands
 * each waiter its result. Operations a dead holder claimed come first: their committed results are
 * handed out again from the state, the others are applied now. Without an operation of its own
 * (`own` undefined) it recovers what a dead holder claimed.
 */
export function commitBatch(
  committer: HostCommitter,
  own: HostOperation | undefined,
  ownName: string,
): CombinedResult {
  const { file, clock, commits } = committer;
  const { lockPath } = file;
  const { content, text } = readStateFile(file.statePath);
  const batch: Batch = {
    lockPath,
    buckets: content.buckets,
    context: transactionContext(clock.now()),
    touched: new Set(),
    released: new Set(),
    applied: {},
    handOut: [],
  };
  const previouslyApplied = content.applied ?? {};
  const orphans = orphanedOperations(lockPath);
  for (const orphan of orphans) settle(batch, orphan, previouslyApplied);
  const ownResult = own === undefined ? undefined : runOne(batch, own, batch.context.owner);
  const room = MAX_COMBINED_OPERATIONS - 1 - orphans.length;
  for (const queued of claimQueuedOperations(lockPath, ownName, room))
    settle(batch, queued, previouslyApplied);
  if (batch.released.size > 0) grantParked(batch);

  const { buckets, applied, handOut } = batch;
  try {
    commitState(file, { ...content, buckets, applied }, text, batch.context.now, batch.touched);
  } catch (error) {
    // Nothing of this batch was committed: every operation applied in it fails alike.
    const failure = failureOf(error);
    for (const [queued, result] of handOut) {
      deliverResult(lockPath, queued, queued.name in applied ? failure : result);
    }
    throw error;
  }
  commits.record(batch.context.now);
  for (const [queued, result] of handOut) deliverResult(lockPath, queued, result);
  return ownResult ?? { error: { code: 'internal_error', message: 'the operation was not applied' } };
}

/** Applies one operation of `owner` to the batch's table; a failure becomes its result. */
function runOne(batch: Batch, operation: unknown, owner: LeaseOwner): CombinedResult {
  if (!isHostOperation(operation)) {
    return { error: { code: 'internal_error', message: 'a queued coordination operation is malformed' } };
  }
  try {
    if (operation.parked !== undefined && !isParked(batch.lockPath, operation.parked))
      return { superseded: true };
    const context = { ...batch.context, owner };
    const result = applyToTable(batch.buckets, operation.key, operation.operation, context, batch.touched);
    batch.touched.add(operation.key);
    if (operation.parked !== undefined && !keepsWaiting(result))
      removeParked(batch.lockPath, operation.parked);
    if (freesSlot(result)) batch.released.add(operation.key);
    return { ok: result, decidedAt: batch.context.now };
  } catch (error) {
    return failureOf(error);
  }
}

/** Decides an operation this holder claimed from another waiter. */
function settle(
  batch: Batch,
  queued: QueuedOperation,
  previouslyApplied: Readonly<Record<string, unknown>>,
): void {
  if (!batch.context.isOwnerAlive(queued.owner)) {
    // Its waiter is gone: nothing to hand out, and a lease it was granted is reclaimed as dead.
    dropClaim(batch.lockPath, queued.name);
    return;
  }
  const stored = previouslyApplied[queued.name];
  if (isCombinedResult(stored)) {
    // Committed by a holder that died before handing it out: hand out that result, never apply twice.
    batch.handOut.push([queued, stored]);
    return;
  }
  const result = runOne(batch, queued.operation, queued.owner);
  batch.applied[queued.name] = result;
  batch.handOut.push([queued, result]);
}

/**
 * Grants, in the batch that freed their slots, the admissions parked for those scopes, oldest first,
 * while each would be granted (or skipped, should a cooldown have opened); one that would still wait
 * stays parked.
 */
function grantParked(batch: Batch): void {
  for (const queued of parkedOperations(batch.lockPath)) {
    if (Object.keys(batch.applied).length >= MAX_COMBINED_OPERATIONS) break;
    const { operation } = queued;
    if (!isHostOperation(operation) || operation.operation.type !== 'admit') continue;
    if (!batch.released.has(operation.key)) continue;
    const context = { ...batch.context, owner: queued.owner };
    if (!wouldDecideNow(batch.buckets[operation.key], operation.operation, context)) continue;
    if (!claimTicket(batch.lockPath, queued.name)) continue;
    const result = runOne(batch, operation, queued.owner);
    batch.applied[queued.name] = result;
    batch.handOut.push([queued, result]);
  }
}

/** Hands out or applies, while holding the lock, what a holder that died had claimed. */
export function recoverClaims(committer: HostCommitter): void {
  commitBatch(committer, undefined, '');
}

/**
 * Hands a combined result to this process's caller: its value, or the error it carried. `timed`: the
 * time from its decision to now counts as a commit (for the lead of spaced start slots).
 */
export function unpackResult(
  committer: HostCommitter,
  result: unknown,
  timed = true,
): TableOperationResult | 'superseded' {
  const opened = openCombinedResult(result, resultsDirectory(committer.file.lockPath));
  if (opened === 'superseded') return opened;
  if (timed) committer.commits.record(opened.decidedAt);
  return opened.ok;
}

/**
 * Queues one operation behind the lock; applies it (with every other queued one) when first in line.
 * `parkedName` is the admission's own parked ticket, when it has one.
 */
export async function submitOperation(
  committer: HostCommitter,
  key: string,
  operation: TableOperation,
  options: TableUpdateOptions,
  parkedName?: string,
): Promise<TableOperationResult | 'superseded'> {
  const own: HostOperation = {
    key,
    operation,
    ...(parkedName === undefined ? {} : { parked: parkedName }),
  };
  const submission = await submitToLock(committer.file.lockPath, own, {
    clock: committer.clock,
    recover: () => recoverClaims(committer),
    priority: options.priority === true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (submission.kind === 'delivered') return unpackResult(committer, submission.result);
  let result: CombinedResult;
  try {
    result = commitBatch(committer, own, submission.name);
  } finally {
    submission.lock.release();
  }
  if (!('ok' in result)) return unpackResult(committer, result);
  return result.ok;
}
