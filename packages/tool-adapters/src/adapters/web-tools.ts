/** Per-call options a host passes to a tool implementation. */
export interface ToolCallOptions {
  /** Aborted when the host cancels the call (client cancellation, agent abort, request timeout). */
  signal?: AbortSignal;
}

/** What one tool call gives back: the text the model reads, and whether the call failed. */
export interface ToolCallResult {
  /** The rendered, bounded, framed text the model reads. */
  text: string;
  /** Whether the call failed (invalid arguments, fetch or search failure); the text then says why. */
  isError: boolean;
}

/**
 * What a host needs to serve the two tools: each call returns the rendered, bounded, framed text the
 * model reads. Arguments arrive unvalidated; the implementation validates them with
 * `parseToolArguments` and answers an invalid call with `{ isError: true, text: 'invalid arguments: …' }`.
 */
export interface WebTools {
  /** Runs one WebSearch call. */
  webSearch(args: unknown, options?: ToolCallOptions): Promise<ToolCallResult>;
  /** Runs one WebFetch call. */
  webFetch(args: unknown, options?: ToolCallOptions): Promise<ToolCallResult>;
}
