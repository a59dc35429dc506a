import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { FORM_BLOCK_MIN_LABEL_SHARE, isFormBlock } from './article-rules.js';

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
