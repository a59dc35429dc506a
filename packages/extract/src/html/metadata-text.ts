import { whatwgName } from '../decode/decode-text.js';
/** The longest author, site name or date kept, in characters (longer ones are cut). */
export const MAX_METADATA_FIELD_CHARS = 200;

/** The longest description kept, in characters (longer ones are cut). */
export const MAX_DESCRIPTION_CHARS = 1000;

/** The longest visible byline read as one, in characters: longer text is a paragraph, not a byline. */
export const MAX_BYLINE_CHARS = 100;

/**
 * C0 and C1 controls, and the characters that change the direction text is shown in or hide in it
 * (bidi embeddings, overrides and isolates, marks, zero-width characters, the byte-order mark):
 * page text shown to a model must read as it is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing controls is the point.
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `text` with each control and bidi character (see {@link CONTROL_OR_BIDI}) replaced by a space. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL_OR_BIDI, ' ');
}

/**
 * Page text made safe to show as one line: controls and bidi characters removed, whitespace
 * collapsed, cut at `max` characters (never inside a character).
 */
export function cleanMetadataText(text: string, max: number): string {
  const cleaned = clean(text);
  const characters = Array.from(cleaned);
  return characters.length <= max ? cleaned : `${characters.slice(0, max - 1).join('')}…`;
}

/** Page text as one line: entities decoded, controls and bidi characters removed, whitespace collapsed. */
export function clean(text: string): string {
  return decodeEntities(text).replace(CONTROL_OR_BIDI, ' ').replace(/\s+/g, ' ').trim();
}

/** JSON-LD strings and some `content` attributes arrive with HTML entities still in them. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#x([\da-f]{1,6})|(amp|lt|gt|quot|apos|nbsp|#39));/gi,
    (all, dec, hex, name) => {
      if (dec !== undefined || hex !== undefined) {
        const code = dec !== undefined ? Number(dec) : Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }[
        String(name).toLowerCase()
      ] as string;
    },
  );
}

/** Whether `value` is a URL, a bare host (`//…`, `www.…`) or a path (`/@jane`), which no name or title is. */
export function isUrl(value: string): boolean {
  return /^(?:https?:)?\/\/|^www\.|^\/\S*$/i.test(value);
}

/** Whether `value` can be a person's or an organisation's name: not a URL, a handle or an address. */
export function isName(value: string): boolean {
  if (/^(?:last\s+)?(?:updated|modified|published|posted|sign\s+in|log\s*in|follow)\b/i.test(value))
    return false;
  // An address's domain may hold hyphens (`d.kuckelkorn@boersen-zeitung.de`).
  if (value === '' || isUrl(value) || /^@\w/.test(value) || /@[\w-]+\.\w/.test(value)) return false;
  return /\p{L}/u.test(value) && value.length <= MAX_BYLINE_CHARS * 2;
}

/** Names joined with ", ", each once. */
export function joinNames(names: readonly string[]): string {
  return [...new Set(names)].join(', ');
}

/**
 * BCP 47's grammar of a tag: a language of two or three letters (with up to three extended
 * languages), then an optional script, region, variants, extensions and private use, in that order.
 */
const LANGUAGE_TAG =
  /^[a-z]{2,3}(?:-[a-z]{3}){0,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[a-wyz\d](?:-[a-z\d]{2,8})+)*(?:-x(?:-[a-z\d]{1,8})+)?$/i;

/** A BCP 47 tag in its usual case (`en-US`, `zh-Hant-TW`), or undefined when `value` is none. */
export function languageTag(value: string): string | undefined {
  const tag = value.trim().replace(/_/g, '-');
  // A charset where the language belongs (`Content-Language: gbk`): some labels are well-formed tags.
  if (!LANGUAGE_TAG.test(tag) || whatwgName(tag) !== undefined) return undefined;
  // Extensions and private use (after a one-letter subtag) keep lower case throughout.
  let extended = false;
  return tag
    .split('-')
    .map((part, index) => {
      extended ||= part.length === 1;
      if (index === 0 || extended) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part))
        return part[0]?.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

/** Joining words and particles that stand between names in lower case ("and", "&", "van", "de"). */
const NAME_JOINER = /^(?:and|&|und|et|y|e|van|von|de|der|den|da|di|du|la|le|del|dos|das|bin|al|the)$/;

/**
 * Whether a word can be part of a list of names: a joining word or particle, or a word that starts
 * with a capital letter (or a letter of a script without case), perhaps after a quote or a bracket.
 */
export function isNameWord(word: string): boolean {
  return NAME_JOINER.test(word) || /^["“'‘(]?[\p{Lu}\p{Lo}]/u.test(word);
}
