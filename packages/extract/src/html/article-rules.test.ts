import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  FORM_BLOCK_MIN_LABEL_SHARE,
  holdsListedBlock,
  isFormBlock,
  LISTED_BLOCK_MAX_PROSE_SHARE,
  LISTED_BLOCK_MIN_STORY_SHARE,
  PROSE_LINE_MIN_WORDS,
} from './article-rules.js';

const block = (markup: string) =>
  parseHTML(`<!doctype html><html><body>${markup}</body></html>`).document.body as unknown as Element;

/** `count` words, each its own. */
const words = (count: number, name = 'word') =>
  Array.from({ length: count }, (_, index) => `${name}${index}`).join(' ');

describe('isFormBlock: a block whose controls’ labels hold most of its words', () => {
  it(`is a form from ${FORM_BLOCK_MIN_LABEL_SHARE * 100}% of its words in labels, and not below`, () => {
    // 10 words in labels, legends, options and buttons; 10 or 11 outside them.
    const labels = `<label>${words(4, 'l')}</label><legend>${words(2, 'g')}</legend><select><option>${words(2, 'o')}</option></select><button>${words(2, 'b')}</button>`;
    expect(isFormBlock(block(`<form>${labels}<p>${words(10)}</p></form>`))).toBe(true);
    expect(isFormBlock(block(`<form>${labels}<p>${words(11)}</p></form>`))).toBe(false);
  });

  it('counts a button inside a label once', () => {
    expect(
      isFormBlock(
        block(`<label>${words(3)} <button>${words(2, 'b')}</button></label><p>${words(5, 'p')}</p>`),
      ),
    ).toBe(true);
    expect(
      isFormBlock(
        block(`<label>${words(2)} <button>${words(2, 'b')}</button></label><p>${words(5, 'p')}</p>`),
      ),
    ).toBe(false);
  });

  it('is no form when a form wraps a page whose text is in paragraphs (ASP.NET Web Forms), or when it is empty', () => {
    expect(isFormBlock(block(`<form><h1>Services</h1><p>${words(40)}</p><label>Search</label></form>`))).toBe(
      false,
    );
    expect(isFormBlock(block(''))).toBe(false);
  });
});

describe('holdsListedBlock: a list Readability picked, which Defuddle’s article holds with the story', () => {
  /** `count` lines of `size` words each, every word its own. */
  const lines = (count: number, size: number, name: string) =>
    Array.from({ length: count }, (_, line) => words(size, `${name}${line}x`)).join('\n');
  const article = (text: string) => ({ markdown: text, text, title: undefined });
  // 144 words: a third of them in three lines of 12 words (the paragraph-line bound), the rest names.
  const atBound = `${lines(3, PROSE_LINE_MIN_WORDS, 'p')}\n${lines(27, 4, 'n')}`;
  const story = (prose: number) => lines(prose / PROSE_LINE_MIN_WORDS, PROSE_LINE_MIN_WORDS, 's');

  it(`takes a block with ${LISTED_BLOCK_MAX_PROSE_SHARE * 100}% of its words in paragraph lines for a list, and not more`, () => {
    expect(holdsListedBlock(article(`${story(144)}\n${atBound}`), atBound)).toBe(true);
    const past = `${lines(3, PROSE_LINE_MIN_WORDS, 'p')}\n${lines(26, 4, 'n')}`;
    expect(holdsListedBlock(article(`${story(144)}\n${past}`), past)).toBe(false);
    // Lines of 11 words are a list's.
    const shortLines = `${lines(6, PROSE_LINE_MIN_WORDS - 1, 'p')}\n${lines(20, 4, 'n')}`;
    expect(holdsListedBlock(article(`${story(156)}\n${shortLines}`), shortLines)).toBe(true);
  });

  it(`needs ${LISTED_BLOCK_MIN_STORY_SHARE * 100}% of the list's words in prose beside it, and the list inside the article`, () => {
    // 72 words of the story's paragraphs besides the block's own 36 (half its 144): enough; 60 are not.
    expect(holdsListedBlock(article(`${story(72)}\n${atBound}`), atBound)).toBe(true);
    expect(holdsListedBlock(article(`${story(60)}\n${atBound}`), atBound)).toBe(false);
    expect(holdsListedBlock(article(`${story(156)}\n${lines(36, 4, 'other')}`), atBound)).toBe(false);
  });
});
