import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { isBucketExpired } from '../admission-policy.js';
import type { BucketTable, LeaseOwner } from '../bucket-state.js';
import { type Clock, cancelledError } from '../clock.js';
import { currentOwner, isOwnerAlive } from '../process-identity.js';
import {
  applyOperation,
  type BucketTableStore,
  createPolicyStore,
  type StoreContext,
  type TableBackedStore,
  type TableOperation,
  type TableOperationResult,
  type TableUpdateOptions,
} from '../table-store.js';
import { sleepUntilEntryChanges, sleepUntilWoken, watchEntry } from './directory-watch.js';
import { acquireFileLock } from './file-lock.js';
import {
  awaitParkedResult,
  isParked,
  type ParkedTicket,
  parkedOperations,
  parkOperation,
  removeParked,
  takeParkedOperationResult,
  unparkOperation,
} from './lock-parking.js';
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
import {
  ensurePrivateDirectory,
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  readStateFile,
  refuseIrregularEntry,
  STATE_FILE_VERSION,
  type StateFileContent,
  serializeState,
  writeStateFile,
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

/** An operation as a waiter queues it behind the host lock. */
interface HostOperation {
  key: string;
  operation: TableOperation;
  /**
   * The admission's own parked ticket, when it has one: applying the admission then decides for both
   * (a grant or a skip ends the parked one; a wait keeps it, and its place), and if a holder already
   * granted the parked one the admission is superseded by that grant.
   */
  parked?: string;
}

/** What a combined operation came to, as handed back to its waiter (and kept for recovery). */
type CombinedResult =
  | { ok: TableOperationResult; decidedAt: number }
  /** The admission's parked ticket was granted first: that grant is the answer. */
  | { superseded: true }
  | { error: { code: string; message: string; details?: Record<string, unknown> } };

const HASHED_KEY = /^[0-9a-f]{64}$/;
const PARKED_NAME = /^p-[0-9]{17}-[0-9]{1,10}-[0-9a-f]{8}$/;

function isHostOperation(value: unknown): value is HostOperation {
  if (typeof value !== 'object' || value === null) return false;
  const { key, operation, parked } = value as Partial<HostOperation>;
  if (typeof key !== 'string' || !HASHED_KEY.test(key)) return false;
  if (parked !== undefined && (typeof parked !== 'string' || !PARKED_NAME.test(parked))) return false;
  if (typeof operation !== 'object' || operation === null) return false;
  if (operation.type === 'admit') {
    const { request, marginMs } = operation;
    return (
      typeof request === 'object' &&
      request !== null &&
      (request.kind === 'search' || request.kind === 'fetch') &&
      [request.concurrency, request.spacingMs, request.leaseTtlMs, marginMs].every(
        (number) => typeof number === 'number' && Number.isFinite(number) && number >= 0,
      )
    );
  }
  if (operation.type === 'release') {
    const { release } = operation;
    return typeof release === 'object' && release !== null && typeof release.leaseId === 'string';
  }
  return false;
}

function failureOf(error: unknown): CombinedResult {
  if (error instanceof WebToolError) {
    return {
      error: {
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details as Record<string, unknown> }),
      },
    };
  }
  return {
    error: { code: 'internal_error', message: error instanceof Error ? error.message : String(error) },
  };
}

function isCombinedResult(value: unknown): value is CombinedResult {
  if (typeof value !== 'object' || value === null) return false;
  if ('superseded' in value) return (value as { superseded: unknown }).superseded === true;
  if ('error' in value) {
    const { error } = value as { error: unknown };
    return (
      typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    );
  }
  const { ok, decidedAt } = value as { ok?: unknown; decidedAt?: unknown };
  return typeof ok === 'object' && ok !== null && typeof decidedAt === 'number';
}

