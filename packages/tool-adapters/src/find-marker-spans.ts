import { buildSkeleton, skeletonHasWord, spellCodePoint } from './marker-skeleton.js';

/** The edge a marker-like sequence claims to be. */
export type MarkerEdge = 'begin' | 'end';

/** One marker-like sequence found in a text. */
export interface MarkerSpan {
  /** Index in the original text where the sequence starts. */
  start: number;
  /** Index in the original text just after the sequence. */
  end: number;
  /** Whether it reads as an opening (`BEGIN`) or a closing (`END`) marker. */
  edge: MarkerEdge;
  /** The frame it names, lower-case (`web content`), when it names one the renderers write. */
  frameName?: string;
}

/** The names of the frames the renderers write, after `BEGIN UNTRUSTED` / `END UNTRUSTED`. */
export const FRAME_NAMES = ['web content', 'web search results', 'tool output sample'] as const;

// Between any two letters of a marker a reader skips separators and vertical strokes, so
// `E N D`, `END_UNTRUSTED` and `END|UNTRUSTED` all count; a vertical stroke may also be a letter I.
// The skeleton spells a whole run of gaps as one character, so one optional character suffices and
// the pattern cannot backtrack through long runs.
const GAP = '[ \\n|]?';

function wordPattern(word: string): string {
  const letters = [...word.replace(/ /g, '')].flatMap((character) => [
    ...spellCodePoint(character.codePointAt(0)!),
  ]);
  return letters.map((letter) => (letter === 'I' ? '[I|]' : letter)).join(GAP);
}

const NAME_PATTERNS = FRAME_NAMES.map((name) => `(${wordPattern(name)})`).join('|');

// A marker-like sequence is BEGIN or END, then UNTRUSTED, with either an opening bracket before it
// (`[END UNTRUSTED anything`) or one of the renderers' frame names after it (`END UNTRUSTED WEB
// CONTENT`, bracket or not). Prose such as "to end untrusted access" matches neither.
const MARKER_PATTERN = new RegExp(
  `(\\[${GAP})?(${wordPattern('BEGIN')}|${wordPattern('END')})${GAP}${wordPattern('UNTRUSTED')}(?:${GAP}(?:${NAME_PATTERNS}))?`,
  'g',
);
const CLOSING_GAP = /[ \n|]?\]/y;
const WORD_CHARACTER = /[A-Z0-9#|]/;

// Every marker holds UNTRUSTED. Text that is entirely ASCII and free of escapes can only hold it if
// its letters spell UNTRUST with nothing but non-alphanumerics between them, which a native regular
// expression answers at about the speed of a plain scan; other text is walked through the skeleton
// spelling without building it.
const NON_ASCII = /[^\p{ASCII}]/u;
const ESCAPE = /%[0-9a-f]{2}|\\u[0-9a-f{]|\\x[0-9a-f]{2}|&#?\w+;/i;
const ASCII_UNTRUST = /u[^a-z0-9]*n[^a-z0-9]*t[^a-z0-9]*r[^a-z0-9]*u[^a-z0-9]*s[^a-z0-9]*t/i;
const ANCHOR = 'UNTRUST';

/** Whether `text` may hold a marker-like sequence; `false` is certain, `true` needs the full scan. */
export function mayContainMarker(text: string): boolean {
  // Without the case-insensitive flag: under it, the long s and the Kelvin sign would count as ASCII.
  if (!NON_ASCII.test(text) && !ESCAPE.test(text)) return ASCII_UNTRUST.test(text);
  return skeletonHasWord(text, ANCHOR);
}

/**
 * Finds every sequence of `text` that a reader would take for a frame marker, whatever its
 * disguise: invisible or bidi characters inside it, full-width or mathematical letters, Cyrillic or
 * Greek look-alikes, any case, `_` or `-` or other separators between words or letters, escapes
 * (`%5B`, `\u005B`, `&#91;`), any opening bracket. The match runs on the text's skeleton and is
 * mapped back to original indices; spans do not overlap and come in order.
 */
export function findMarkerSpans(text: string): MarkerSpan[] {
  if (!mayContainMarker(text)) return [];
  const skeleton = buildSkeleton(text);
  const letters = skeleton.text;
  const spans: MarkerSpan[] = [];
  // The end of the previous span: text right after a rewritten span starts a fresh word.
  let boundary = 0;
  MARKER_PATTERN.lastIndex = 0;
  for (let match = MARKER_PATTERN.exec(letters); match !== null; match = MARKER_PATTERN.exec(letters)) {
    const [whole, opener, keyword] = match;
    const nameIndex = match.slice(3).findIndex((group) => group !== undefined);
    const start = match.index;
    const precededByWord = start > boundary && WORD_CHARACTER.test(letters[start - 1]!);
    if (opener === undefined && (nameIndex < 0 || precededByWord)) {
      MARKER_PATTERN.lastIndex = start + 1;
      continue;
    }
    let end = start + whole.length;
    CLOSING_GAP.lastIndex = end;
    // A closing bracket right after the words belongs to the marker; unknown words after
    // `[END UNTRUSTED` are left in place, so nothing the page said is swallowed.
    if (CLOSING_GAP.test(letters)) end = CLOSING_GAP.lastIndex;
    spans.push({
      start: skeleton.starts[start]!,
      end: skeleton.ends[end - 1]!,
      edge: keyword!.startsWith('B') ? 'begin' : 'end',
      ...(nameIndex < 0 ? {} : { frameName: FRAME_NAMES[nameIndex]! }),
    });
    boundary = end;
    MARKER_PATTERN.lastIndex = end;
  }
  return spans;
}
