// This process's parked admissions: one per scope whose admission was told to wait for a slot. The
// release that frees the slot grants a parked admission in its own commit and leaves the grant in this
// process's inbox, so the waiter waits for that rather than for every change of the state.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Clock, cancelledError } from '../clock.js';
import type { StoreRelease } from '../coordination-store.js';
import type { TableOperation, TableOperationResult } from '../table-store.js';
import { sleepUntilWoken, watchEntry } from './directory-watch.js';
import type { HostOperation } from './host-operation.js';
import { keepsWaiting } from './host-table.js';
import {
  awaitParkedResult,
  type ParkedTicket,
  parkOperation,
  takeParkedOperationResult,
  unparkOperation,
} from './lock-parking.js';

/** What {@link createParkedAdmissions} works with. */
export interface ParkedAdmissionsOptions {
  lockPath: string;
  clock: Clock;
  /** The longest wait for a grant before the caller looks at the state again. */
  maxWaitMs: number;
  /** Hands out or applies, while holding the lock, what a holder that died had claimed. */
  recover: () => void;
  /** A delivered result as an answer (it throws the error a result carries). */
  answer: (result: unknown) => TableOperationResult | 'superseded';
  /** Gives back a lease at once, ahead of waiting admissions. */
  release: (key: string, release: StoreRelease) => Promise<unknown>;
}

/** The parked admissions of one store. */
export interface ParkedAdmissions {
  /** Whether the admission of `key` is parked. */
  has(key: string): boolean;
  /** Parks the admission of `key`, which was told to wait for a slot. */
  park(key: string, operation: TableOperation): void;
  /**
   * Decides the parked admission of `key` again: the grant a release left for it, or what `resubmit`
   * (the admission submitted together with its parked ticket's name) decided. `undefined` when it is
   * not parked or its ticket ended without an answer: then the admission is submitted afresh.
   */
  readmit(
    key: string,
    resubmit: (parkedName: string) => Promise<TableOperationResult | 'superseded'>,
  ): Promise<TableOperationResult | undefined>;
  /** Waits up to `maxMs` for a release to grant the parked admission of `key`. */
  waitForGrant(key: string, maxMs: number | undefined, signal: AbortSignal | undefined): Promise<void>;
  /**
   * Withdraws the parked admission of `key` when its waiter stops waiting; one a holder granted
   * meanwhile is released at once, so a cancelled or finished wait never keeps a slot.
   */
  windUp(key: string): void;
  /** Winds up every parked admission and waits until each is withdrawn or released. */
  close(): Promise<void>;
}

/** The parked admissions of one store, by scope key (the coordinator admits one per scope at a time). */
export function createParkedAdmissions(options: ParkedAdmissionsOptions): ParkedAdmissions {
  const { lockPath, clock, maxWaitMs, recover } = options;
  const parked = new Map<string, ParkedTicket>();
  /** Parked admissions being wound up after their waiter stopped waiting (see `windUp`). */
  const winding = new Set<Promise<void>>();

  /** A parked admission's delivered result as an answer; `undefined` when none came. */
  function answerOf(result: unknown): TableOperationResult | undefined {
    if (result === undefined) return undefined;
    const answer = options.answer(result);
    return answer === 'superseded' ? undefined : answer;
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
      ended.state === 'result' ? ended.result : await awaitParkedResult(lockPath, ticket, recover, clock);
    return answerOf(result);
  }

  function windUp(key: string): void {
    if (!parked.has(key)) return;
    const done = unpark(key).then(
      async (answer) => {
        if (answer?.type !== 'admit' || answer.decision.type !== 'granted') return;
        const { lease } = answer.decision;
        await options.release(key, { leaseId: lease.id, startAt: lease.acquiredAt, outcome: 'abandoned' });
      },
      () => {},
    );
    const settled = done.catch(() => {}).finally(() => winding.delete(settled));
    winding.add(settled);
  }

  return {
    has: (key) => parked.has(key),
    park(key, operation) {
      parked.set(key, parkOperation(lockPath, { key, operation } satisfies HostOperation));
    },
    async readmit(key, resubmit) {
      const ticket = parked.get(key);
      if (ticket === undefined) return undefined;
      // Parked while this scope was full: a release may have granted it meanwhile, and that grant is
      // this admission's answer. Otherwise the admission is decided again together with its parked
      // ticket, which keeps its place while the answer is still to wait.
      const delivered = takeParkedOperationResult(ticket)?.result;
      if (delivered !== undefined) {
        parked.delete(key);
        return answerOf(delivered);
      }
      const result = await resubmit(ticket.name);
      if (result !== 'superseded') {
        if (!keepsWaiting(result)) parked.delete(key);
        return result;
      }
      parked.delete(key);
      return answerOf(await awaitParkedResult(lockPath, ticket, recover, clock));
    },
    async waitForGrant(key, maxMs, signal) {
      const ticket = parked.get(key);
      if (ticket === undefined) return;
      // The release that frees a slot grants the admission itself and leaves the grant here, so the
      // wait is for that, not for every change of the state. The pause bounds what no release
      // announces: a lease that runs out or whose holder died, a reset.
      if (existsSync(join(ticket.inboxPath, ticket.resultName))) return;
      await sleepUntilWoken(
        Math.min(maxMs ?? maxWaitMs, maxWaitMs),
        clock.sleep,
        signal,
        () => cancelledError(signal),
        (wake) => watchEntry(ticket.inboxPath, ticket.resultName, wake),
      );
    },
    windUp,
    async close() {
      for (const key of [...parked.keys()]) windUp(key);
      await Promise.allSettled([...winding]);
    },
  };
}
