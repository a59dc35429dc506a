import {
  CONFUSABLE_LETTERS,
  EXTRA_CLOSERS,
  EXTRA_OPENERS,
  LETTER_RANGES,
  VERTICAL_STROKES,
} from './marker-confusables.js';

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
  if (code < 0x80) {
    const upper = character.toUpperCase();
    if (upper >= 'A' && upper <= 'Z') return upper === 'L' ? 'I' : upper === 'W' ? 'VV' : upper;
    if (character === '0') return 'O';
    if (character === '1') return 'I';
    if (character >= '2' && character <= '9') return character;
    return ' ';
  }
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

const HEX = /^[0-9a-f]+$/i;
const NAMED_ESCAPES: Readonly<Record<string, number>> = {
  lsqb: 0x5b,
  lbrack: 0x5b,
  rsqb: 0x5d,
  rbrack: 0x5d,
  lowbar: 0x5f,
  UnderBar: 0x5f,
  hyphen: 0x2010,
  dash: 0x2010,
  nbsp: 0xa0,
  ensp: 0x2002,
  emsp: 0x2003,
  thinsp: 0x2009,
  shy: 0xad,
  zwj: 0x200d,
  zwnj: 0x200c,
  lrm: 0x200e,
  rlm: 0x200f,
  ZeroWidthSpace: 0x200b,
  NoBreak: 0x2060,
  lang: 0x27e8,
  rang: 0x27e9,
};

function hexValue(text: string, start: number, length: number): number {
  const digits = text.slice(start, start + length);
  return digits.length === length && HEX.test(digits) ? Number.parseInt(digits, 16) : -1;
}

