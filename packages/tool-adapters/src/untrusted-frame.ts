import { findMarkerSpans, type MarkerSpan } from './find-marker-spans.js';

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

/**
 * Makes untrusted text unable to close or forge a frame. Rather than a per-call nonce (which a model
 * cannot verify), every sequence a reader would take for a frame marker — exact, or disguised with
 * invisible characters, look-alike letters, full-width or mathematical forms, other separators or
 * brackets, escapes (see {@link findMarkerSpans}) — is rewritten to
 * `(neutralized marker: closing untrusted web content)`. The rewrite names what the page contained
 * but spells neither `BEGIN` nor `END` next to `UNTRUSTED`, so it never matches again; text that
 * is not marker-like, in any language, comes back unchanged (the same string).
 */
export function neutralizeMarkers(text: string): string {
  const spans = findMarkerSpans(text);
  if (spans.length === 0) return text;
  let result = '';
  let position = 0;
  for (const span of spans) {
    result += text.slice(position, span.start) + neutralizedMarker(span);
    position = span.end;
  }
  return result + text.slice(position);
}

function neutralizedMarker(span: MarkerSpan): string {
  const edge = span.edge === 'begin' ? 'opening' : 'closing';
  return `(neutralized marker: ${edge} untrusted${span.frameName === undefined ? '' : ` ${span.frameName}`})`;
}

/**
 * Wraps text in a frame. The body is neutralized once more as a whole, so a marker assembled across
 * separately neutralized fields (a title ending in `[END`, content starting with `UNTRUSTED`) cannot
 * close the frame either; for already-neutralized text this is a scan that changes nothing.
 */
export function frame(begin: string, end: string, body: string): string {
  return `${begin}\n${neutralizeMarkers(body)}\n${end}`;
}
