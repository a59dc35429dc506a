import { describe, expect, it } from 'vitest';
import { chooseArticle, countWords, words } from './choose-article.js';

// Characters from every class the word pattern tells apart: ASCII letters, digits and `_`, letters
// and digits of other scripts, combining marks (not word characters), letters outside the Basic
// Multilingual Plane, emoji, lone surrogates, punctuation and every kind of space.
const ALPHABET = [
  'a',
  'Z',
  '7',
  '_',
  'é',
  'e\u0301',
  'ß',
  'Ж',
  '中',
  'の',
  'ナ',
  '・',
  'ｶ',
  '한',
  '٣',
  '\u0301',
  '𝐀',
  '𐐷',
  '😀',
  '\ud800',
  '\udc00',
  '-',
  "'",
  '.',
  '’',
  ' ',
  '\u00a0',
  '\n',
  '\t',
  '\u2009',
  '#',
];

/** A fixed pseudo-random sequence, so a failure names the same strings on every run. */
function* strings(count: number): Generator<string> {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  for (let index = 0; index < count; index++) {
    const length = Math.floor(next() * 24);
    let text = '';
    for (let at = 0; at < length; at++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
    yield text;
  }
}

describe('countWords', () => {
  it('counts exactly the words the metric finds, on edge cases', () => {
    for (const text of [
      '',
      ' ',
      'one',
      'one two',
      '  leading and trailing  ',
      'snake_case and kebab-case',
      "don't",
      'naïve café',
      'e\u0301',
      '東京は晴れ',
      '𝐀𝐁𝐂 𝐃',
      'a😀b',
      '\ud800a',
      'a\ud800',
      'a\udc00b',
    ]) {
      expect(countWords(text), JSON.stringify(text)).toBe(words(text).length);
    }
  });

  it('counts each Chinese or Japanese character as a word, and Korean and other scripts by their spaces', () => {
    expect(countWords('港湾委員会は決めた。')).toBe(9);
    expect(words('ナイジェリア・カノ')).toEqual(['ナ', 'イ', 'ジ', 'ェ', 'リ', 'ア', 'カ', 'ノ']);
    expect(words('mixed 中文 text')).toEqual(['mixed', '中', '文', 'text']);
    expect(countWords('한국어 문장 입니다')).toBe(3);
    expect(countWords('Жили-были дед')).toBe(3);
  });

  it('counts exactly the words the metric finds, on 5,000 mixed strings', () => {
    for (const text of strings(5_000)) {
      expect(countWords(text), JSON.stringify(text)).toBe(words(text).length);
    }
  });
});

describe('chooseArticle', () => {
  const story = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
  const prompts = Array.from({ length: 40 }, (_, index) => `prompt${index}`).join(' ');
  const readability = { text: `${story} ${prompts}`, markdown: `${story} ${prompts}` };
  const cleaned = { text: story, markdown: story };

  it("keeps Defuddle's cleaning of the block only when it keeps the given share of the block's words", () => {
    // Half the block's words: under the default two thirds, over a third.
    expect(chooseArticle(cleaned, readability)).toBe('readability');
    expect(chooseArticle(cleaned, readability, 1 / 3)).toBe('defuddle');
    const stub = { text: story.split(' ').slice(0, 20).join(' '), markdown: '' };
    expect(chooseArticle(stub, readability, 1 / 3)).toBe('readability');
  });
});
