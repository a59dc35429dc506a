import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  unwrapLinkedParagraphs,
  WRAPPED_PARAGRAPH_MAX_LINK_SHARE,
  WRAPPED_PARAGRAPH_MIN_CHARS,
} from './paragraph-wrappers.js';
import { runReadability } from './stage-runs.js';

const documentOf = (body: string) =>
  parseHTML(`<!doctype html><html><body>${body}</body></html>`).document as unknown as Document;
const wrapped = (paragraph: string) =>
  `<div data-component="text-block"><div class="a1"><div class="b2">${paragraph}</div></div></div>`;

describe('unwrapLinkedParagraphs', () => {
  const MIN = WRAPPED_PARAGRAPH_MIN_CHARS;
  const LINKED_AT_BOUND = MIN * WRAPPED_PARAGRAPH_MAX_LINK_SHARE;
  const paragraph = (plain: number, linked: number) =>
    `<p>${'x'.repeat(plain)}<a href="/a">${'y'.repeat(linked)}</a></p>`;
  const unwrapped = (markup: string) => {
    const document = documentOf(`<main>${markup}</main>`);
    unwrapLinkedParagraphs(document);
    return document.querySelector('main')?.innerHTML;
  };

  it('takes the wrappers off a sentence whose links hold over a fifth and up to half of its text', () => {
    // WRAPPED_PARAGRAPH_MIN_CHARS characters, WRAPPED_PARAGRAPH_MAX_LINK_SHARE of them in the link.
    const atBounds = paragraph(MIN - LINKED_AT_BOUND, LINKED_AT_BOUND);
    expect(unwrapped(wrapped(atBounds))).toBe(atBounds);
  });

  it('leaves the wrappers of a paragraph mostly of links, too short, without links, or beside other content', () => {
    const beside = `<div class="c">${paragraph(60, 30)}<span>more</span></div>`;
    for (const markup of [
      // One character more in the link than the share allows; one character short of the length.
      wrapped(paragraph(MIN - LINKED_AT_BOUND - 1, LINKED_AT_BOUND + 1)),
      wrapped(paragraph(MIN - LINKED_AT_BOUND, LINKED_AT_BOUND - 1)),
      wrapped('<p>Plain words only, with no link in them at all, for as long as a sentence can run.</p>'),
      beside,
    ]) {
      expect(unwrapped(markup)).toBe(markup);
    }
  });
});

describe('runReadability: a story whose every paragraph is wrapped in its own components', () => {
  const sentences = [
    'The alliance was founded in 1949 by twelve countries that agreed to defend one another.',
    'It also aimed to prevent the revival of militarism and to encourage political integration.',
    'The alliance does not have its own army, but members can act together in a crisis.',
    'Finland, which has a long land border with its neighbour, joined in April 2023.',
    'Sweden became a member in March 2024 after a long wait for the last two approvals.',
    'Each member pays towards the common budget according to the size of its economy.',
  ];
  const linked =
    'Having been neutral for decades, <a href="/news/applied">both applied to join in May 2022</a>, shortly after the invasion began.';
  const short = 'Read more: <a href="/news/members">the members, country by country</a>';
  const page = (paragraphs: readonly string[]) =>
    `<!doctype html><html><head><title>What is the alliance?</title></head><body><main><article><h1>What is the alliance?</h1>${paragraphs.map((text) => wrapped(`<p>${text}</p>`)).join('')}</article></main></body></html>`;

  it("keeps a sentence that links part of its words in Readability's block (failing before: its wrapper went as linky)", async () => {
    const source = documentOf('');
    source.documentElement.innerHTML = page([...sentences.slice(0, 4), linked, short, ...sentences.slice(4)])
      .replace(/^<!doctype html><html>/, '')
      .replace(/<\/html>$/, '');
    const { found } = await runReadability(
      { url: 'https://news.example/a', baseUrl: 'https://news.example/a' },
      source,
    );
    expect(found?.article.text).toContain(
      'Having been neutral for decades, both applied to join in May 2022',
    );
    for (const sentence of sentences) expect(found?.article.text).toContain(sentence);
    // A line that is mostly its link keeps its wrapper, and Readability still removes it.
    expect(found?.article.text).not.toContain('Read more');
  });
});
