import { describe, expect, it } from 'vitest';
import { charsetNote } from './charset-note.js';

describe('charsetNote', () => {
  it('says nothing of a body that decoded cleanly', () => {
    expect(charsetNote({ charset: 'utf-8', charsetSource: 'header', replacementCount: 0 })).toBeUndefined();
  });

  it('names the detector reading of undeclared bytes as a hint, with the replacement count', () => {
    expect(
      charsetNote({
        charset: 'utf-8',
        charsetSource: 'default',
        replacementCount: 57,
        charsetHint: 'windows-1251',
      }),
    ).toBe(
      "reason: the bytes look like windows-1251; neither the server nor the page declared a charset, so the body was decoded as utf-8 with 57 replacement characters where bytes were not valid utf-8 (the detector's reading is only a hint and was not used).",
    );
  });

  it('says who declared the charset that left replacement characters', () => {
    expect(charsetNote({ charset: 'utf-8', charsetSource: 'header', replacementCount: 1 })).toBe(
      'reason: the body was decoded as utf-8 with 1 replacement character where bytes were not valid utf-8; the server declared utf-8.',
    );
    expect(
      charsetNote({
        charset: 'shift_jis',
        charsetSource: 'meta',
        replacementCount: 2,
        charsetHint: 'euc-jp',
      }),
    ).toContain("the bytes look like euc-jp; the page's <meta> declared shift_jis");
  });

  it('always says when the body was read as UTF-8 against the charset the page declared', () => {
    expect(
      charsetNote({
        charset: 'utf-8',
        charsetSource: 'bytes',
        replacementCount: 0,
        declaredCharset: 'windows-1251',
      }),
    ).toBe(
      'reason: the page declared windows-1251, but its bytes are valid UTF-8 throughout, so the body was decoded as utf-8.',
    );
  });
});
