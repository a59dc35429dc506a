/**
 * Bytes 0x80–0x9F of windows-1252, per the WHATWG Encoding Standard (five bytes map to the C1
 * control of the same number).
 */
const WINDOWS_1252_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

const C1_RANGE = /[\u0080-\u009f]/g;

/**
 * Decodes bytes with a WHATWG charset name, like `TextDecoder`, except that windows-1252 (which
 * `latin1`, `iso-8859-1` and `ascii` also name) maps 0x80–0x9F as the standard says: Node 20's
 * decoder reads those bytes as C1 controls (ISO-8859-1), losing curly quotes, dashes and the euro sign.
 * With `fatal`, an invalid sequence throws a TypeError.
 */
export function decodeText(bytes: Uint8Array, charset: string, options: { fatal?: boolean } = {}): string {
  const text = new TextDecoder(charset, { ignoreBOM: true, fatal: options.fatal ?? false }).decode(bytes);
  if (charset !== 'windows-1252') return text;
  return text.replace(C1_RANGE, (character) =>
    String.fromCharCode(WINDOWS_1252_C1[character.charCodeAt(0) - 0x80] as number),
  );
}

/** The WHATWG name of a charset label (`latin1` is windows-1252), or undefined when it names none. */
export function whatwgName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}
