/**
 * What a running tool call is waiting for, for a host that shows progress (a terminal's status line).
 * Bounded fields only: an origin, never a path, query or content.
 */
export type CallProgress =
  /** Waiting for the host's admission to an origin (concurrency, start spacing, cooldown). */
  | { stage: 'admission'; origin: string }
  /** Admitted: connecting and waiting for the response headers. */
  | { stage: 'connecting'; origin: string; attempt: number }
  /** The body is arriving: bytes so far, and the declared length when the server sent one. */
  | { stage: 'downloading'; bytes: number; totalBytes?: number }
  /** Waiting before a retry the retry policy chose. */
  | { stage: 'retry_wait'; delayMs: number }
  /** A browser renders the page. */
  | { stage: 'rendering' }
  /** The search backends are being asked. */
  | { stage: 'searching' };

/** Options of one tool call of a run. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Told what the call is waiting for as that changes; must not throw. */
  onProgress?: (progress: CallProgress) => void;
}
