// Letters of other scripts (and a few symbols) that a reader takes for a Latin capital, in the spirit
// of the Unicode confusables data (UTS #39). Only what compatibility folding (NFKC), accent removal
// and upper-casing leave unmapped is listed: full-width, mathematical, circled, superscript and
// accented forms already reach ASCII through those steps. Lower-case look-alikes are listed too,
// because markers are matched without regard to case.
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  A: 'АаΑαᎪᗅᴀɑ⍺ꓮ',
  B: 'ВвΒβᏴᗷʙꓐЬьƄ',
  C: 'СсϹϲᏟᑕᴄꓚⲤⲥ',
  D: 'ᎠᗞᴅꓓԁⅮ',
  E: 'ЕеЁёΕεᎬᴇꓰҽ℮Ɛɛ',
  F: 'ϜꓝꜰᖴƑ',
  G: 'ԌԍᏀᏳɢꓖɡ',
  H: 'НнΗᎻᕼʜꓧһ',
  // I and L are one class (see marker-skeleton.ts): a lower-case l, a capital I and a digit one
  // look the same in most sans-serif fonts.
  I: 'ІіΙιӀӏɪıꓲƖɩᏞʟꓡⳐ',
  J: 'ЈјͿϳᎫᴊꓙ',
  K: 'КкΚκᏦᴋꓗ',
  M: 'МмΜᎷᴍꓟϺ',
  N: 'Νɴꓠпոη',
  O: 'ОоΟοՕօσᴏꓳⲞⲟ',
  P: 'РрΡρᏢᴘꓑ⍴',
  R: 'ᎡᏒʀꓣгᚱ',
  S: 'ЅѕᏚᏕꜱꓢ',
  T: 'ТтΤτᎢᴛꓔ⊤',
  U: 'ՍսԱυʋᴜꓴ∪',
  V: 'ѴѵνᏙᴠꓦ∨',
  W: 'ԜԝѡωᎳᴡꓪ',
  X: 'ХхΧχꓫ×',
  Y: 'УуΥγҮүᎩʏꓬ',
  Z: 'ΖᏃᴢꓜ',
};

/** Maps each look-alike character to the Latin capital it is taken for. */
export const CONFUSABLE_LETTERS: ReadonlyMap<string, string> = new Map(
  Object.entries(LOOK_ALIKES).flatMap(([letter, lookAlikes]) =>
    [...lookAlikes].map((character) => [character, letter] as const),
  ),
);

/** Vertical strokes: read as a capital I (or lower-case l), or as a separator between words. */
export const VERTICAL_STROKES = new Set([...'|ǀ∣｜│┃❘❙❚￨⏐丨']);

/**
 * Opening brackets beyond Unicode's open-punctuation class: angle quotes and the bracket pieces of
 * mathematical typesetting, which look like the `[` of a marker.
 */
export const EXTRA_OPENERS = new Set([...'<‹«⎡⎣⎢⌜⌞']);

/** Closing counterparts of {@link EXTRA_OPENERS}. */
export const EXTRA_CLOSERS = new Set([...'>›»⎤⎦⎥⌝⌟']);

/**
 * Ranges of letter-like symbols with no compatibility decomposition: negative circled and squared
 * capitals and the regional indicator letters (rendered as boxed letters outside flag pairs).
 */
export const LETTER_RANGES: readonly { first: number; last: number }[] = [
  { first: 0x1f150, last: 0x1f169 },
  { first: 0x1f170, last: 0x1f189 },
  { first: 0x1f1e6, last: 0x1f1ff },
];
