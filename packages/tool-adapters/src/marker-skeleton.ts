import {
  CONFUSABLE_LETTERS,
  EXTRA_CLOSERS,
  EXTRA_OPENERS,
  LETTER_RANGES,
  VERTICAL_STROKES,
} from './marker-confusables.js';
import { decodeEscape } from './marker-escapes.js';

/**
 * The skeleton of a text: what a reader sees once look-alikes are set aside, spelled in a small
 * ASCII alphabet, with the position in the original text of every skeleton character.
 *
 * Alphabet: `A`–`Z` and digits (compatibility forms folded, accents dropped, confusable letters
 * mapped, `L` merged into `I`, `0` into `O`, `W` spelled `VV`), `|` for a vertical stroke (a letter
 * or a separator), `[` for any opening bracket, `]` for any closing one, `#` for any other letter or
 * digit, a space for a run of separators (white space, dashes, underscores, other punctuation and
 * symbols), a newline for a run that contains a line break (a run is always one character). Invisible characters (format and bidi
 * controls, joiners, variation selectors, tag characters, combining marks) produce nothing.
 */
export interface Skeleton {
  /** The skeleton text. */
  text: string;
  /** For each skeleton character, the index in the original text where its source starts. */
  starts: Int32Array;
  /** For each skeleton character, the index in the original text just after its source. */
  ends: Int32Array;
}

// How one source character is spelled in the skeleton, packed in a number so the hot loop reads a
// typed array: 0 means not computed yet, DROPPED means nothing, a value below MULTIPLE is one
// skeleton character code plus one, and MULTIPLE + n is entry n of `spellings`.
const DROPPED = 0xffff;
const MULTIPLE = 0x100;
const bmpSpelling = new Uint16Array(0x10000);
const astralSpelling = new Map<number, number>();
const spellings: string[] = [];
const spellingIds = new Map<string, number>();

const SEPARATOR = 32; // ' '
const LINE_BREAK = 10; // '\n'
const STROKE = 124; // '|'

const INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}\p{Cs}]$/u;
const LINE_BREAKS = /^[\n\v\f\r\u0085\u2028\u2029]$/u;
const WHITE_SPACE = /^[\s\p{Z}]$/u;
const CONTROL = /^\p{Cc}$/u;
const OPENER = /^\p{Ps}$/u;
const CLOSER = /^\p{Pe}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK = /\p{M}/gu;

function spellCharacter(character: string): string {
  if (LINE_BREAKS.test(character)) return '\n';
  if (WHITE_SPACE.test(character)) return ' ';
  if (CONTROL.test(character) || INVISIBLE.test(character)) return '';
  if (VERTICAL_STROKES.has(character)) return '|';
  if (OPENER.test(character) || EXTRA_OPENERS.has(character)) return '[';
  if (CLOSER.test(character) || EXTRA_CLOSERS.has(character)) return ']';
  const code = character.codePointAt(0)!;
  return code < 0x80 ? spellAsciiCharacter(character) : spellOtherCharacter(character, code);
}

// An ASCII character that is neither a gap nor a bracket: letters in capitals, with the merges the
// alphabet makes, digits as themselves, anything else a separator.
function spellAsciiCharacter(character: string): string {
  const upper = character.toUpperCase();
  if (upper >= 'A' && upper <= 'Z') return upper === 'L' ? 'I' : upper === 'W' ? 'VV' : upper;
  if (character === '0') return 'O';
  if (character === '1') return 'I';
  if (character >= '2' && character <= '9') return character;
  return ' ';
}

// A character outside ASCII that is neither a gap nor a bracket: a look-alike or a letter-like
// symbol (a negative circled or squared capital, a regional indicator) is spelled as the Latin
// letter it shows, any other letter or digit as `#`, anything else as a separator.
function spellOtherCharacter(character: string, code: number): string {
  const confusable = CONFUSABLE_LETTERS.get(character);
  if (confusable !== undefined) return spellCharacter(confusable);
  for (const range of LETTER_RANGES) {
    if (code >= range.first && code <= range.last)
      return spellCharacter(String.fromCharCode(65 + ((code - range.first) % 26)));
  }
  return LETTER_OR_DIGIT.test(character) ? '#' : ' ';
}

