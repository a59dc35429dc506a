import { loadChardet } from '../lazy-modules.js';
import { decodeText, whatwgName } from './decode-text.js';

/** How many leading bytes the detector reads; markup is ASCII, so text shows up early enough. */
export const DETECTION_SAMPLE_BYTES = 64 * 1024;

/** The lowest detector confidence (0–100) at which a charset is named. */
export const MIN_DETECTION_CONFIDENCE = 10;

/**
 * How far (in confidence points) the named charset must lead every other plausible charset that
 * would decode the sample differently. Below it the bytes are ambiguous (French and Romanian
 * decode to letters in both Latin-1 and Latin-2) and no charset is named.
 */
export const MIN_DETECTION_MARGIN = 15;

/** The share of words a plausible decoding may have with an anomaly (a symbol or case flip inside). */
export const MAX_ANOMALY_SHARE = 0.02;

/** Runs of anything but white space and ASCII punctuation: words, with whatever a decoding put in them. */
const WORD = /[^\s!-/:-@[-`{-~]+/gu;
const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
/**
 * Characters that are not letters, yet belong inside words: marks, digits, ASCII, general
 * punctuation (quotes, dashes, ellipsis), and CJK and full-width punctuation, since CJK text runs
 * whole sentences together without spaces.
 */
const WORD_INNER_OK = /[\p{M}\p{Nd}\p{ASCII}\u00b7\u2010-\u2027\u3000-\u303f\u30fb\uff00-\uffef]/u;

/**
 * Charsets that share most of their table with the one chardet names and that chardet has no model
 * of (or ranks lower): tried after it, so that Ukrainian KOI8-U, whose і, ї, є and ґ KOI8-R reads as
 * box-drawing symbols, is still named.
 */
const RELATED_CHARSETS: Readonly<Record<string, readonly string[]>> = {
  'koi8-r': ['koi8-u'],
};

/** The share of a UTF-16 sample's code units that must have a zero byte on one side only. */
export const MIN_UTF16_ZERO_SHARE = 0.3;

/** The share of code units with a zero byte on the other side that still allows that reading. */
export const MAX_UTF16_OTHER_ZERO_SHARE = 0.05;

/** The fewest code units a sample needs before its zero bytes say anything. */
const MIN_UTF16_UNITS = 16;

/**
 * What a detector reads bytes as, for the reader's information only (the body is never decoded
 * with it): UTF-16 without a byte order mark by the zero bytes of its ASCII characters, else
 * chardet's ranking, verified. A chardet candidate is plausible when it decodes without invalid
 * sequences into words made of letters with natural case (a wrong single-byte charset puts
 * symbols, controls or case flips inside words). The best plausible candidate is named only when
 * it is confident enough and leads every plausible candidate that reads differently by
 * {@link MIN_DETECTION_MARGIN}; otherwise `undefined`.
 */
export async function charsetHint(body: Uint8Array): Promise<string | undefined> {
  const sample = body.subarray(0, DETECTION_SAMPLE_BYTES);
  const utf16 = utf16ByteOrder(sample);
  if (utf16 !== undefined) return utf16;
  const chardet = await loadChardet();
  const candidates: Array<{ charset: string; confidence: number; text: string }> = [];
  for (const match of chardet.analyse(sample)) {
    const named = whatwgName(match.name);
    if (named === undefined) continue;
    for (const charset of [named, ...(RELATED_CHARSETS[named] ?? [])]) {
      if (charset === 'utf-8' || candidates.some((seen) => seen.charset === charset)) continue;
      const text = decodeStrictly(sample, charset);
      if (text === undefined || !plausible(text)) continue;
      candidates.push({ charset, confidence: match.confidence, text });
    }
  }
  const [best, ...others] = candidates;
  if (best === undefined || best.confidence < MIN_DETECTION_CONFIDENCE) return undefined;
  const rival = others.find((other) => other.text !== best.text);
  if (rival !== undefined && best.confidence - rival.confidence < MIN_DETECTION_MARGIN) return undefined;
  return best.charset;
}

/**
 * `utf-16le` or `utf-16be` when the sample's code units have a zero byte on one side far more
 * often than on the other (the high byte of ASCII characters) and it decodes cleanly so.
 */
export function utf16ByteOrder(sample: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const units = Math.floor(sample.length / 2);
  if (units < MIN_UTF16_UNITS) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index + 1 < sample.length; index += 2) {
    if (sample[index] === 0) evenZeros++;
    if (sample[index + 1] === 0) oddZeros++;
  }
  const order =
    oddZeros >= MIN_UTF16_ZERO_SHARE * units && evenZeros <= MAX_UTF16_OTHER_ZERO_SHARE * units
      ? 'utf-16le'
      : evenZeros >= MIN_UTF16_ZERO_SHARE * units && oddZeros <= MAX_UTF16_OTHER_ZERO_SHARE * units
        ? 'utf-16be'
        : undefined;
  if (order === undefined) return undefined;
  return decodeStrictly(sample.subarray(0, 2 * units), order) === undefined ? undefined : order;
}

/** Whether decoded text reads like text: words of letters with natural case and no stray symbols. */
export function plausible(text: string): boolean {
  let words = 0;
  let anomalies = 0;
  for (const [word] of text.matchAll(WORD)) {
    if (!/[^\p{ASCII}]/u.test(word)) continue;
    words++;
    if (hasAnomaly(word)) anomalies++;
  }
  return words === 0 || anomalies / words <= MAX_ANOMALY_SHARE;
}

function hasAnomaly(word: string): boolean {
  const characters = [...word];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index] as string;
    const code = character.codePointAt(0) as number;
    if (code === 0xfffd || (code >= 0x80 && code <= 0x9f)) return true;
    const inner = index > 0 && index < characters.length - 1;
    if (!LETTER.test(character) && inner && !WORD_INNER_OK.test(character)) return true;
    // A capital after a small letter inside a word: what a wrong Cyrillic code page produces.
    if (index > 0 && UPPER.test(character) && LOWER.test(characters[index - 1] as string)) return true;
  }
  return false;
}

function decodeStrictly(bytes: Uint8Array, charset: string): string | undefined {
  try {
    return decodeText(bytes, charset, { fatal: true });
  } catch {
    // A sample cut inside a multi-byte character fails at its very end only; retry without it.
    try {
      const text = decodeText(bytes, charset);
      const replaced = text.indexOf('\uFFFD');
      return replaced === -1 || replaced >= text.length - 2 ? text.replace(/\uFFFD+$/, '') : undefined;
    } catch {
      return undefined;
    }
  }
}
