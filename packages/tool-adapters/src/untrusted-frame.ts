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
 * The explicit bidirectional formatting characters: embeddings and overrides (U+202A–U+202E) and
 * isolates (U+2066–U+2069). Each makes a viewer draw a stretch of text in an order other than the one
 * it is stored in, so stored text that spells no marker could be shown as one
 * (`]TNETNOC BEW DETSURTNU DNE[` under a right-to-left override). The implicit marks (U+200E,
 * U+200F, U+061C) stay: they set the direction of punctuation in ordinary right-to-left prose and
 * reverse no run of letters.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const HAS_BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * Removes every bidirectional formatting character (see {@link BIDI_CONTROLS}), so untrusted text
 * is drawn in the order it is stored and read in; text without one comes back as the same string.
 */
export function neutralizeBidiControls(text: string): string {
  return HAS_BIDI_CONTROL.test(text) ? text.replace(BIDI_CONTROLS, '') : text;
}

/**
 * Makes untrusted text unable to close or forge a frame. Rather than a per-call nonce (which a model
 * cannot verify), every sequence a reader would take for a frame marker — exact, or disguised with
 * invisible characters, look-alike letters, full-width or mathematical forms, other separators or
 * brackets, escapes (see {@link findMarkerSpans}) — is rewritten to
 * `(neutralized marker: closing untrusted web content)`. The rewrite names what the page contained
 * but spells neither `BEGIN` nor `END` next to `UNTRUSTED`, so it never matches again. Bidirectional
 * formatting characters are removed first ({@link neutralizeBidiControls}). Text that
 * is not marker-like, in any language, comes back unchanged (the same string).
 */
export function neutralizeMarkers(untrusted: string): string {
  // Bidi controls go first: a viewer could otherwise reorder text into a marker the scan never saw.
  const text = neutralizeBidiControls(untrusted);
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