// A reader decodes escapes without thinking: `%5B`, `\u005B` and `&#91;` are all a bracket to a
// model that reads URLs, JSON or HTML source. Returns the code point and the length of the escape.
function decodeEscape(text: string, index: number): { codePoint: number; length: number } | undefined {
  const lead = text.charCodeAt(index);
  if (lead === 0x25 /* % */) {
    const first = hexValue(text, index + 1, 2);
    if (first < 0) return undefined;
    if (first < 0x80) return { codePoint: first, length: 3 };
    const continuation = first >= 0xf0 ? 3 : first >= 0xe0 ? 2 : first >= 0xc0 ? 1 : -1;
    if (continuation < 0) return undefined;
    let codePoint = first & (0x3f >> continuation);
    for (let byte = 1; byte <= continuation; byte += 1) {
      const offset = index + byte * 3;
      if (text.charCodeAt(offset) !== 0x25) return undefined;
      const value = hexValue(text, offset + 1, 2);
      if (value < 0x80 || value > 0xbf) return undefined;
      codePoint = (codePoint << 6) | (value & 0x3f);
    }
    return codePoint <= 0x10ffff ? { codePoint, length: 3 * (continuation + 1) } : undefined;
  }
  if (lead === 0x5c /* \ */) {
    const kind = text[index + 1];
    if (kind === 'x') {
      const value = hexValue(text, index + 2, 2);
      return value < 0 ? undefined : { codePoint: value, length: 4 };
    }
    if (kind !== 'u') return undefined;
    if (text[index + 2] === '{') {
      const close = text.indexOf('}', index + 3);
      if (close < 0 || close - index > 10) return undefined;
      const value = hexValue(text, index + 3, close - index - 3);
      return value < 0 || value > 0x10ffff ? undefined : { codePoint: value, length: close - index + 1 };
    }
    const high = hexValue(text, index + 2, 4);
    if (high < 0) return undefined;
    if (high >= 0xd800 && high <= 0xdbff && text[index + 6] === '\\' && text[index + 7] === 'u') {
      const low = hexValue(text, index + 8, 4);
      if (low >= 0xdc00 && low <= 0xdfff)
        return { codePoint: 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00), length: 12 };
    }
    return { codePoint: high, length: 6 };
  }
  if (lead === 0x26 /* & */) {
    const close = text.indexOf(';', index + 1);
    if (close < 0 || close - index > 16) return undefined;
    const name = text.slice(index + 1, close);
    let codePoint: number | undefined;
    if (name.startsWith('#x') || name.startsWith('#X')) codePoint = hexValue(name, 2, name.length - 2);
    else if (name.startsWith('#') && /^#\d+$/.test(name)) codePoint = Number.parseInt(name.slice(1), 10);
    else codePoint = NAMED_ESCAPES[name];
    return codePoint === undefined || codePoint < 0 || codePoint > 0x10ffff
      ? undefined
      : { codePoint, length: close - index + 1 };
  }
  return undefined;
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
    let packed = codePoint < 0x10000 ? bmpSpelling[codePoint]! : 0;
    if (packed === 0) packed = spellingOf(codePoint);
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
  const letters = [...word].map((letter) => letter.charCodeAt(0));
  // Knuth-Morris-Pratt fall-back table, so a repeated letter (the two Us of UNTRUST) is not missed.
  const fallback = new Int32Array(letters.length);
  for (let index = 1, length = 0; index < letters.length; ) {
    if (letters[index] === letters[length]) fallback[index++] = ++length;
    else if (length > 0) length = fallback[length - 1]!;
    else fallback[index++] = 0;
  }
  const windows: AnchorWindow[] = [];
  // Where the last skeleton characters started, as a ring of a power-of-two size.
  let ringSize = 1;
  while (ringSize < before) ringSize *= 2;
  const mask = ringSize - 1;
  const recent = new Int32Array(ringSize);
  let seen = 0;
  let matched = 0;
  let previousGap = false;
  let openStart = -1;
  let remaining = 0;
  let index = 0;
  let spelled = '';
  let offset = 0;
  let sourceStart = 0;
  while (index < text.length || offset < spelled.length) {
    let code: number;
    if (offset < spelled.length) code = spelled.charCodeAt(offset++);
    else {
      sourceStart = index;
      const unit = text.charCodeAt(index);
      let codePoint = unit;
      let width = 1;
      if (unit === 0x25 || unit === 0x5c || unit === 0x26) {
        const decoded = decodeEscape(text, index);
        if (decoded !== undefined) {
          codePoint = decoded.codePoint;
          width = decoded.length;
        }
      } else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
        const low = text.charCodeAt(index + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
          width = 2;
        }
      }
      index += width;
      let packed = codePoint < 0x10000 ? bmpSpelling[codePoint]! : 0;
      if (packed === 0) packed = spellingOf(codePoint);
      if (packed === DROPPED) continue;
      if (packed >= MULTIPLE) {
        spelled = spellings[packed - MULTIPLE]!;
        offset = 0;
        continue;
      }
      code = packed - 1;
    }
    const gap = code === SEPARATOR || code === LINE_BREAK || code === STROKE;
    if (gap && previousGap) continue;
    previousGap = gap;
    // Counted as the skeleton counts: a run of gaps is one character.
    recent[seen & mask] = sourceStart;
    seen += 1;
    if (openStart >= 0 && --remaining <= 0) {
      windows.push({ start: openStart, end: index });
      openStart = -1;
    }
    if (gap) continue;
    while (matched > 0 && letters[matched] !== code) matched = fallback[matched - 1]!;
    if (letters[matched] !== code || ++matched < letters.length) continue;
    matched = 0;
    if (openStart < 0) {
      openStart = seen > ringSize ? recent[seen & mask]! : 0;
      const last = windows.at(-1);
      if (last !== undefined && last.end >= openStart) {
        windows.pop();
        openStart = last.start;
      }
    }
    remaining = after;
  }
  if (openStart >= 0) windows.push({ start: openStart, end: text.length });
  return windows;
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
  // One source unit spells at most one character except for multi-character spellings, which
  // make room for themselves and for the rest of the text.
  let capacity = text.length + 32;
  let codes = new Uint8Array(capacity);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let length = 0;
  let previousGap = false;
  let index = 0;
  while (index < text.length) {
    const unit = text.charCodeAt(index);
    let codePoint = unit;
    let width = 1;
    if (unit === 0x25 || unit === 0x5c || unit === 0x26) {
      const decoded = decodeEscape(text, index);
      if (decoded !== undefined) {
        codePoint = decoded.codePoint;
        width = decoded.length;
      }
    } else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      }
    }
    const end = index + width;
    let packed = codePoint < 0x10000 ? bmpSpelling[codePoint]! : 0;
    if (packed === 0) packed = spellingOf(codePoint);
    if (packed === DROPPED) {
      index = end;
      continue;
    }
    let spelled: string | undefined;
    let count = 1;
    if (packed >= MULTIPLE) {
      spelled = spellings[packed - MULTIPLE]!;
      count = spelled.length;
      // Room for this spelling and for one character per source unit still to come.
      const needed = length + count + (text.length - end);
      if (needed > capacity) {
        capacity = Math.max(capacity * 2, needed + 32);
        const nextCodes = new Uint8Array(capacity);
        nextCodes.set(codes.subarray(0, length));
        const nextStarts = new Int32Array(capacity);
        nextStarts.set(starts.subarray(0, length));
        const nextEnds = new Int32Array(capacity);
        nextEnds.set(ends.subarray(0, length));
        codes = nextCodes;
        starts = nextStarts;
        ends = nextEnds;
      }
    }
    for (let offset = 0; offset < count; offset += 1) {
      const code = spelled === undefined ? packed - 1 : spelled.charCodeAt(offset);
      const gap = code === SEPARATOR || code === LINE_BREAK || code === STROKE;
      if (gap && previousGap) {
        // A run of gaps is one gap, so the matcher never backtracks through long runs; a lone
        // vertical stroke stays a stroke, anything longer is a separator.
        const last = length - 1;
        codes[last] = code === LINE_BREAK || codes[last] === LINE_BREAK ? LINE_BREAK : SEPARATOR;
        ends[last] = end;
        continue;
      }
      codes[length] = code;
      starts[length] = index;
      ends[length] = end;
      length += 1;
      previousGap = gap;
    }
    index = end;
  }
  return {
    text: asciiString(codes, length),
    starts: starts.subarray(0, length),
    ends: ends.subarray(0, length),
  };
}
