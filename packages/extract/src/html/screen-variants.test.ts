import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { parseHtmlDocument } from './parse-html-document.js';
import {
  dropScreenVariants,
  namesScreen,
  SCREEN_VARIANT_MIN_CHARS,
  SCREEN_VARIANT_MIN_SHARE,
  SCREEN_VARIANT_SEARCH_BUDGET,
} from './screen-variants.js';

const url = 'https://example.org/guides/harbour.html';
const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;
const story = (paragraphs: number[]) => paragraphs.map(paragraph).join('');
const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
const CHORUS =
  '<p>Oh the river runs and the river sings, and we follow it down to the sea tonight, singing all the way home again.</p>';
const REMINDER =
  '<section><h2>Before you go</h2><p>Check the tide table and tell someone on shore when you expect to be back; the harbour office keeps a log of every boat that leaves after dark.</p></section>';

const markdownOf = async (inner: string) =>
  (
    await extract({
      body: `<!doctype html><html><head><title>Harbour</title></head><body><main><h1>The harbour guide</h1>${inner}</main></body></html>`,
      url,
      contentType: 'text/html',
    })
  ).content;

describe('namesScreen', () => {
  it.each([
    'd-none d-md-block',
    'd-lg-none',
    'visible-xs',
    'hidden-sm',
    'show-for-medium',
    'hide-for-small-only',
    'is-hidden-mobile',
    'md:hidden',
    'hidden lg:block',
    'ssr-variant hidden-1rq27kw',
    'mobile-only',
    'desktop-view',
    'hide-on-mobile',
    'visible_tablet',
    'print-only',
    'desktop',
    'plans-desktop',
    'nav-mobile-only',
  ])('"%s" names a screen', async (classes) => {
    const document = await parseHtmlDocument(`<html><body><div class="${classes}">x</div></body></html>`);
    expect(namesScreen(document.querySelector('div') as Element)).toBe(true);
  });

  it.each([
    'hidden',
    'd-flex-wrap',
    'mobile-menu-button',
    'wide-image',
    'narrow',
    'width-narrow',
    'd-flex',
    'd-md-flex-wrap',
    'printer-list',
    'hidden-gems',
    'hidden-content',
    'chorus',
  ])('"%s" does not', async (classes) => {
    const document = await parseHtmlDocument(`<html><body><div class="${classes}">x</div></body></html>`);
    expect(namesScreen(document.querySelector('div') as Element)).toBe(false);
  });
});

describe('dropScreenVariants', () => {
  it('keeps one copy of a block drawn for wide and for narrow screens', async () => {
    const document = await parseHtmlDocument(
      `<html><body>${story([1])}<div class="d-none d-md-block">${story([2, 3])}</div><div class="d-md-none">${story([2, 3])}</div>${story([4])}</body></html>`,
    );
    expect(dropScreenVariants(document)).toBe(1);
    expect(count(document.body?.textContent ?? '', /Paragraph 2/g)).toBe(1);
    expect(count(document.body?.textContent ?? '', /Paragraph 4/g)).toBe(1);
  });

  it('keeps one of three server-rendered variants, and a copy marked for one screen beside an unmarked one', async () => {
    const variant = (hidden: string) => `<div class="ssr-variant ${hidden}">${story([5, 6])}</div>`;
    const framer = await parseHtmlDocument(
      `<html><body>${variant('hidden-bnz77l hidden-1rq27kw')}${variant('hidden-bnz77l hidden-12t0irv')}${variant('hidden-12t0irv hidden-1rq27kw')}</body></html>`,
    );
    expect(dropScreenVariants(framer)).toBe(2);
    expect(count(framer.body?.textContent ?? '', /Paragraph 5/g)).toBe(1);
    const marked = await parseHtmlDocument(
      `<html><body><div>${story([7])}</div><aside class="mobile-only">${story([7])}</aside></body></html>`,
    );
    expect(dropScreenVariants(marked)).toBe(1);
    expect(marked.querySelector('aside')).toBeNull();
  });

  it('keeps one copy of sections drawn as tabs for wide screens and as an accordion for narrow ones', async () => {
    const panel = (n: number) => `<div class="panel">${story([n, n + 10])}</div>`;
    const document = await parseHtmlDocument(
      `<html><body>${story([1])}<div class="tabs d-none d-md-block"><h3>WHAT IS A MOORING?</h3>${panel(2)}<h3>WHO MAY MOOR HERE?</h3>${panel(3)}</div>` +
        `<div class="accordion d-md-none"><button>What is a mooring?</button>${panel(2)}<button>Who may moor here?</button>${panel(3)}</div></body></html>`,
    );
    expect(dropScreenVariants(document)).toBe(1);
    expect(count(document.body?.textContent ?? '', /Paragraph 12/g)).toBe(1);
  });

  it(`leaves repeats without screen markup, variants under ${SCREEN_VARIANT_MIN_SHARE * 100} % of whose text stands elsewhere, and copies under ${SCREEN_VARIANT_MIN_CHARS} characters`, async () => {
    const document = await parseHtmlDocument(
      `<html><body>${CHORUS}${story([1])}${CHORUS}${REMINDER}${story([2])}${REMINDER}` +
        `<div class="d-none d-md-block">${story([3, 4])}</div><div class="d-md-none">${story([3, 9])}</div>` +
        '<p class="mobile-only">Read more</p><p class="desktop-only">Read more</p></body></html>',
    );
    expect(dropScreenVariants(document)).toBe(0);
  });
});

