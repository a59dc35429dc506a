// The status line of a long CLI call on a terminal: what the call waits for (admission, the
// connection, the body's bytes, a retry wait, a render), redrawn in place on stderr. Shown only when
// stderr is a terminal and the call has run for PROGRESS_DELAY_MS, so a quick call, a pipe, a log
// file and `--json` never see it; cleared before the answer is printed.
import type { CallProgress } from './runtime/call-progress.js';

/** How long a call runs before its status line appears, in milliseconds. */
export const PROGRESS_DELAY_MS = 2_000;

/** How often the status line is redrawn while it shows, in milliseconds. */
export const PROGRESS_REFRESH_MS = 250;

/** Where the status line is drawn: stderr, or a stand-in with the same two properties. */
export interface ProgressStream {
  /** Whether the stream is a terminal; nothing is drawn unless it is. */
  readonly isTTY?: boolean;
  /** The terminal's width, to keep the line on one row. */
  readonly columns?: number;
  /** Writes to the stream. */
  write(text: string): unknown;
}

/** Time for the status line; injected so tests step it by hand. */
export interface ProgressClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** The process's own clock. */
export const SYSTEM_PROGRESS_CLOCK: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    // The status line never keeps the process alive on its own.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** A call's status line. */
export interface ProgressLine {
  /** Takes the call's latest stage. */
  onProgress(progress: CallProgress): void;
  /** Stops redrawing and erases the line, if one was drawn. */
  stop(): void;
}

const ERASE_LINE = '\r\u001b[2K';

function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** The words for a stage, at time `now` (a retry wait counts down). */
export function describeProgress(progress: CallProgress | undefined, since: number, now: number): string {
  switch (progress?.stage) {
    case undefined:
      return 'starting';
    case 'admission':
      return `waiting for admission to ${progress.origin}`;
    case 'connecting':
      return `connecting to ${progress.origin}${progress.attempt > 1 ? ` (attempt ${progress.attempt})` : ''}, waiting for the response`;
    case 'downloading':
      return `downloading ${formatBytes(progress.bytes)}${progress.totalBytes === undefined ? '' : ` of ${formatBytes(progress.totalBytes)}`}`;
    case 'retry_wait':
      return `waiting ${seconds(progress.delayMs)} before retrying, ${seconds(progress.delayMs - (now - since))} left`;
    case 'rendering':
      return 'rendering the page in a browser';
    case 'searching':
      return 'waiting for the search backends';
  }
}

/**
 * A status line for one call of `command` on `stream`: nothing at all unless the stream is a
 * terminal; else, from PROGRESS_DELAY_MS on, `mono-agent-web: <command> <elapsed>: <stage>` redrawn
 * every PROGRESS_REFRESH_MS.
 */
export function createProgressLine(
  command: string,
  stream: ProgressStream | undefined,
  clock: ProgressClock = SYSTEM_PROGRESS_CLOCK,
): ProgressLine {
  if (stream?.isTTY !== true) return { onProgress() {}, stop() {} };
  const startedAt = clock.now();
  let latest: CallProgress | undefined;
  let latestAt = startedAt;
  let drawn = false;
  let stopped = false;
  const draw = () => {
    const now = clock.now();
    if (now - startedAt < PROGRESS_DELAY_MS) return;
    const text = `mono-agent-web: ${command} ${seconds(now - startedAt)}: ${describeProgress(latest, latestAt, now)}`;
    // One row: a wrapped line could not be erased in place. A terminal of unknown size (a pseudo-
    // terminal nobody sized reports 0 columns) is taken as 80 wide.
    const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
    const width = Math.max(20, columns - 1);
    stream.write(`${ERASE_LINE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    drawn = true;
  };
  const cancel = clock.every(PROGRESS_REFRESH_MS, draw);
  return {
    onProgress(progress) {
      if (stopped) return;
      // Bytes arrive many times a second: the next tick shows the newest count.
      if (progress.stage !== latest?.stage || progress.stage !== 'downloading') latestAt = clock.now();
      latest = progress;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancel();
      if (drawn) stream.write(ERASE_LINE);
    },
  };
}
