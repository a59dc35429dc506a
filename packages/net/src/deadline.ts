import { WebToolError } from '@mono-agent/budget-policy';

/** The one deadline of a request when the caller names none: redirects, retries and waits included. */
export const DEFAULT_DEADLINE_MS = 45_000;

/** The longest deadline a timer can hold (setTimeout's limit). */
export const MAX_DEADLINE_MS = 2_147_483_647;

/** A running deadline joined with the caller's AbortSignal. */
export interface Deadline {
  /** Fires at the deadline or when the caller aborts; its reason is the WebToolError to throw. */
  readonly signal: AbortSignal;
  /** Milliseconds left, by the injected clock. */
  remaining(): number;
  /** The `timeout` or `cancelled` error if the signal fired, else `error` itself. */
  explain(error: unknown): unknown;
  /** Stops the timer and detaches from the caller's signal. */
  dispose(): void;
}

/**
 * Starts a deadline of `deadlineMs` (a real timer; the clock only answers `remaining`). Throws
 * `cancelled` at once when `signal` has already fired.
 */
export function startDeadline(
  deadlineMs: number,
  signal: AbortSignal | undefined,
  clock: () => number,
): Deadline {
  const cancelled = (): WebToolError =>
    new WebToolError({ code: 'cancelled', message: 'the request was cancelled', cause: signal?.reason });
  if (signal?.aborted) throw cancelled();
  const controller = new AbortController();
  const endsAt = clock() + deadlineMs;
  const timer = setTimeout(() => {
    controller.abort(
      new WebToolError({
        code: 'timeout',
        message: `the request did not finish within its ${deadlineMs} ms deadline`,
        details: { deadlineMs },
      }),
    );
  }, deadlineMs);
  const onAbort = (): void => controller.abort(cancelled());
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    remaining: () => endsAt - clock(),
    explain: (error) => (controller.signal.aborted ? controller.signal.reason : error),
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
