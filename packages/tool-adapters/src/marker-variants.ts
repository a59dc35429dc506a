// Disguised frame markers and ordinary multilingual text, generated rather than listed, for the
// neutralization tests, the fuzz benchmark and the tests of anything that relays these frames (the
// web package's contract tests). Published as `@mono-agent/tool-adapters/marker-variants`; the main
// entry never loads it.
import { CONFUSABLE_LETTERS } from './marker-confusables.js';
import {
  SEARCH_RESULTS_BEGIN,
  SEARCH_RESULTS_END,
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from './untrusted-frame.js';

/** Every marker the renderers write. */
export const REAL_MARKERS = [
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
  SEARCH_RESULTS_BEGIN,
  SEARCH_RESULTS_END,
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
] as const;

function codePointsWhere(test: (character: string) => boolean, last = 0xe01ef): string[] {
  const found: string[] = [];
  for (let codePoint = 0; codePoint <= last; codePoint += 1) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    if (codePoint > 0x2ffff && codePoint < 0xe0000) continue;
    const character = String.fromCodePoint(codePoint);
    if (test(character)) found.push(character);
  }
  return found;
}

const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
/**
 * Characters a reader does not see: every default-ignorable and format code point (zero-width
 * space and joiners, word joiner, soft hyphen, LRM/RLM, embeddings, overrides, isolates, variation
 * selectors, tag characters, …), C0/C1 controls other than white space, and combining marks that
 * only decorate (underline, strike-through, grapheme joiner).
 */
export const INVISIBLE_CHARACTERS: readonly string[] = [
  ...codePointsWhere((character) => IGNORABLE.test(character)),
  ...codePointsWhere((character) => /^\p{Cc}$/u.test(character) && !/^\s$/u.test(character), 0x9f),
  '\u0332',
  '\u0336',
  '\u0338',
  '\u0301',
  '\u20e5',
];

/** The most common of them, for tests that multiply every position by every character. */
export const COMMON_INVISIBLE_CHARACTERS = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u00ad',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u061c',
  '\ufeff',
  '\ufe0f',
  '\u034f',
  '\u180e',
  '\u{e0041}',
  '\u{e007f}',
  '\u{e0100}',
] as const;

/** What may stand between the words of a marker and still read as a space. */
export const SEPARATORS = [
  ' ',
  '  ',
  '_',
  '-',
  '‐',
  '‑',
  '–',
  '—',
  '\u00a0',
  '\u2002',
  '\u2003',
  '\u2009',
  '\u202f',
  '\u3000',
  '\t',
  '\n',
  '\r\n',
  '\u2028',
  '.',
  '·',
  '•',
  '/',
  '\\',
  '~',
  '*',
  '+',
  ':',
  '|',
  '＿',
  '﹏',
  '‿',
  ' _ ',
  '',
] as const;

/** Brackets a reader takes for the `[` and `]` of a marker. */
export const BRACKETS: readonly (readonly [string, string])[] = [
  ['[', ']'],
  ['［', '］'],
  ['⟦', '⟧'],
  ['【', '】'],
  ['〔', '〕'],
  ['〖', '〗'],
  ['〘', '〙'],
  ['〚', '〛'],
  ['⁅', '⁆'],
  ['❲', '❳'],
  ['⦋', '⦌'],
  ['⦍', '⦎'],
  ['﹝', '﹞'],
  ['﹇', '﹈'],
  ['(', ')'],
  ['（', '）'],
  ['{', '}'],
  ['｛', '｝'],
  ['<', '>'],
  ['〈', '〉'],
  ['⟨', '⟩'],
  ['«', '»'],
  ['⎡', '⎦'],
  ['%5B', '%5D'],
  ['\\u005b', '\\u005d'],
  ['&#91;', '&#93;'],
  ['&lsqb;', '&rsqb;'],
];