// Through extract(): failing before this rule for copies under the old 250-word bound of the
// Markdown rule (the copies were both kept) and for a real repeat over it (collapsed into one).
describe('extract: blocks a page repeats', () => {
  it('reads a block drawn once per screen once', async () => {
    const content = await markdownOf(
      `${story([1])}<div class="d-none d-md-block">${REMINDER}${story([2])}</div><div class="d-md-none">${REMINDER}${story([2])}</div>${story([3])}`,
    );
    expect(count(content, /Before you go/g)).toBe(1);
    expect(count(content, /Paragraph 2/g)).toBe(1);
    expect(content).toContain('Paragraph 3');
  });

  it('keeps a chorus, a repeated section and a long passage the page really gives twice', async () => {
    const long = story([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    const content = await markdownOf(
      `${CHORUS}${story([1])}${CHORUS}${story([2])}${CHORUS}${REMINDER}${story([3])}${REMINDER}<section><h2>The rules</h2>${long}</section>${story([4])}<section><h2>The rules</h2>${long}</section>`,
    );
    expect(count(content, /the river runs/g)).toBe(3);
    expect(count(content, /Before you go/g)).toBe(2);
    expect(count(content, /Paragraph 15 /g)).toBe(2);
  });
});

// Hostile markup: the comparisons search the text before each variant, within a budget, so
// thousands of nested variants over near-identical text cost a bounded amount and remove nothing
// they should not (the bench of hostile pages times them).
describe('dropScreenVariants on hostile markup', () => {
  it('keeps every paragraph of 3,000 nested variants whose texts differ only at the end', async () => {
    const depth = 3_000;
    const document = await parseHtmlDocument(
      `<html><body>${Array.from({ length: depth }, (_, i) => `<div class="d-none"><p>${'a'.repeat(300)}${i}</p>`).join('')}${'</div>'.repeat(depth)}</body></html>`,
    );
    expect(dropScreenVariants(document)).toBe(0);
    expect(document.querySelectorAll('p').length).toBe(depth);
  });

  it(`stops comparing once ${SCREEN_VARIANT_SEARCH_BUDGET.toLocaleString('en')} characters were searched`, async () => {
    const copies = 20_000;
    const document = await parseHtmlDocument(
      `<html><body><p>${'a'.repeat(300)}</p>${`<div class="d-none"><p>${'a'.repeat(300)}</p></div>`.repeat(copies)}</body></html>`,
    );
    const removed = dropScreenVariants(document);
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan(copies);
  });
});
