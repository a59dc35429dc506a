/** Seconds without any tool call after which an MCP server's next call starts a fresh run. */
export const DEFAULT_RUN_IDLE_SECONDS = 300;
/** The shortest idle gap that may be configured. */
export const MIN_RUN_IDLE_SECONDS = 1;
/** The longest idle gap that may be configured: one day. */
export const MAX_RUN_IDLE_SECONDS = 86_400;

/** What a rotation needs of a run: to close it once it is retired. */
export interface RotatableRun {
  /** Ends the run. */
  close(): Promise<void>;
}

/** Options of {@link createIdleRunRotation}. */
export interface IdleRunRotationOptions<Run extends RotatableRun> {
  /**
   * Starts a run. `freshAfterIdleSeconds` is set when the run replaces one that sat idle, so the run
   * can say so; the first run of the server gets none.
   */
  startRun(notice: { freshAfterIdleSeconds?: number }): Run;
  /** The idle gap, in seconds, that ends a run. */
  idleSeconds: number;
  /** Milliseconds of a monotonic clock; injected by tests. */
  now?: () => number;
}

/** A sequence of runs for a long-lived server: a burst of calls shares one run, a quiet gap starts the next. */
export interface IdleRunRotation<Run extends RotatableRun> {
  /**
   * Runs one tool call on the current run, first starting a fresh one when no call has been active
   * for the idle gap. A run with calls in flight is never replaced.
   */
  use<Value>(call: (run: Run) => Promise<Value>): Promise<Value>;
  /** How many runs have been started so far. */
  readonly runsStarted: number;
  /** Closes the current run and waits for retired runs to finish closing. */
  close(): Promise<void>;
}

/**
 * Rotates runs on idle gaps. The gap is measured from the end of the last call to the start of the
 * next, so a long call never counts as idleness and a client that pauses between bursts gets a fresh
 * request budget for each burst.
 */
export function createIdleRunRotation<Run extends RotatableRun>(
  options: IdleRunRotationOptions<Run>,
): IdleRunRotation<Run> {
  const { idleSeconds } = options;
  if (
    !Number.isInteger(idleSeconds) ||
    idleSeconds < MIN_RUN_IDLE_SECONDS ||
    idleSeconds > MAX_RUN_IDLE_SECONDS
  ) {
    throw new RangeError(
      `the run idle gap must be an integer from ${MIN_RUN_IDLE_SECONDS} through ${MAX_RUN_IDLE_SECONDS} seconds`,
    );
  }
  const idleMs = idleSeconds * 1000;
  const now = options.now ?? (() => performance.now());
  let current: Run | undefined;
  let active = 0;
  let lastSettledAt = now();
  let runsStarted = 0;
  const retiring = new Set<Promise<void>>();

  const currentRun = (): Run => {
    if (current !== undefined && (active > 0 || now() - lastSettledAt < idleMs)) return current;
    const previous = current;
    current = options.startRun(previous === undefined ? {} : { freshAfterIdleSeconds: idleSeconds });
    runsStarted += 1;
    if (previous !== undefined) {
      // Nothing is in flight on the retired run; it closes while the new call already runs.
      const closing = previous.close().catch(() => undefined);
      retiring.add(closing);
      void closing.finally(() => retiring.delete(closing));
    }
    return current;
  };

  return {
    async use(call) {
      const run = currentRun();
      active += 1;
      try {
        return await call(run);
      } finally {
        active -= 1;
        lastSettledAt = now();
      }
    },
    get runsStarted() {
      return runsStarted;
    },
    async close() {
      const last = current;
      current = undefined;
      await Promise.all([last?.close(), ...retiring]);
    },
  };
}
