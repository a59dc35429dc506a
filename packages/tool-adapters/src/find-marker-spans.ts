import {
  buildSkeleton,
  findAnchorWindows,
  onlyAsciiSpellsLetters,
  spellCodePoint,
} from './marker-skeleton.js';

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

// A marker-like sequence is BEGIN or END, then UNTRUSTED, with either an opening bracket before it
// (`[END UNTRUSTED anything`) or one of the renderers' frame names after it (`END UNTRUSTED WEB
// CONTENT`, bracket or not). Prose such as "to end untrusted access" matches neither. Built at the
// first text that needs it (spelling every letter's look-alikes takes a few milliseconds).
let markerPattern: RegExp | undefined;
function markerPatternOf(): RegExp {
  if (markerPattern === undefined) {
    const names = FRAME_NAMES.map((name) => `(${wordPattern(name)})`).join('|');
    markerPattern = new RegExp(
      `(\\[${GAP})?(${wordPattern('BEGIN')}|${wordPattern('END')})${GAP}${wordPattern('UNTRUSTED')}(?:${GAP}(?:${names}))?`,
      'g',
    );
  }
  return markerPattern;
}
const CLOSING_GAP = /[ \n|]?\]/y;
const WORD_CHARACTER = /[A-Z0-9#|]/;

// Every marker holds UNTRUSTED. Text free of escapes whose non-ASCII characters spell no letter
// (quotes, dashes, spaces, invisible characters, emoji) can only hold it if its ASCII letters spell
// UNTRUST with nothing but other characters between them, which a native regular expression
// answers at about the speed of a plain scan; a vertical stroke is not a letter of UNTRUST, so
// counting it among the others is exact. Other text is walked through the skeleton
// spelling without building it, noting where UNTRUST occurs; only windows around those occurrences
// get a skeleton. A window reaches far enough to hold any marker around its UNTRUST (an opening
// bracket and BEGIN with gaps, the longest frame name and closing bracket after it), so matching
// in windows finds exactly what matching the whole text would.
const ESCAPE = /%[0-9a-f]{2}|\\u[0-9a-f{]|\\x[0-9a-f]{2}|&#?\w+;/i;
const ASCII_UNTRUST = /u[^a-z0-9]*n[^a-z0-9]*t[^a-z0-9]*r[^a-z0-9]*u[^a-z0-9]*s[^a-z0-9]*t/i;
const ANCHOR = 'UNTRUST';
/** Skeleton characters kept before the end of an anchor: the anchor with gaps, then `[ B E G I N `. */
const WINDOW_BEFORE = 48;
/** Skeleton characters kept after an anchor: `ED`, the longest frame name with gaps, `]`, and slack. */
const WINDOW_AFTER = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
const NON_ASCII = /[^\x00-\x7f]/;

function mayBeMarkerText(text: string): boolean {
  if (ESCAPE.test(text)) return true;
  // The native test answers the common all-ASCII case without walking the text in JavaScript.
  if (NON_ASCII.test(text) && !onlyAsciiSpellsLetters(text)) return true;
  return ASCII_UNTRUST.test(text);
}

/** Whether `text` may hold a marker-like sequence; `false` is certain, `true` needs the full scan. */
export function mayContainMarker(text: string): boolean {
  return mayBeMarkerText(text) && findAnchorWindows(text, ANCHOR, WINDOW_BEFORE, WINDOW_AFTER).length > 0;
}

/**
 * Finds every sequence of `text` that a reader would take for a frame marker, whatever its
 * disguise: invisible or bidi characters inside it, full-width or mathematical letters, Cyrillic or
 * Greek look-alikes, any case, `_` or `-` or other separators between words or letters, escapes
 * (`%5B`, `\u005B`, `&#91;`), any opening bracket. The match runs on the text's skeleton and is
 * mapped back to original indices; spans do not overlap and come in order.
 */
export function findMarkerSpans(text: string): MarkerSpan[] {
  if (!mayBeMarkerText(text)) return [];
  const spans: MarkerSpan[] = [];
  for (const window of findAnchorWindows(text, ANCHOR, WINDOW_BEFORE, WINDOW_AFTER)) {
    spans.push(...findSpansIn(text, window.start, window.end));
  }
  return spans;
}

/**
 * Matches `text[from, to)` on its skeleton, without looking for anchors first. A window starts at
 * the text's start or well before any marker in it, so its first character is a word boundary
 * either way. Exported for the tests that hold the windowed search to the whole-text one.
 */
export function findSpansIn(text: string, from: number, to: number): MarkerSpan[] {
  const skeleton = buildSkeleton(from === 0 && to === text.length ? text : text.slice(from, to));
  const letters = skeleton.text;
  const spans: MarkerSpan[] = [];
  // The end of the previous span: text right after a rewritten span starts a fresh word.
  let boundary = 0;
  const pattern = markerPatternOf();
  pattern.lastIndex = 0;
  for (let match = pattern.exec(letters); match !== null; match = pattern.exec(letters)) {
    const [whole, opener, keyword] = match;
    const nameIndex = match.slice(3).findIndex((group) => group !== undefined);
    const start = match.index;
    const precededByWord = start > boundary && WORD_CHARACTER.test(letters[start - 1]!);
    if (opener === undefined && (nameIndex < 0 || precededByWord)) {
      pattern.lastIndex = start + 1;
      continue;
    }
    let end = start + whole.length;
    CLOSING_GAP.lastIndex = end;
    // A closing bracket right after the words belongs to the marker; unknown words after
    // `[END UNTRUSTED` are left in place, so nothing the page said is swallowed.
    if (CLOSING_GAP.test(letters)) end = CLOSING_GAP.lastIndex;
    spans.push({
      start: from + skeleton.starts[start]!,
      end: from + skeleton.ends[end - 1]!,
      edge: keyword!.startsWith('B') ? 'begin' : 'end',
      ...(nameIndex < 0 ? {} : { frameName: FRAME_NAMES[nameIndex]! }),
    });
    boundary = end;
    pattern.lastIndex = end;
  }
  return spans;
}
