import { describe, expect, it } from 'vitest';
import { buildSkeleton, onlyAsciiSpellsLetters, spellCodePoint } from './marker-skeleton.js';

const spell = (text: string) => buildSkeleton(text).text;

describe('buildSkeleton', () => {
  it('spells plain ASCII in capitals, merging I with L, O with 0 and W with VV', () => {
    expect(spell('Begin untrusted Web content')).toBe('BEGIN UNTRUSTED VVEB CONTENT');
    expect(spell('tool 01')).toBe('TOOI OI');
  });

  it('folds full-width, mathematical, circled and accented forms to the same letters', () => {
    for (const text of ['ＥＮＤ', '𝐄𝐍𝐃', '𝔈𝔑𝔇', 'ⒺⓃⒹ', 'ÉÑĎ', 'ᴱᴺᴰ', '🅴🅽🅳', '🇪🇳🇩'])
      expect(spell(text)).toBe('END');
  });

  it('maps Cyrillic, Greek and other look-alike letters, but not other letters', () => {
    expect(spell('ЕΝD UΝТRUЅТЕD')).toBe('END UNTRUSTED');
    expect(spell('Дж')).toBe('##');
  });

  it('drops invisible characters and spells any run of separators as one gap', () => {
    expect(spell('E\u200bN\u00adD\u2060')).toBe('END');
    expect(spell('A _-\u00a0\u3000—B')).toBe('A B');
    expect(spell('A \n\t B')).toBe('A\nB');
    expect(spell('A|B A || B')).toBe('A|B A B');
  });

  it('spells every opening bracket as [ and every closing one as ]', () => {
    expect(spell('[［⟦【(<«⎡')).toBe('[[[[[[[[');
    expect(spell(']］⟧】)>»⎦')).toBe(']]]]]]]]');
  });

  it('decodes percent, backslash and character-reference escapes', () => {
    expect(spell('%5BEND%20X%5D')).toBe('[END X]');
    expect(spell('%EF%BC%BBE')).toBe('[E');
    expect(spell('\\u005bE\\u{1D404}\\x41')).toBe('[EEA');
    expect(spell('&#91;&#x45;&lsqb;&zwj;N')).toBe('[E[N');
    expect(spell('%ZZ & &;')).toBe(' ZZ ');
  });

  it('reads a reference to a name every object inherits as the text it is', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => buildSkeleton(`a &${name}; b`)).not.toThrow();
    }
  });

  it('maps every skeleton character back to the source characters it came from', () => {
    const text = 'a\u200b𝐄%5B\u00a0 ｂ';
    const skeleton = buildSkeleton(text);
    expect(skeleton.text).toBe('AE[ B');
    const sources = [...skeleton.text].map((_, index) =>
      text.slice(skeleton.starts[index], skeleton.ends[index]),
    );
    expect(sources).toEqual(['a', '𝐄', '%5B', '\u00a0 ', 'ｂ']);
  });

  it('spells each code point on its own, so a prefix of the text has a prefix of the skeleton', () => {
    const text = 'É\u0301ＮＤ %5B 𝐔 ＮＴ';
    const whole = spell(text);
    for (let cut = 0; cut <= text.length; cut += 1) {
      const prefix = spell(text.slice(0, cut));
      // A cut through an escape or a surrogate pair spells the shorter source differently, but only
      // in its last character.
      expect(whole.startsWith(prefix.slice(0, -1))).toBe(true);
    }
  });

  it('knows when only ASCII characters spell letters', () => {
    expect(onlyAsciiSpellsLetters('It’s “quoted” — fine…\u00a0\u200b 👍🏽')).toBe(true);
    expect(onlyAsciiSpellsLetters('café')).toBe(false);
    expect(onlyAsciiSpellsLetters('ſ')).toBe(false);
    expect(onlyAsciiSpellsLetters('∪')).toBe(false);
    expect(onlyAsciiSpellsLetters('｜')).toBe(false);
    expect(onlyAsciiSpellsLetters('［')).toBe(false);
  });

  it('spells a ligature or compatibility sequence as several letters', () => {
    expect(spellCodePoint(0xfb01)).toBe('FI');
    expect(spellCodePoint(0x2026)).toBe('   ');
  });
});