/** The skeleton spelling of one code point: compatibility-folded, accents dropped, then mapped. */
export function spellCodePoint(codePoint: number): string {
  const character = String.fromCodePoint(codePoint);
  if (INVISIBLE.test(character)) return '';
  // Some look-alikes fold to another letter that is not one (lunate sigma Ϲ folds to Σ).
  const confusable = CONFUSABLE_LETTERS.get(character);
  if (confusable !== undefined) return spellCharacter(confusable);
  // Folding first turns full-width, mathematical, circled and superscript forms into plain ones;
  // decomposing then lets accents fall away as combining marks.
  const folded = character.normalize('NFKC').normalize('NFD').replace(MARK, '');
  let spelled = '';
  for (const piece of folded) spelled += spellCharacter(piece);
  return spelled;
}

function spellingOf(codePoint: number): number {
  const cached = codePoint < 0x10000 ? bmpSpelling[codePoint]! : (astralSpelling.get(codePoint) ?? 0);
  if (cached !== 0) return cached;
  const spelled = spellCodePoint(codePoint);
  let packed: number;
  if (spelled === '') packed = DROPPED;
  else if (spelled.length === 1) packed = spelled.charCodeAt(0) + 1;
  else {
    let id = spellingIds.get(spelled);
    if (id === undefined) {
      id = spellings.length;
      spellings.push(spelled);
      spellingIds.set(spelled, id);
    }
    packed = MULTIPLE + id;
  }
  if (codePoint < 0x10000) bmpSpelling[codePoint] = packed;
  else astralSpelling.set(codePoint, packed);
  return packed;
}

/** A code point as a reader sees it in the source, and how many UTF-16 units it takes there. */
interface SourceCharacter {
  codePoint: number;
  width: number;
}

// Reads the code point at `index` into `into`: an escape decoded, a surrogate pair joined, any other
// unit (a lone surrogate too) as itself. The walks reuse one `into` for every character, so reading
// allocates nothing.
function readSourceCharacter(text: string, index: number, into: SourceCharacter): void {
  const unit = text.charCodeAt(index);
  into.codePoint = unit;
  into.width = 1;
  if (unit === 0x25 || unit === 0x5c || unit === 0x26) {
    const decoded = decodeEscape(text, index);
    if (decoded !== undefined) {
      into.codePoint = decoded.codePoint;
      into.width = decoded.length;
    }
  } else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
    const low = text.charCodeAt(index + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      into.codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
      into.width = 2;
    }
  }
}

// The packed spelling of a code point. The walks ask for one per character, so the typed array
// answers first and only a miss (or a code point outside the BMP) goes through spellingOf.
function packedSpelling(codePoint: number): number {
  const packed = codePoint < 0x10000 ? bmpSpelling[codePoint]! : 0;
  return packed === 0 ? spellingOf(codePoint) : packed;
}

// Separators, line breaks and vertical strokes: the characters a reader skips between the letters
// of a word, of which the skeleton keeps one per run.
function isGap(code: number): boolean {
  return code === SEPARATOR || code === LINE_BREAK || code === STROKE;
}

/**
 * Whether every character of `text` outside ASCII spells nothing or only gaps (typographic quotes
 * and dashes, no-break spaces, zero-width characters, emoji): then only its ASCII letters can spell a
 * marker's words, and a search of the raw text stands in for a search of its skeleton.
 */
export function onlyAsciiSpellsLetters(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) continue;
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
      }
    }
    const packed = packedSpelling(codePoint);
    if (packed === DROPPED) continue;
    if (packed < MULTIPLE) {
      const code = packed - 1;
      if (code === SEPARATOR || code === LINE_BREAK) continue;
      return false;
    }
    if (!/^[ \n]*$/.test(spellings[packed - MULTIPLE]!)) return false;
  }
  return true;
}

/** Where an anchor word was found, widened to hold any marker around it. */
export interface AnchorWindow {
  /** Index in the original text where the window starts. */
  start: number;
  /** Index in the original text just after the window. */
  end: number;
}

