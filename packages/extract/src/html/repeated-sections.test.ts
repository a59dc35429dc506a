import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import {
  dropRepeatedSections,
  REPEATED_SECTION_MIN_SHARE,
  REPEATED_SECTION_MIN_WORDS,
} from './repeated-sections.js';

/** A paragraph of `count` distinct words, so that only whole paragraphs repeat. */
function paragraph(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

/** Markdown of `count` paragraphs of 50 words each. */
function section(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => paragraph(`${prefix}${index}x`, 50));
}

const markdown = (blocks: string[]) => blocks.join('\n\n');

describe('dropRepeatedSections', () => {
  it(`removes a copy of ${REPEATED_SECTION_MIN_WORDS} words or more, headings included, and keeps a shorter one`, () => {
    const body = ['## Plans', ...section('plan', 5)];
    const filler = section('story', 20);
    const twice = markdown([...filler, ...body, '## Ask us', ...body]);
    expect(dropRepeatedSections(twice)).toBe(markdown([...filler, ...body, '## Ask us']));
    // One word under the bound: the heading's and four paragraphs' words, 1 + 200 + 48.
    const short = ['## Plans', ...section('plan', 4), paragraph('tail', 48)];
    const under = markdown([...filler, ...short, '## Ask us', ...short]);
    expect(dropRepeatedSections(under)).toBe(under);
  });

  it(`keeps a repeat under ${REPEATED_SECTION_MIN_SHARE * 100} % of the article's words`, () => {
    // The repeat holds 301 words ("Lunch" and six paragraphs of 50): of 2,004 words that is 15.02 %,
    // of 2,104 it is 14.3 %.
    const day = ['### Lunch', ...section('meal', 6)];
    const atShare = markdown([...day, ...section('day', 28), '## Day 3', ...day]);
    expect(dropRepeatedSections(atShare)).toBe(markdown([...day, ...section('day', 28), '## Day 3']));
    const belowShare = markdown([...day, ...section('day', 30), '## Day 3', ...day]);
    expect(dropRepeatedSections(belowShare)).toBe(belowShare);
  });

  it('keeps repeats that new blocks interrupt', () => {
    const refrain = paragraph('refrain', 60);
    const song = markdown([
      refrain,
      paragraph('verse1', 60),
      refrain,
      paragraph('verse2', 60),
      refrain,
      refrain,
    ]);
    expect(dropRepeatedSections(song)).toBe(song);
  });

  it('never compares fenced code, blank lines inside it included', () => {
    const code = ['```sh', paragraph('echo', 150), '', paragraph('echo', 150), '```'].join('\n');
    const page = markdown([code, code, code]);
    expect(dropRepeatedSections(page)).toBe(page);
  });
});

describe('extractHtml: a section a page draws twice', () => {
  it('reads once the plans a page draws for wide and narrow screens', async () => {
    const plans = Array.from(
      { length: 4 },
      (_, index) =>
        `<h3>Plan ${index + 1}</h3><p>${paragraph(`plan${index}word`, 70)} covers every team that signs up this year.</p>`,
    ).join('');
    const html =
      '<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Pricing</h1>' +
      `<p>${paragraph('intro', 120)} is how our pricing works for teams of every size.</p>` +
      `<div class="plans desktop">${plans}</div><div class="plans mobile">${plans}</div>` +
      `<p>${paragraph('outro', 80)} closes the page.</p></main></body></html>`;
    const article = await extractHtml(html, 'https://shop.example.org/pricing');
    expect(article.markdown.split('plan0word0 ').length - 1).toBe(1);
    expect(article.markdown.split('### Plan 4').length - 1).toBe(1);
    expect(article.text).toContain('outro79');
  });
});