function evictExpired(buckets: BucketTable, now: number, keep: ReadonlySet<string>): number {
  let evicted = 0;
  for (const [key, bucket] of Object.entries(buckets)) {
    if (!keep.has(key) && isBucketExpired(bucket, now)) {
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

  const bucketLimitError = () =>
    capacityError(`host state already holds ${MAX_STATE_BUCKETS} active scopes; a new scope is refused`, {
      limit: MAX_STATE_BUCKETS,
    });

  function persist(
    content: StateFileContent,
    previousText: string,
    now: number,
    keep: ReadonlySet<string>,
  ): void {
    const { buckets } = content;
    if (Object.keys(buckets).length > MAX_STATE_BUCKETS) evictExpired(buckets, now, keep);
    if (Object.keys(buckets).length > MAX_STATE_BUCKETS) throw bucketLimitError();
    const serialize = () =>
      serializeState({
        version: STATE_FILE_VERSION,
        buckets,
        ...(content.applied === undefined || Object.keys(content.applied).length === 0
          ? {}
          : { applied: content.applied }),
      });
    let text = serialize();
    if (Buffer.byteLength(text) > MAX_STATE_BYTES && evictExpired(buckets, now, keep) > 0) {
      text = serialize();
    }
    if (Buffer.byteLength(text) > MAX_STATE_BYTES) {
      throw capacityError(`host state would exceed ${MAX_STATE_BYTES} bytes; the change is refused`, {
        limit: MAX_STATE_BYTES,
      });
    }
    if (text !== previousText) writeStateFile(directory, statePath, text);
  }

  /**
   * Hands a combined result to this process's caller: its value, or the error it carried. `timed`: the
   * time from its decision to now counts as a commit (for the lead of spaced start slots).
   */
  function unpack(result: unknown, timed = true): TableOperationResult | 'superseded' {
    if (!isCombinedResult(result)) {
      throw new WebToolError({
        code: 'state_unsafe',
        message: `host state lock results are malformed (${lockPath}.results); stop opted-in processes and inspect it`,
        details: { problem: 'invalid_state', path: `${lockPath}.results` },
      });
    }
    if ('superseded' in result) return 'superseded';
    if ('error' in result)
      throw new WebToolError(result.error as ConstructorParameters<typeof WebToolError>[0]);
    if (timed) recordCommit(result.decidedAt);
    return result.ok;
  }

  /**
   * Runs, as the lock's holder, this process's operation together with every operation waiting behind
   * the lock (up to {@link MAX_COMBINED_OPERATIONS}), in one read and one durable write, then hands
   * each waiter its result. Operations a dead holder claimed come first: their committed results are
   * handed out again from the state, the others are applied now.
   */
  function combine(own: HostOperation | undefined, ownName: string): CombinedResult {
    const { content, text } = readStateFile(statePath);
    const current = context();
    const previouslyApplied = content.applied ?? {};
    const buckets = content.buckets;
    const touched = new Set<string>();
    const applied: Record<string, CombinedResult> = {};
    const handOut: Array<[QueuedOperation, CombinedResult]> = [];
    // Scopes a release of this batch freed a slot of: their parked admissions may be granted now.
    const released = new Set<string>();
    let ownResult: CombinedResult | undefined;

    const runOne = (operation: unknown, owner: LeaseOwner): CombinedResult => {
      if (!isHostOperation(operation)) {
        return { error: { code: 'internal_error', message: 'a queued coordination operation is malformed' } };
      }
      try {
        if (operation.parked !== undefined && !isParked(lockPath, operation.parked))
          return { superseded: true };
        // The buckets were parsed for this batch alone, so an operation changes its bucket in place.
        const existing = buckets[operation.key];
        const change = applyOperation(existing, operation.operation, { ...current, owner });
        if (change.bucket === undefined) {
          delete buckets[operation.key];
        } else {
          if (existing === undefined && Object.keys(buckets).length >= MAX_STATE_BUCKETS) {
            evictExpired(buckets, current.now, touched);
            if (Object.keys(buckets).length >= MAX_STATE_BUCKETS) throw bucketLimitError();
          }
          buckets[operation.key] = change.bucket;
        }
        touched.add(operation.key);
        if (
          operation.parked !== undefined &&
          !(change.result.type === 'admit' && change.result.decision.type === 'wait')
        ) {
          removeParked(lockPath, operation.parked);
        }
        if (change.result.type === 'release' && change.result.effect?.leaseHeld === true)
          released.add(operation.key);
        return { ok: change.result, decidedAt: current.now };
      } catch (error) {
        return failureOf(error);
      }
    };
    const settle = (queued: QueuedOperation) => {
      if (!current.isOwnerAlive(queued.owner)) {
        // Its waiter is gone: nothing to hand out, and a lease it was granted is reclaimed as dead.
        dropClaim(lockPath, queued.name);
        return;
      }
      const stored = previouslyApplied[queued.name];
      if (isCombinedResult(stored)) {
        // Committed by a holder that died before handing it out: hand out that result, never apply twice.
        handOut.push([queued, stored]);
        return;
      }
      const result = runOne(queued.operation, queued.owner);
      applied[queued.name] = result;
      handOut.push([queued, result]);
    };

    const orphans = orphanedOperations(lockPath);
    for (const orphan of orphans) settle(orphan);
    if (own !== undefined) ownResult = runOne(own, current.owner);
    const room = MAX_COMBINED_OPERATIONS - 1 - orphans.length;
    for (const queued of claimQueuedOperations(lockPath, ownName, room)) settle(queued);
    if (released.size > 0) grantParked(released, buckets, current, runOne, applied, handOut);

    try {
      persist({ ...content, buckets, applied }, text, current.now, touched);
    } catch (error) {
      // Nothing of this batch was committed: every operation applied in it fails alike.
      const failure = failureOf(error);
      for (const [queued, result] of handOut) {
        deliverResult(lockPath, queued, queued.name in applied ? failure : result);
      }
      throw error;
    }
    recordCommit(current.now);
    for (const [queued, result] of handOut) deliverResult(lockPath, queued, result);
    return ownResult ?? { error: { code: 'internal_error', message: 'the operation was not applied' } };
  }

  /**
   * Grants, in the batch that freed their slots, the admissions parked for those scopes, oldest first,
   * while each would be granted (or skipped, should a cooldown have opened); one that would still wait
   * stays parked.
   */
  function grantParked(
    released: ReadonlySet<string>,
    buckets: BucketTable,
    current: StoreContext,
    runOne: (operation: unknown, owner: LeaseOwner) => CombinedResult,
    applied: Record<string, CombinedResult>,
    handOut: Array<[QueuedOperation, CombinedResult]>,
  ): void {
    for (const queued of parkedOperations(lockPath)) {
      if (Object.keys(applied).length >= MAX_COMBINED_OPERATIONS) break;
      const { operation } = queued;
      if (!isHostOperation(operation) || operation.operation.type !== 'admit') continue;
      if (!released.has(operation.key)) continue;
      const existing = buckets[operation.key];
      const trial = applyOperation(
        existing === undefined ? undefined : structuredClone(existing),
        operation.operation,
        { ...current, owner: queued.owner },
      );
      if (trial.result.type !== 'admit' || trial.result.decision.type === 'wait') continue;
      if (!claimTicket(lockPath, queued.name)) continue;
      const result = runOne(operation, queued.owner);
      applied[queued.name] = result;
      handOut.push([queued, result]);
    }
  }

  /** Parked admissions of this process, by scope key (the coordinator admits one per scope at a time). */
  const parked = new Map<string, ParkedTicket>();
  /** Parked admissions being wound up after their waiter stopped waiting (see `stopWaiting`). */
  const winding = new Set<Promise<void>>();

  /**
   * Withdraws the parked admission of `key` when its waiter stops waiting; one a holder granted
   * meanwhile is released at once, so a cancelled or finished wait never keeps a slot.
   */
  function windUp(key: string): void {
    if (!parked.has(key)) return;
    const done = unpark(key).then(
      async (answer) => {
        if (answer?.type !== 'admit' || answer.decision.type !== 'granted') return;
        const { lease } = answer.decision;
        const release = { leaseId: lease.id, startAt: lease.acquiredAt, outcome: 'abandoned' } as const;
        await submit(key, { type: 'release', release }, { priority: true });
      },
      () => {},
    );
    const settled = done.catch(() => {}).finally(() => winding.delete(settled));
    winding.add(settled);
  }

  /** Hands out or applies, while holding the lock, what a holder that died had claimed. */
  function recoverClaims(): void {
    combine(undefined, '');
  }

  /**
   * Ends the parked admission of `key`: its answer when a holder applied it, `undefined` when it was
   * withdrawn before that.
   */
  async function unpark(key: string): Promise<TableOperationResult | undefined> {
    const ticket = parked.get(key);
    if (ticket === undefined) return undefined;
    parked.delete(key);
    const ended = unparkOperation(lockPath, ticket);
    if (ended.state === 'withdrawn') return undefined;
    const result =
      ended.state === 'result'
        ? ended.result
        : await awaitParkedResult(lockPath, ticket, recoverClaims, clock);
    return answerOf(result);
  }

  /** A parked admission's delivered result as an answer; `undefined` when none came. */
  function answerOf(result: unknown): TableOperationResult | undefined {
    if (result === undefined) return undefined;
    // Not a commit sample: a parked grant waits for its waiter to come for it, which says nothing of
    // how long committing takes.
    const answer = unpack(result, false);
    return answer === 'superseded' ? undefined : answer;
  }

  /** Queues one operation behind the lock; applies it (with every other queued one) when first in line. */
  async function submit(
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
    const submission = await submitToLock(lockPath, own, {
      clock,
      recover: recoverClaims,
      priority: options.priority === true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (submission.kind === 'delivered') return unpack(submission.result);
    let result: CombinedResult;
    try {
      result = combine(own, submission.name);
    } finally {
      submission.lock.release();
    }
    if (!('ok' in result)) return unpack(result);
    return result.ok;
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
      for (const key of [...parked.keys()]) windUp(key);
      await Promise.allSettled([...winding]);
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
          persist(content, text, current.now, new Set([key]));
          recordCommit(current.now);
          return result;
        },
        operation.priority,
      );
    },
    async apply(key, operation, options = {}) {
      ensurePrivateDirectory(directory);
      const ticket = operation.type === 'admit' ? parked.get(key) : undefined;
      if (ticket !== undefined) {
        // Parked while this scope was full: a release may have granted it meanwhile, and that grant
        // is this admission's answer. Otherwise the admission is decided again together with its
        // parked ticket, which keeps its place while the answer is still to wait.
        const delivered = takeParkedOperationResult(ticket)?.result;
        if (delivered !== undefined) {
          parked.delete(key);
          const answer = answerOf(delivered);
          if (answer !== undefined) return answer;
        } else {
          const result = await submit(key, operation, options, ticket.name);
          if (result !== 'superseded') {
            if (!(result.type === 'admit' && result.decision.type === 'wait')) parked.delete(key);
            return result;
          }
          parked.delete(key);
          const answer = answerOf(await awaitParkedResult(lockPath, ticket, recoverClaims, clock));
          if (answer !== undefined) return answer;
        }
      }
      const result = await submit(key, operation, options);
      if (result === 'superseded') throw new Error('an admission without a parked ticket was superseded');
      if (
        operation.type === 'admit' &&
        result.type === 'admit' &&
        result.decision.type === 'wait' &&
        result.decision.reason === 'slot'
      ) {
        parked.set(key, parkOperation(lockPath, { key, operation } satisfies HostOperation));
      }
      return result;
    },
    updateAll(change, operation = {}) {
      return locked(operation.signal, () => {
        const { content, text } = readStateFile(statePath);
        const current = context();
        const { buckets, result } = change(content.buckets, current);
        if (buckets !== undefined) persist({ ...content, buckets }, text, current.now, new Set());
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
    async waitForChange(key, { maxMs, attempt, signal }) {
      const poll = Math.min(HOST_POLL_MAX_MS, HOST_POLL_MIN_MS * 2 ** Math.min(attempt, 16));
      const ms = maxMs === undefined ? poll : Math.min(maxMs, poll);
      const ticket = parked.get(key);
      if (ticket === undefined) return line.wait(key, ms, maxMs ?? HOST_POLL_MAX_MS, signal);
      // Parked: the release that frees a slot grants the admission itself and leaves the grant here,
      // so the wait is for that, not for every change of the state. The pause bounds what no release
      // announces: a lease that runs out or whose holder died, a reset.
      if (existsSync(join(ticket.inboxPath, ticket.resultName))) return;
      await sleepUntilWoken(
        Math.min(maxMs ?? HOST_POLL_MAX_MS, HOST_POLL_MAX_MS),
        clock.sleep,
        signal,
        () => cancelledError(signal),
        (wake) => watchEntry(ticket.inboxPath, ticket.resultName, wake),
      );
    },
    stopWaiting(key) {
      line.leave(key);
      windUp(key);
    },
  };
}
