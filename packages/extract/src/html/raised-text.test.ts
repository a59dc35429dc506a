import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

const markdownOf = (html: string) => htmlToMarkdown(html, 'https://example.org/notes/');

describe('htmlToMarkdown: superscripts and subscripts', () => {
  it('writes exponents and indices as raised and lowered digits (failing before: "10<sup>6</sup>" read "106")', async () => {
    expect(
      await markdownOf(
        '<p>The deck covers 1200 m<sup>2</sup>, cost 10<sup>6</sup> euros and sheds H<sub>2</sub>O.</p>',
      ),
    ).toBe('The deck covers 1200 m², cost 10⁶ euros and sheds H₂O.');
    expect(
      await markdownOf(
        '<p>A charge of 10<sup>−19</sup> C, an ion SO<sub>4</sub><sup>2−</sup>, NO<sub>3</sub><sup>−</sup>.</p>',
      ),
    ).toBe('A charge of 10⁻¹⁹ C, an ion SO₄²⁻, NO₃⁻.');
  });

  it('writes a script Unicode has no characters for after ^ or _, bracketed when longer than one', async () => {
    expect(await markdownOf('<p>x<sup>n</sup> + a<sub>i+1</sub> = e<sup>iπ</sup></p>')).toBe(
      'x^n + a_(i+1) = e^(iπ)',
    );
    expect(
      await markdownOf('<p>The matrix <i>E</i><sub><i>jk</i></sub> and <i>I</i><sub><i>n</i></sub>.</p>'),
    ).toBe('The matrix *E*_(jk) and *I*_n.');
  });

  it("writes trademarks, an ordinal's ending and a footnote's linked mark as they read", async () => {
    expect(
      await markdownOf('<p>Harbour<sup>®</sup> opened on the 1<sup>st</sup> and the 2<sup>nd</sup>.</p>'),
    ).toBe('Harbour® opened on the 1st and the 2nd.');
    expect(await markdownOf('<p>The deck was widened.<sup><a href="#fn1">1</a></sup></p>')).toBe(
      'The deck was widened.[1](https://example.org/notes/#fn1)',
    );
  });

  it('leaves a sentence set small, or a script of punctuation alone, as page text', async () => {
    expect(
      await markdownOf('<p>Price<sup>(before tax, per person)</sup> and more<sup>,</sup> text.</p>'),
    ).toBe('Price(before tax, per person) and more, text.');
  });
});
