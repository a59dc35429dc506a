import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import {
  dropLayoutClasses,
  SECTION_HEADER_MIN_PROSE_WORDS,
  WRAPPER_MIN_PROSE_WORDS,
  WRAPPER_MIN_SHARE,
} from './layout-classes.js';
import { parseHtmlDocument } from './parse-html-document.js';

const encoder = new TextEncoder();

/** The Markdown `extract` makes of the page `html` at `url`. */
async function markdownOf(html: string, url: string): Promise<string> {
  const { content } = await extract({
    body: encoder.encode(html),
    url,
    contentType: 'text/html',
    format: 'markdown',
  });
  return content;
}

/** `count` distinct words, so that no extractor folds them as repeats. */
function prose(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

describe('extract: class names that only say how a box lays out', () => {
  it('keeps the anchored headings of a post whose headings keep clear of a sticky bar', async () => {
    const heading = (id: string, text: string) =>
      `<h2 id="${id}" class="group scroll-mt-24">${text}<a href="#${id}" class="ml-2 opacity-0">#</a></h2>`;
    const html =
      '<!doctype html><html><head><title>Tuning the tide model</title>' +
      '<meta property="og:type" content="article"></head><body><main><article>' +
      '<h1>Tuning the tide model</h1>' +
      `<p>${prose(80, 'opening')}</p>` +
      heading('calibration', 'Calibrating the gauges') +
      `<p>${prose(80, 'calibrating')}</p>` +
      heading('harmonics', 'Fitting the harmonics') +
      `<div class="overflow-hidden rounded-md"><pre><code>fit --constituents M2 S2 K1 O1</code></pre></div>` +
      `<p>${prose(80, 'fitting')}</p>` +
      '</article></main></body></html>';
    const content = await markdownOf(html, 'https://blog.example.org/tide-model');
    expect(content).toContain('## Calibrating the gauges');
    expect(content).toContain('## Fitting the harmonics');
    expect(content).toContain('fit --constituents M2 S2 K1 O1');
  });
});

describe('extract: a data table whose header row stays in view', () => {
  it("keeps a list article's sortable table classed `sticky-header`", async () => {
    const rows = Array.from(
      { length: 40 },
      (_, index) =>
        `<tr><td>${1950 + index}</td><td><a href="/wiki/Keeper_${index}">Keeper ${index}</a></td>` +
        `<td><a href="/wiki/Light_${index}">Light ${index}</a></td></tr>`,
    ).join('');
    const html =
      '<!doctype html><html><head><title>List of lighthouse keepers</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","name":"List of lighthouse keepers"}</script>' +
      '</head><body><main><div class="mw-parser-output">' +
      `<p>${prose(120, 'history')}</p>` +
      '<table class="wikitable sortable sticky-header"><thead><tr><th>Year</th><th>Keeper</th><th>Light</th></tr></thead>' +
      `<tbody>${rows}</tbody></table><p>${prose(60, 'notes')}</p></div></main></body></html>`;
    const content = await markdownOf(html, 'https://wiki.example.org/wiki/List_of_lighthouse_keepers');
    expect(content).toContain('| Year | Keeper | Light |');
    expect(content).toContain('Keeper 39');
    expect(content).toContain('notes59');
  });
});

describe('extract: a wrapper named as page chrome', () => {
  it('reads a page whose whole text sits in an element named as its footer', async () => {
    const html =
      '<!doctype html><html><head><title>Booking a table at Harbour Grill</title>' +
      '<meta property="og:type" content="article"></head><body>' +
      `<div class="promo"><p>${prose(120, 'offer')}</p></div>` +
      '<div class="page1-footer"><div class="booking"><h1>Booking a table at Harbour Grill</h1>' +
      `<p>${prose(150, 'menu')}</p><p>${prose(150, 'hours')}</p></div>` +
      '<div class="links"><a href="/about">About</a> <a href="/careers">Careers</a></div></div>' +
      '</body></html>';
    const content = await markdownOf(html, 'https://tables.example.com/harbour-grill');
    expect(content).toContain('menu149');
    expect(content).toContain('hours149');
  });
});

describe('extract: a section headed by an element named as a header', () => {
  it("keeps a listicle's introduction in a `listicle-header`", async () => {
    const item = (index: number) =>
      `<section class="listicle-item"><h2>Idea ${index}</h2><p>${prose(60, `idea${index}x`)}</p></section>`;
    const html =
      '<!doctype html><html><head><title>Ten ways to refresh a room</title>' +
      '<meta property="og:type" content="article"></head><body>' +
      '<header class="site-header"><nav><a href="/">Home</a> <a href="/ideas">Ideas</a></nav></header><main>' +
      '<section class="listicle-header"><h1>Ten ways to refresh a room</h1>' +
      `<p>${prose(70, 'intro')}</p></section>` +
      `${Array.from({ length: 6 }, (_, index) => item(index + 1)).join('')}</main></body></html>`;
    const content = await markdownOf(html, 'https://rooms.example.com/refresh');
    expect(content).toContain('intro69');
    expect(content).toContain('idea6x59');
    expect(content).not.toContain('[Ideas]');
  });
});

describe('extract: class names frameworks give to content', () => {
  it('keeps the text of Bootstrap cards and of Elementor sections that fade in', async () => {
    const card = (title: string, prefix: string) =>
      `<div class="col-md-4"><div class="card"><div class="card-body"><h3 class="card-title">${title}</h3>` +
      `<p class="card-text">${prose(40, prefix)}</p></div></div></div>`;
    const html =
      '<!doctype html><html><head><title>Services | Northwind Movers</title></head><body>' +
      '<header><nav><a href="/">Home</a> <a href="/services">Services</a></nav></header><main>' +
      `<h1>Moving services</h1><p>${prose(150, 'intro')}</p><p>${prose(150, 'about')}</p>` +
      `<div class="row">${card('Packing', 'packing')}${card('Loading', 'loading')}${card('Storage', 'storage')}</div>` +
      '<section class="elementor-section elementor-invisible" data-settings=\'{"animation":"fadeInUp"}\'>' +
      `<h2>Why customers choose us</h2><p>${prose(50, 'why')}</p></section>` +
      '</main><footer><p>Northwind Movers</p></footer></body></html>';
    const content = await markdownOf(html, 'https://movers.example.com/services');
    for (const prefix of ['packing', 'loading', 'storage']) expect(content).toContain(`${prefix}39`);
    expect(content).toContain('## Why customers choose us');
    expect(content).toContain('why49');
  });

  it("keeps a landing page's hero: its headline and what it offers", async () => {
    const html =
      '<!doctype html><html><head><title>Tidewell: plan work with your clients</title></head><body>' +
      '<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header><main>' +
      '<section class="hero-section"><div class="hero-content"><h1>Plan client work in one place</h1>' +
      `<p class="hero-lead">${prose(30, 'lead')}</p></div></section>` +
      `<section><h2>Boards for every client</h2><p>${prose(150, 'boards')}</p><p>${prose(150, 'reports')}</p></section>` +
      '</main><footer><p>Tidewell</p></footer></body></html>';
    const content = await markdownOf(html, 'https://tidewell.example.com/');
    expect(content).toContain('Plan client work in one place');
    expect(content).toContain('lead29');
    expect(content).toContain('reports149');
  });
});

describe('dropLayoutClasses', () => {
  it('drops scrolling, overflow, sticky and shared-style names and keeps every other name', async () => {
    const document = await parseHtmlDocument(
      '<html><body><h2 id="a" class="group Scroll-mt-24">A</h2><div id="b" class="box overflow-x-hidden">B</div>' +
        '<h3 id="c" class="anchorTargetHideOnScrollNavbar_qJOx">C</h3><div id="d" class="ContentSystem-shared-styles__Header-sc-1 x">D</div>' +
        '<div id="e" class="sharedaddy sd-sharing">E</div><a id="f" class="scroll-to-top" href="#top">top</a>' +
        '<table id="g" class="wikitable sortable sticky-header"><tr><td>G</td></tr></table></body></html>',
    );
    dropLayoutClasses(document);
    const classOf = (id: string) => document.getElementById(id)?.getAttribute('class') ?? null;
    expect(classOf('a')).toBe('group');
    expect(classOf('b')).toBe('box');
    expect(classOf('c') ?? '').toBe('');
    expect(classOf('d')).toBe('x');
    expect(classOf('e')).toBe('sharedaddy sd-sharing');
    expect(classOf('f')).toBe('scroll-to-top');
    expect(classOf('g')).toBe('wikitable sortable');
  });

  it("drops the frameworks' names for content, whole names only", async () => {
    const document = await parseHtmlDocument(
      '<html><body><p id="a" class="card-text small">A</p><section id="b" class="elementor-section Elementor-Invisible">B</section>' +
        '<p id="c" class="card-text-muted">C</p><div id="d" class="invisible">D</div></body></html>',
    );
    dropLayoutClasses(document);
    const classOf = (id: string) => document.getElementById(id)?.getAttribute('class') ?? null;
    expect(classOf('a')).toBe('small');
    expect(classOf('b')).toBe('elementor-section');
    expect(classOf('c')).toBe('card-text-muted');
    expect(classOf('d')).toBe('invisible');
  });

  it("drops the names of a page's hero", async () => {
    const document = await parseHtmlDocument(
      '<html><body><section id="a" class="hero-section dark"><h1 id="b" class="c-Hero__title">A</h1></section>' +
        '<div id="c" class="heroBanner">C</div><div id="d" class="banner">D</div></body></html>',
    );
    dropLayoutClasses(document);
    const classOf = (id: string) => document.getElementById(id)?.getAttribute('class') ?? null;
    expect(classOf('a')).toBe('dark');
    expect(classOf('b') ?? '').toBe('');
    expect(classOf('c') ?? '').toBe('');
    expect(classOf('d')).toBe('banner');
  });
});

describe('dropLayoutClasses: wrappers named as chrome', () => {
  const page = (wrapperWords: number, otherWords: number, links = 0) =>
    '<html><body><header id="top" class="site-header"><a href="/">Home</a></header>\n' +
    `<div id="w" class="story-column with-sidebar"><p>${prose(wrapperWords, 'story')}</p>\n` +
    `${Array.from({ length: links }, (_, index) => `<a href="/${index}">link${index}</a>`).join(' ')}</div>\n` +
    `<div id="o" class="site-footer"><p>${prose(otherWords, 'legal')}</p></div></body></html>`;
  const classOf = async (html: string, id: string) => {
    const document = await parseHtmlDocument(html);
    dropLayoutClasses(document);
    return document.getElementById(id)?.getAttribute('class') ?? null;
  };

  it('drops the chrome words of an element holding half the page’s words, and not below', async () => {
    expect(WRAPPER_MIN_SHARE).toBe(0.5);
    // The header's one word counts too: 150 of 301 is under half, 151 of 301 is over.
    expect(await classOf(page(150, 150), 'w')).toBe('story-column with-sidebar');
    expect(await classOf(page(151, 149), 'w')).toBe('story-column');
    // The footer and the header keep their names.
    expect(await classOf(page(151, 149), 'o')).toBe('site-footer');
    expect(await classOf(page(151, 149), 'top')).toBe('site-header');
  });

  it('needs WRAPPER_MIN_PROSE_WORDS words outside links, and links under 30 % of its words', async () => {
    expect(WRAPPER_MIN_PROSE_WORDS).toBe(100);
    expect(await classOf(page(100, 0), 'w')).toBe('story-column');
    expect(await classOf(page(99, 0), 'w')).toBe('story-column with-sidebar');
    expect(await classOf(page(140, 0, 60), 'w')).toBe('story-column');
    expect(await classOf(page(140, 0, 61), 'w')).toBe('story-column with-sidebar');
  });
});

describe('dropLayoutClasses: headers of sections', () => {
  const classOf = async (html: string, id: string) => {
    const document = await parseHtmlDocument(`<html><body>${html}<p>${prose(400, 'rest')}</p></body></html>`);
    dropLayoutClasses(document);
    return document.getElementById(id)?.getAttribute('class') ?? null;
  };

  it('drops "header" from a block of SECTION_HEADER_MIN_PROSE_WORDS words of prose, and not below', async () => {
    expect(SECTION_HEADER_MIN_PROSE_WORDS).toBe(30);
    expect(await classOf(`<div id="h" class="gm-header left"><p>${prose(30, 'pitch')}</p></div>`, 'h')).toBe(
      'left',
    );
    expect(await classOf(`<div id="h" class="gm-header left"><p>${prose(29, 'pitch')}</p></div>`, 'h')).toBe(
      'gm-header left',
    );
  });

  it("keeps the names of the page's own header", async () => {
    const pitch = `<p>${prose(40, 'pitch')}</p>`;
    // Inside the page's chrome, or holding its navigation, a form or a button.
    expect(await classOf(`<header><div id="h" class="header-inner">${pitch}</div></header>`, 'h')).toBe(
      'header-inner',
    );
    expect(
      await classOf(`<div id="h" class="header-wrap"><nav><a href="/">Home</a></nav>${pitch}</div>`, 'h'),
    ).toBe('header-wrap');
    expect(await classOf(`<div id="h" class="header-wrap">${pitch}<button>Sign up</button></div>`, 'h')).toBe(
      'header-wrap',
    );
    // Mostly links: a menu's descriptions.
    const menu = Array.from({ length: 14 }, (_, index) => `<a href="/${index}">product ${index}</a>`).join(
      ' ',
    );
    expect(await classOf(`<div id="h" class="header-wrap">${pitch}${menu}</div>`, 'h')).toBe('header-wrap');
  });
});
