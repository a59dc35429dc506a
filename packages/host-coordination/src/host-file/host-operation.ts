// An operation as one process queues it behind the host lock for another to apply, and the result the
// applying process hands back. Both cross a process boundary as JSON, so both are checked on arrival.
import { WebToolError } from '@mono-agent/budget-policy';
import type { TableOperation, TableOperationResult } from '../table-store.js';

/** An operation as a waiter queues it behind the host lock. */
export interface HostOperation {
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
export type CombinedResult =
  | { ok: TableOperationResult; decidedAt: number }
  /** The admission's parked ticket was granted first: that grant is the answer. */
  | { superseded: true }
  | { error: { code: string; message: string; details?: Record<string, unknown> } };

const HASHED_KEY = /^[0-9a-f]{64}$/;
const PARKED_NAME = /^p-[0-9]{17}-[0-9]{1,10}-[0-9a-f]{8}$/;

/** Whether `value`, as read from another process's ticket, is a well-formed {@link HostOperation}. */
export function isHostOperation(value: unknown): value is HostOperation {
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

/** A failed operation's result: the error, in a form that survives JSON. */
export function failureOf(error: unknown): CombinedResult {
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

/** Whether `value`, as read from a result file or from the state's applied results, is well-formed. */
export function isCombinedResult(value: unknown): value is CombinedResult {
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

/**
 * A handed-back result as its waiter's answer: the operation's result with the time it was decided,
 * or `superseded`; the error it carried is thrown. A result that is not well-formed fails closed as
 * unsafe state of the lock's results directory `resultsPath`.
 */
export function openCombinedResult(
  result: unknown,
  resultsPath: string,
): { ok: TableOperationResult; decidedAt: number } | 'superseded' {
  if (!isCombinedResult(result)) {
    throw new WebToolError({
      code: 'state_unsafe',
      message: `host state lock results are malformed (${resultsPath}); stop opted-in processes and inspect it`,
      details: { problem: 'invalid_state', path: resultsPath },
    });
  }
  if ('superseded' in result) return 'superseded';
  if ('error' in result)
    throw new WebToolError(result.error as ConstructorParameters<typeof WebToolError>[0]);
  return result;
}
