import { decodeText } from './decode-text.js';
import { loadChardet } from './lazy-modules.js';

/** How many leading bytes the detector reads; markup is ASCII, so text shows up early enough. */
export const DETECTION_SAMPLE_BYTES = 64 * 1024;

/** The lowest detector confidence (0–100) a charset is taken on. */
export const MIN_DETECTION_CONFIDENCE = 10;

/**
 * How far (in confidence points) the chosen charset must lead every other plausible charset that
 * would decode the sample differently. Below it the bytes are ambiguous (French and Romanian
 * decode to letters in both Latin-1 and Latin-2) and nothing is guessed.
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
 * Picks the charset of undeclared bytes that are not UTF-8, or none. chardet ranks candidates; a
 * candidate is plausible when it decodes without invalid sequences into words made of letters with
 * natural case (a wrong single-byte charset puts symbols, controls or case flips inside words). The
 * best plausible candidate is taken only when it is confident enough and leads every plausible
 * candidate that reads differently by {@link MIN_DETECTION_MARGIN}; otherwise `undefined`, and the
 * caller decodes as UTF-8 with its replacement characters counted, never silently wrong.
 */
export async function verifiedDetection(body: Uint8Array): Promise<string | undefined> {
  const sample = body.subarray(0, DETECTION_SAMPLE_BYTES);
  const chardet = await loadChardet();
  const candidates: Array<{ charset: string; confidence: number; text: string }> = [];
  for (const match of chardet.analyse(sample)) {
    const charset = whatwgName(match.name);
    if (charset === undefined || charset === 'utf-8' || candidates.some((seen) => seen.charset === charset))
      continue;
    const text = decodeStrictly(sample, charset);
    if (text === undefined || !plausible(text)) continue;
    candidates.push({ charset, confidence: match.confidence, text });
  }
  const [best, ...others] = candidates;
  if (best === undefined || best.confidence < MIN_DETECTION_CONFIDENCE) return undefined;
  const rival = others.find((other) => other.text !== best.text);
  if (rival !== undefined && best.confidence - rival.confidence < MIN_DETECTION_MARGIN) return undefined;
  return best.charset;
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

function whatwgName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}