/**
 * Finds where the skeleton of `text` holds the letters of `word` in order with nothing but gaps
 * between them (`UNTRUST` finds `U N\u200bT-R|UST`), each widened to `before` skeleton characters
 * before the word and `after` after it; overlapping windows are merged. A streaming walk that builds
 * no skeleton, so text without the anchor of every marker costs one pass.
 */
export function findAnchorWindows(text: string, word: string, before: number, after: number): AnchorWindow[] {
  const matcher = new AnchorMatcher(word, before, after);
  const source: SourceCharacter = { codePoint: 0, width: 0 };
  let index = 0;
  while (index < text.length) {
    const start = index;
    readSourceCharacter(text, index, source);
    index += source.width;
    const packed = packedSpelling(source.codePoint);
    if (packed === DROPPED) continue;
    if (packed < MULTIPLE) {
      matcher.push(packed - 1, start, index);
      continue;
    }
    const spelled = spellings[packed - MULTIPLE]!;
    for (let offset = 0; offset < spelled.length; offset += 1)
      matcher.push(spelled.charCodeAt(offset), start, index);
  }
  return matcher.finish(text.length);
}

/**
 * The state of {@link findAnchorWindows} between skeleton characters: how much of the word the
 * latest characters match, where the recent ones started, and the window still open.
 */
class AnchorMatcher {
  readonly #letters: number[];
  // Knuth-Morris-Pratt fall-back table, so a repeated letter (the two Us of UNTRUST) is not missed.
  readonly #fallback: Int32Array;
  readonly #after: number;
  // Where the last skeleton characters started, as a ring of a power-of-two size.
  readonly #ringSize: number;
  readonly #mask: number;
  readonly #recent: Int32Array;
  readonly #windows: AnchorWindow[] = [];
  #seen = 0;
  #matched = 0;
  #previousGap = false;
  #openStart = -1;
  #remaining = 0;

  constructor(word: string, before: number, after: number) {
    this.#letters = [...word].map((letter) => letter.charCodeAt(0));
    this.#fallback = fallbackTable(this.#letters);
    this.#after = after;
    let ringSize = 1;
    while (ringSize < before) ringSize *= 2;
    this.#ringSize = ringSize;
    this.#mask = ringSize - 1;
    this.#recent = new Int32Array(ringSize);
  }

