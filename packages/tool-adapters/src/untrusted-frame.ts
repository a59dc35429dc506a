/** Opens the ranked results of WebSearch. */
export const SEARCH_RESULTS_BEGIN = '[BEGIN UNTRUSTED WEB SEARCH RESULTS]';
/** Closes the ranked results of WebSearch. */
export const SEARCH_RESULTS_END = '[END UNTRUSTED WEB SEARCH RESULTS]';
/** Opens a fetched document. */
export const WEB_CONTENT_BEGIN = '[BEGIN UNTRUSTED WEB CONTENT]';
/** Closes a fetched document. */
export const WEB_CONTENT_END = '[END UNTRUSTED WEB CONTENT]';
/** Opens the sample the bloat guard keeps of an oversized tool result. */
export const TOOL_OUTPUT_SAMPLE_BEGIN = '[BEGIN UNTRUSTED TOOL OUTPUT SAMPLE]';
/** Closes the sample the bloat guard keeps of an oversized tool result. */
export const TOOL_OUTPUT_SAMPLE_END = '[END UNTRUSTED TOOL OUTPUT SAMPLE]';

// Anything that reads like a frame marker: brackets (ASCII or full-width), BEGIN/END, then UNTRUSTED.
const MARKER_LIKE = /[[［]\s*(BEGIN|END)\W+UNTRUSTED\b([^\]］\n]{0,200})[\]］]?/giu;

/**
 * Makes untrusted text unable to close or forge a frame. Rather than a per-call nonce (which a model
 * cannot verify), every marker-like sequence in the text is rewritten to
 * `(neutralized marker: END UNTRUSTED …)`: it stays readable, but no longer starts with `[` and so
 * never equals a real marker. Real markers are only ever written by the renderers.
 */
export function neutralizeMarkers(text: string): string {
  return text.replace(
    MARKER_LIKE,
    (_match, edge: string, rest: string) =>
      `(neutralized marker: ${edge.toUpperCase()} UNTRUSTED${rest.trimEnd()})`,
  );
}

/** Wraps already-neutralized text in a frame. */
export function frame(begin: string, end: string, body: string): string {
  return `${begin}\n${body}\n${end}`;
}
