import { LEGACY_TEXTS, legacyTextBytes } from '@mono-agent/fixture-web';
import { describe, expect, it } from 'vitest';
import { charsetHint, MIN_UTF16_ZERO_SHARE, utf16ByteOrder } from './charset-hint.js';

/** `units` UTF-16LE code units, of which `zeros` are ASCII (a zero high byte) and the rest CJK. */
function sampleLe(units: number, zeros: number): Uint8Array {
  const bytes: number[] = [];
  for (let index = 0; index < units; index++) bytes.push(...(index < zeros ? [0x61, 0x00] : [0x2d, 0x4e]));
  return new Uint8Array(bytes);
}

describe('utf16ByteOrder', () => {
  it(`names UTF-16LE from a share of ${MIN_UTF16_ZERO_SHARE} code units with a zero high byte, not one unit below`, () => {
    const units = 100;
    const atBound = Math.ceil(MIN_UTF16_ZERO_SHARE * units);
    expect(utf16ByteOrder(sampleLe(units, atBound))).toBe('utf-16le');
    expect(utf16ByteOrder(sampleLe(units, atBound - 1))).toBeUndefined();
  });

  it('names UTF-16BE from the other side, and neither for single-byte text', () => {
    expect(utf16ByteOrder(legacyTextBytes('utf-16be', 'text'))).toBe('utf-16be');
    expect(utf16ByteOrder(legacyTextBytes('utf-16le', 'text'))).toBe('utf-16le');
    expect(utf16ByteOrder(legacyTextBytes('windows-1251', 'text'))).toBeUndefined();
  });
});

describe('charsetHint', () => {
  it('names KOI8-U, which chardet reads as KOI8-R with box-drawing symbols in its words', async () => {
    expect(await charsetHint(legacyTextBytes('koi8-u', 'text'))).toBe('koi8-u');
    expect(new TextDecoder('koi8-u').decode(legacyTextBytes('koi8-u', 'text'))).toContain(
      LEGACY_TEXTS['koi8-u'].paragraphs[2],
    );
  });

  it('names nothing for a Latin snippet that Latin-1 and Latin-2 both read as letters', async () => {
    expect(
      await charsetHint(new Uint8Array(Buffer.from('D\xe9j\xe0 vu, na\xefve.', 'latin1'))),
    ).toBeUndefined();
  });
});