  /** Takes the next skeleton character, spelled from the source characters in `[start, end)`. */
  push(code: number, start: number, end: number): void {
    const gap = isGap(code);
    if (gap && this.#previousGap) return;
    this.#previousGap = gap;
    // Counted as the skeleton counts: a run of gaps is one character.
    this.#recent[this.#seen & this.#mask] = start;
    this.#seen += 1;
    if (this.#openStart >= 0 && --this.#remaining <= 0) {
      this.#windows.push({ start: this.#openStart, end });
      this.#openStart = -1;
    }
    if (!gap && this.#completesWord(code)) this.#open();
  }

  /** The windows found, the one still open running to the end of the text. */
  finish(textLength: number): AnchorWindow[] {
    if (this.#openStart >= 0) this.#windows.push({ start: this.#openStart, end: textLength });
    return this.#windows;
  }

  // One Knuth-Morris-Pratt step: whether `code` is the last letter of a whole occurrence.
  #completesWord(code: number): boolean {
    const letters = this.#letters;
    let matched = this.#matched;
    while (matched > 0 && letters[matched] !== code) matched = this.#fallback[matched - 1]!;
    if (letters[matched] !== code) {
      this.#matched = matched;
      return false;
    }
    matched += 1;
    const complete = matched === letters.length;
    this.#matched = complete ? 0 : matched;
    return complete;
  }

  // Unless a window is open already, opens one at the oldest start the ring remembers (or at the
  // text's start), or reopens the previous one when the two would overlap; either way the window
  // then stays open for `after` more characters.
  #open(): void {
    if (this.#openStart < 0) {
      this.#openStart = this.#seen > this.#ringSize ? this.#recent[this.#seen & this.#mask]! : 0;
      const last = this.#windows.at(-1);
      if (last !== undefined && last.end >= this.#openStart) {
        this.#windows.pop();
        this.#openStart = last.start;
      }
    }
    this.#remaining = this.#after;
  }
}

function fallbackTable(letters: readonly number[]): Int32Array {
  const fallback = new Int32Array(letters.length);
  for (let index = 1, length = 0; index < letters.length; ) {
    if (letters[index] === letters[length]) fallback[index++] = ++length;
    else if (length > 0) length = fallback[length - 1]!;
    else fallback[index++] = 0;
  }
  return fallback;
}

function asciiString(codes: Uint8Array, length: number): string {
  let text = '';
  for (let offset = 0; offset < length; offset += ASCII_CHUNK) {
    text += String.fromCharCode.apply(
      null,
      codes.subarray(offset, Math.min(length, offset + ASCII_CHUNK)) as never,
    );
  }
  return text;
}
const ASCII_CHUNK = 8192;

/**
 * Builds the {@link Skeleton} of `text`. Each code point (or escape sequence) is spelled on its
 * own, so the skeleton of a prefix is a prefix of the skeleton: cutting text can remove a
 * marker-like sequence but never create one.
 */
export function buildSkeleton(text: string): Skeleton {
  const builder = new SkeletonBuilder(text.length + 32);
  const source: SourceCharacter = { codePoint: 0, width: 0 };
  let index = 0;
  while (index < text.length) {
    readSourceCharacter(text, index, source);
    const end = index + source.width;
    const packed = packedSpelling(source.codePoint);
    if (packed < MULTIPLE) builder.push(packed - 1, index, end);
    else if (packed !== DROPPED) {
      const spelled = spellings[packed - MULTIPLE]!;
      // Room for this spelling and for one character per source unit still to come.
      builder.reserve(spelled.length + (text.length - end));
      for (let offset = 0; offset < spelled.length; offset += 1)
        builder.push(spelled.charCodeAt(offset), index, end);
    }
    index = end;
  }
  return builder.finish();
}

/** The skeleton of {@link buildSkeleton} as it grows, one character at a time. */
class SkeletonBuilder {
  #capacity: number;
  #codes: Uint8Array;
  #starts: Int32Array;
  #ends: Int32Array;
  #length = 0;
  #previousGap = false;

  // One source unit spells at most one character except for multi-character spellings, which
  // make room for themselves and for the rest of the text.
  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#codes = new Uint8Array(capacity);
    this.#starts = new Int32Array(capacity);
    this.#ends = new Int32Array(capacity);
  }

  /** Makes room for `count` more characters. */
  reserve(count: number): void {
    const needed = this.#length + count;
    if (needed <= this.#capacity) return;
    this.#capacity = Math.max(this.#capacity * 2, needed + 32);
    const codes = new Uint8Array(this.#capacity);
    codes.set(this.#codes.subarray(0, this.#length));
    const starts = new Int32Array(this.#capacity);
    starts.set(this.#starts.subarray(0, this.#length));
    const ends = new Int32Array(this.#capacity);
    ends.set(this.#ends.subarray(0, this.#length));
    this.#codes = codes;
    this.#starts = starts;
    this.#ends = ends;
  }

  /** Appends skeleton character `code`, spelled from the source characters in `[start, end)`. */
  push(code: number, start: number, end: number): void {
    const gap = isGap(code);
    if (gap && this.#previousGap) {
      // A run of gaps is one gap, so the matcher never backtracks through long runs; a lone
      // vertical stroke stays a stroke, anything longer is a separator.
      const last = this.#length - 1;
      this.#codes[last] = code === LINE_BREAK || this.#codes[last] === LINE_BREAK ? LINE_BREAK : SEPARATOR;
      this.#ends[last] = end;
      return;
    }
    this.#codes[this.#length] = code;
    this.#starts[this.#length] = start;
    this.#ends[this.#length] = end;
    this.#length += 1;
    this.#previousGap = gap;
  }

  finish(): Skeleton {
    return {
      text: asciiString(this.#codes, this.#length),
      starts: this.#starts.subarray(0, this.#length),
      ends: this.#ends.subarray(0, this.#length),
    };
  }
}