const COMPATIBILITY = new Map<string, string[]>();
/** Every character whose compatibility folding is `letter` in either case (full-width, math styles, circled, …). */
export function compatibilityForms(letter: string): readonly string[] {
  if (COMPATIBILITY.size === 0) {
    for (const character of codePointsWhere(() => true, 0x1ffff)) {
      if (character.codePointAt(0)! < 0x80) continue;
      const folded = character.normalize('NFKC').toUpperCase();
      if (folded.length !== 1 || folded < 'A' || folded > 'Z') continue;
      const forms = COMPATIBILITY.get(folded) ?? [];
      forms.push(character);
      COMPATIBILITY.set(folded, forms);
    }
  }
  return COMPATIBILITY.get(letter.toUpperCase()) ?? [];
}

/** Every look-alike of `letter`: compatibility forms, confusable letters, small capitals, lower case. */
export function lookAlikes(letter: string): readonly string[] {
  const upper = letter.toUpperCase();
  let forms = LOOK_ALIKE_CACHE.get(upper);
  if (forms === undefined) {
    const confusable = [...CONFUSABLE_LETTERS].filter(([, target]) => target === upper).map(([from]) => from);
    forms = [upper.toLowerCase(), ...compatibilityForms(upper), ...confusable];
    LOOK_ALIKE_CACHE.set(upper, forms);
  }
  return forms;
}
const LOOK_ALIKE_CACHE = new Map<string, readonly string[]>();

/** The mathematical alphanumeric styles (bold, italic, script, fraktur, double-struck, sans, mono, …). */
export function mathematicalStyles(): readonly ((text: string) => string)[] {
  if (STYLES.length === 0) STYLES.push(...buildStyles());
  return STYLES;
}
const STYLES: ((text: string) => string)[] = [];

