// What the host store does to its bucket table, without any I/O: applying an operation, evicting
// expired buckets to make room, and fitting the table into the state file's limits. The table was
// parsed for one transaction alone, so each of these changes it in place.
import { WebToolError } from '@mono-agent/budget-policy';
import { isBucketExpired } from '../admission-policy.js';
import type { BucketState, BucketTable } from '../bucket-state.js';
import {
  applyOperation,
  type StoreContext,
  type TableOperation,
  type TableOperationResult,
} from '../table-store.js';
import {
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  STATE_FILE_VERSION,
  type StateFileContent,
  serializeState,
} from './state-file.js';

function capacityError(message: string, details: Record<string, unknown>): WebToolError {
  return new WebToolError({ code: 'capacity_exceeded', message, details });
}

function bucketLimitError(): WebToolError {
  return capacityError(
    `host state already holds ${MAX_STATE_BUCKETS} active scopes; a new scope is refused`,
    {
      limit: MAX_STATE_BUCKETS,
    },
  );
}

/** Removes the expired buckets of `buckets` that are not in `keep`; returns how many went. */
export function evictExpired(buckets: BucketTable, now: number, keep: ReadonlySet<string>): number {
  let evicted = 0;
  for (const [key, bucket] of Object.entries(buckets)) {
    if (!keep.has(key) && isBucketExpired(bucket, now)) {
      delete buckets[key];
      evicted += 1;
    }
  }
  return evicted;
}

/** Keeps `bucket` as the bucket of `key`; `undefined` deletes it. */
export function putBucket(buckets: BucketTable, key: string, bucket: BucketState | undefined): void {
  if (bucket === undefined) delete buckets[key];
  else buckets[key] = bucket;
}

/**
 * Applies `operation` to the bucket of `key`. A new bucket that finds the table full first evicts the
 * expired buckets not in `keep` (those this transaction changed already); throws `capacity_exceeded`
 * when the table is still full.
 */
export function applyToTable(
  buckets: BucketTable,
  key: string,
  operation: TableOperation,
  context: StoreContext,
  keep: ReadonlySet<string>,
): TableOperationResult {
  const existing = buckets[key];
  const change = applyOperation(existing, operation, context);
  if (change.bucket === undefined) {
    delete buckets[key];
  } else {
    if (existing === undefined && Object.keys(buckets).length >= MAX_STATE_BUCKETS) {
      evictExpired(buckets, context.now, keep);
      if (Object.keys(buckets).length >= MAX_STATE_BUCKETS) throw bucketLimitError();
    }
    buckets[key] = change.bucket;
  }
  return change.result;
}

/**
 * Whether the admission `operation` would be decided now (granted, or skipped should a cooldown have
 * opened) rather than told to wait. Tried on a copy of `bucket`, which stays as it was.
 */
export function wouldDecideNow(
  bucket: BucketState | undefined,
  operation: TableOperation,
  context: StoreContext,
): boolean {
  const trial = applyOperation(
    bucket === undefined ? undefined : structuredClone(bucket),
    operation,
    context,
  );
  return trial.result.type === 'admit' && trial.result.decision.type !== 'wait';
}

/** Whether an admission's answer is to keep waiting, so its parked ticket keeps its place. */
export function keepsWaiting(result: TableOperationResult): boolean {
  return result.type === 'admit' && result.decision.type === 'wait';
}

/** Whether a release gave back a lease its bucket held, so a parked admission of that scope may go. */
export function freesSlot(result: TableOperationResult): boolean {
  return result.type === 'release' && result.effect?.leaseHeld === true;
}

/**
 * The state file's text for `content`, within its limits: expired buckets not in `keep` are evicted
 * when the table holds too many buckets or too many bytes, and `capacity_exceeded` is thrown when it
 * still does. Results of combined operations are written only when there are any.
 */
export function serializeWithinLimits(
  content: StateFileContent,
  now: number,
  keep: ReadonlySet<string>,
): string {
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
  return text;
}
