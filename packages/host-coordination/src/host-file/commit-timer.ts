// How long this process's commits to the host state file take: the lead a spaced start slot is
// granted with, so the slot is not missed by the commit that grants it.
import type { Clock } from '../clock.js';

/** The lead of a spaced start slot before this process has timed any commit of its own. */
export const HOST_INITIAL_COMMIT_MARGIN_MS = 25;
/** The shortest lead of a spaced start slot in host mode. */
export const HOST_MIN_COMMIT_MARGIN_MS = 5;
/** The longest lead of a spaced start slot: past it, a slow commit is absorbed by the next slot instead. */
export const HOST_MAX_COMMIT_MARGIN_MS = 100;
/** How many recent commits the lead is estimated from. */
const COMMIT_SAMPLES = 16;

/** The commits of one store, timed. */
export interface CommitTimer {
  /** Counts the time from a decision made at `decidedAt` to now as one commit. */
  record(decidedAt: number): void;
  /** The lead of a spaced start slot, from the last few commits. */
  marginMs(): number;
}

/**
 * The lead for commits that took `samples` milliseconds each: the slowest plus half again, so a slot
 * is missed only by a commit slower than that, within the bounds above.
 */
export function commitMarginMs(samples: readonly number[]): number {
  if (samples.length === 0) return HOST_INITIAL_COMMIT_MARGIN_MS;
  const slowest = Math.max(...samples);
  return Math.min(
    HOST_MAX_COMMIT_MARGIN_MS,
    Math.max(HOST_MIN_COMMIT_MARGIN_MS, Math.ceil(slowest * 1.5) + 1),
  );
}

/** Times commits with `clock`, keeping the last {@link COMMIT_SAMPLES}. */
export function createCommitTimer(clock: Clock): CommitTimer {
  // Milliseconds from the decision to the end of its commit, for the last few commits of this process.
  const samples: number[] = [];
  return {
    record(decidedAt) {
      samples.push(clock.now() - decidedAt);
      if (samples.length > COMMIT_SAMPLES) samples.shift();
    },
    marginMs: () => commitMarginMs(samples),
  };
}