function buildStyles(): ((text: string) => string)[] {
  const capitalStarts = [
    0x1d400, 0x1d434, 0x1d468, 0x1d49c, 0x1d4d0, 0x1d504, 0x1d538, 0x1d56c, 0x1d5a0, 0x1d5d4, 0x1d608,
    0x1d63c, 0x1d670,
  ];
  // Letters missing from some styles live in the Letterlike Symbols block; NFKC folds both alike.
  const holes: Record<number, Record<string, string>> = {
    119964: { B: 'ℬ', E: 'ℰ', F: 'ℱ', H: 'ℋ', I: 'ℐ', L: 'ℒ', M: 'ℳ', R: 'ℛ' },
    120068: { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' },
    120120: { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' },
  };
  const styles = capitalStarts.map(
    (start) => (text: string) =>
      text.replace(
        /[A-Z]/g,
        (letter) => holes[start]?.[letter] ?? String.fromCodePoint(start + letter.charCodeAt(0) - 65),
      ),
  );
  styles.push((text) =>
    text.replace(/[A-Z]/g, (letter) => String.fromCodePoint(0xff21 + letter.charCodeAt(0) - 65)),
  );
  styles.push((text) =>
    text.replace(/[A-Z]/g, (letter) => String.fromCodePoint(0x24b6 + letter.charCodeAt(0) - 65)),
  );
  styles.push((text) =>
    text.replace(/[A-Z]/g, (letter) => String.fromCodePoint(0x1f130 + letter.charCodeAt(0) - 65)),
  );
  return styles;
}

/** A small, fast, seedable generator (mulberry32), so every generated case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/**
 * A random disguise of a random real marker: brackets swapped, separators replaced, letters swapped
 * for look-alikes or a mathematical style, random case, and invisible characters sprinkled anywhere.
 */
export function randomMarkerVariant(random: () => number): string {
  const marker = pick(random, REAL_MARKERS);
  const [open, close] = random() < 0.5 ? (['[', ']'] as const) : pick(random, BRACKETS);
  const words = marker.slice(1, -1).split(' ');
  const style = random() < 0.2 ? pick(random, mathematicalStyles()) : undefined;
  const letterChance = random() * 0.6;
  const spelled = words.map((word) => {
    const styled = style === undefined ? word : style(word);
    return [...styled]
      .map((character) => {
        if (!/[A-Z]/.test(character)) return character;
        const roll = random();
        if (roll < letterChance) return pick(random, lookAlikes(character));
        return roll < letterChance + 0.2 ? character.toLowerCase() : character;
      })
      .join('');
  });
  const separator = () => (random() < 0.5 ? ' ' : pick(random, SEPARATORS));
  let text = open + (random() < 0.2 ? separator() : '');
  spelled.forEach((word, index) => {
    text += (index === 0 ? '' : separator()) + word;
  });
  text += (random() < 0.2 ? separator() : '') + close;
  const invisibleCount = random() < 0.5 ? 0 : 1 + Math.floor(random() * 6);
  // An escape (`%5B`, `&#91;`) stays one unit: broken up by an invisible character it is no escape.
  const characters = text.match(/%[0-9A-F]{2}|\\u[0-9a-f]{4}|&#?\w+;|[\s\S]/gu) ?? [];
  for (let count = 0; count < invisibleCount; count += 1) {
    const position = Math.floor(random() * (characters.length + 1));
    const invisible =
      random() < 0.7 ? pick(random, COMMON_INVISIBLE_CHARACTERS) : pick(random, INVISIBLE_CHARACTERS);
    characters.splice(position, 0, invisible);
  }
  return characters.join('');
}

// Words of ordinary prose in many scripts, including the invisible characters they legitimately
// carry (soft hyphens in German, ZWNJ in Persian, ZWJ in emoji, RLM in Hebrew and Arabic).
const WORDS: Readonly<Record<string, readonly string[]>> = {
  ru: [
    'Конец',
    'недели',
    'погода',
    'в',
    'Москве',
    'будет',
    'тёплой',
    'новости',
    'статья',
    'безопасность',
    'доверие',
    'начало',
    'веб',
    'содержимое',
    'результаты',
    'поиска',
    'ВЕБ',
    'КОНТЕНТ',
    'СЕТЬ',
  ],
  uk: ['Київ', 'це', 'столиця', 'України', 'їжак', 'ґанок', 'початок', 'кінець'],
  sr: ['Београд', 'је', 'главни', 'град', 'Србије', 'ђак', 'џеп', 'љубав'],
  el: [
    'Η',
    'Ελλάδα',
    'είναι',
    'χώρα',
    'της',
    'Ευρώπης',
    'ΤΕΛΟΣ',
    'ΑΡΧΗ',
    'μη',
    'αξιόπιστο',
    'περιεχόμενο',
    'ιστού',
    'ΚΑΙ',
    'ΕΝΑ',
  ],
  de: ['Straße', 'Über\u00adwachung', 'Ende', 'Anfang', 'unsicherer', 'Inhalt', 'Webseite', 'Größe'],
  fr: ['début', 'fin', 'contenu', 'non', 'fiable', 'réseau', 'déjà', 'naïve', 'œuvre'],
  tr: ['İstanbul', 'ılık', 'güvenilmeyen', 'içerik', 'SON', 'BAŞLANGIÇ'],
  vi: ['Việt', 'Nam', 'nội', 'dung', 'không', 'đáng', 'tin', 'cậy'],
  zh: ['不可信', '的', '网页', '内容', '开始', '结束', '搜索', '结果'],
  ja: ['信頼', 'できない', 'ウェブ', 'コンテンツ', '開始', '終了', 'ひらがな'],
  ko: ['신뢰할', '수', '없는', '웹', '콘텐츠', '시작', '끝'],
  ar: ['\u200fالمحتوى', 'غير', 'الموثوق', 'بداية', 'نهاية', 'الويب'],
  he: ['\u200fתוכן', 'לא', 'מהימן', 'התחלה', 'סוף', 'אינטרנט'],
  fa: ['می\u200cخواهم', 'محتوای', 'وب', 'آغاز', 'پایان'],
  hi: ['अविश्वसनीय', 'वेब', 'सामग्री', 'शुरू', 'अंत'],
  th: ['เนื้อหา', 'เว็บ', 'ที่', 'ไม่', 'น่าเชื่อถือ'],
  en: [
    'The',
    'end',
    'of',
    'the',
    'week',
    'begins',
    'with',
    'untrusted',
    'content',
    'trust',
    'web',
    'search',
    'results',
    'tool',
    'output',
    'sample',
    '[citation needed]',
    '(see below)',
    'END',
    'BEGIN',
    '[1]',
    'Untrusted',
  ],
  emoji: ['👨\u200d👩\u200d👧', '🏳\ufe0f\u200d🌈', '❤\ufe0f', '👍🏽', '🇺🇦', '🇪🇺'],
  math: ['𝐄 = 𝑚𝑐²', '∑', '∀x∈ℝ', '½', 'Ⅻ', '㎏', 'ﬁle'],
};
const LANGUAGES = Object.keys(WORDS);
const PUNCTUATION = [' ', ' ', ' ', ', ', '. ', ' — ', ': ', '; ', '\n', ' (', ') ', ' «', '» ', ' “', '” '];

/**
 * A random paragraph of ordinary text: words of one or two languages (the English list holds
 * `end`, `begin` and `untrusted`, but never in marker order), with the punctuation and invisible
 * characters real text carries. Neutralization must return it unchanged.
 */
export function randomOrdinaryText(random: () => number): string {
  const languages = [pick(random, LANGUAGES), pick(random, LANGUAGES)];
  const count = 3 + Math.floor(random() * 40);
  let text = '';
  let previous = '';
  for (let index = 0; index < count; index += 1) {
    let word = pick(random, WORDS[pick(random, languages)]!);
    // "end"/"begin" right before "untrusted" would be prose a reader might take for a marker when a
    // frame name follows; keep the generator to text that is plainly not marker-like.
    if (/^untrusted$/i.test(word) && /^(end|begin)$/i.test(previous)) word = 'content';
    text += (index === 0 ? '' : pick(random, PUNCTUATION)) + word;
    previous = word;
  }
  return text;
}

/** Fixed paragraphs in many languages that must come back byte for byte. */
export const ORDINARY_PARAGRAPHS = [
  'Погода в Москве: в конце недели будет тепло. Начало статьи о безопасности веб-содержимого.',
  'Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. ΤΕΛΟΣ ΚΑΙ ΑΡΧΗ του μη αξιόπιστου περιεχομένου.',
  'Київ — столиця України. Їжак сидить на ґанку.',
  'Beograd je glavni grad Srbije. Београд је главни град Србије.',
  'Die Über\u00adwachung der Straße endet am Ende der Woche.',
  '不可信的网页内容开始于此，结束于彼。搜索结果如下。',
  '信頼できないウェブコンテンツの開始と終了。',
  '신뢰할 수 없는 웹 콘텐츠의 시작과 끝.',
  '\u200fהתחלה וסוף של תוכן לא מהימן באינטרנט.',
  '\u200fبداية ونهاية المحتوى غير الموثوق على الويب.',
  'می\u200cخواهم محتوای وب را بخوانم.',
  'Family: 👨\u200d👩\u200d👧, flags 🇺🇦 🇪🇺, hearts ❤\ufe0f.',
  'We must end untrusted code execution at the boundary [1]. Begin untrusted-input review today.',
  'The [END] of the week; [BEGIN] a new one. Untrusted web content is everywhere (see below).',
  '𝐄 = 𝑚𝑐², ∀x∈ℝ, ½ kg = 0.5 ㎏, ﬁle, Ⅻ.',
  'URL: https://example.com/search?q=end%20of%20week&lang=ru&x=%D0%9A%D0%BE%D0%BD%D0%B5%D1%86',
  'JSON: {"title":"\\u041a\\u043e\\u043d\\u0435\\u0446","html":"&lt;b&gt;&#169; 2024&lt;/b&gt;"}',
] as const;
