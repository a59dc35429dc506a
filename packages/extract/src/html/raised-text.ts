import type TurndownService from 'turndown';

/**
 * Superscripts and subscripts in Markdown, which has neither. Written as plain text they run into the
 * word before them: "10<sup>6</sup> euros" read "106 euros", "m<sup>2</sup>" read "m2" and
 * "H<sub>2</sub>O" read "H2O". Each is written as the Unicode superscript or subscript characters
 * when it has them (digits, signs and brackets: "10⁶", "H₂O"), else after `^` or `_` ("x^n",
 * "a_(i+1)"), as formulas in plain text are written.
 */

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '+': '⁺',
  '-': '⁻',
  '\u2212': '⁻',
  '=': '⁼',
  '(': '⁽',
  ')': '⁾',
};

const SUBSCRIPT: Record<string, string> = {
  '0': '₀',
  '1': '₁',
  '2': '₂',
  '3': '₃',
  '4': '₄',
  '5': '₅',
  '6': '₆',
  '7': '₇',
  '8': '₈',
  '9': '₉',
  '+': '₊',
  '-': '₋',
  '\u2212': '₋',
  '=': '₌',
  '(': '₍',
  ')': '₎',
};

/** The longest raised or lowered text written as such; a longer one is a sentence set small. */
const MAX_SCRIPT_CHARS = 12;

/** What a script may hold to be written as one: letters, digits, signs, brackets, a dot, comma or slash. */
const SCRIPT_TEXT = /^[\p{L}\p{N}+\-\u2212=().,/]+$/u;

/** Marks set high that are no exponent: trademarks, a footnote's symbols. */
const MARKS = /^[®™©℠*†‡§¶]+$/u;

/** The endings of ordinals set high after a number ("1st", "2nd", "3e", "1er", "2º"). */
const ORDINAL = /^(?:st|nd|rd|th|e|er|re|ère|ème|eme|o|a|º|ª|\.?º|\.?ª)$/i;

/** Writes `<sup>` and `<sub>` as described in this module. */
export function addRaisedTextRule(service: TurndownService): void {
  service.addRule('raisedText', {
    filter: ['sup', 'sub'],
    replacement: (content, node) => scriptText(content, node as Element),
  });
}

function scriptText(content: string, element: Element): string {
  // A script set in italics (`<sub><i>n</i></sub>`, as Wikipedia writes indices) is its letters.
  const text = content.trim().replace(/^(\*{1,2})([^*]+)\1$/, '$2');
  if (text === '') return '';
  // A footnote's mark is its link ("[1](#fn1)"); a trademark or an ordinal's ending reads as it is.
  const raised = element.nodeName === 'SUP';
  if (element.getElementsByTagName('a').length > 0 || text.length > MAX_SCRIPT_CHARS) return content;
  if (raised && (MARKS.test(text) || (ORDINAL.test(text) && /\d$/.test(textBefore(element))))) return text;
  const table = raised ? SUPERSCRIPT : SUBSCRIPT;
  const glyphs = Array.from(text, (character) => table[character]);
  if (glyphs.every((glyph) => glyph !== undefined)) return glyphs.join('');
  // Punctuation alone ("," set high) is no script.
  if (!SCRIPT_TEXT.test(text) || !/[\p{L}\p{N}]/u.test(text)) return content;
  const sign = raised ? '^' : '_';
  return /^[\p{L}\p{N}]+$/u.test(text) && Array.from(text).length === 1
    ? `${sign}${text}`
    : `${sign}(${text})`;
}

/** The text just before `element` in its parent, up to its previous element. */
function textBefore(element: Element): string {
  const previous = element.previousSibling;
  return previous !== null && previous.nodeType === 3 ? (previous.nodeValue ?? '').trimEnd() : '';
}
