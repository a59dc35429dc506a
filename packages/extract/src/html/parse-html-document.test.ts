import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { parseHtmlDocument } from './parse-html-document.js';

const shape = async (html: string) => {
  const document = await parseHtmlDocument(html);
  const root = document.documentElement;
  return {
    root: root.localName,
    children: Array.from(root.children).map((child) => child.localName),
    head: document.head.innerHTML,
    body: document.body.innerHTML,
    title: document.title,
  };
};

describe('parseHtmlDocument', () => {
  it('adds the implied html, head and body to a valid HTML5 page that leaves them out', async () => {
    expect(
      await shape(
        '<!doctype html><meta charset=utf-8><title>Tides</title><h1>Tides</h1><p>High water at noon.</p>',
      ),
    ).toEqual({
      root: 'html',
      children: ['head', 'body'],
      head: '<meta charset="utf-8"><title>Tides</title>',
      body: '<h1>Tides</h1><p>High water at noon.</p>',
      title: 'Tides',
    });
  });

  it('puts a bare fragment and bare words in the body', async () => {
    expect(await shape('<p>One</p><p>Two</p>')).toMatchObject({ body: '<p>One</p><p>Two</p>', head: '' });
    expect(await shape('just words &amp; more')).toMatchObject({ body: 'just words &amp; more' });
    expect(await shape('')).toMatchObject({ root: 'html', children: ['head', 'body'], body: '' });
    expect(await shape('<!doctype html>')).toMatchObject({
      root: 'html',
      children: ['head', 'body'],
      body: '',
    });
  });

  it('keeps metadata that follows body content in the body, as a browser does', async () => {
    const result = await shape('<title>T</title><p>Text</p><style>p{}</style>');
    expect(result.head).toBe('<title>T</title>');
    expect(result.body).toBe('<p>Text</p><style>p{}</style>');
  });

  it('keeps the attributes of the html and body tags of a page it rebuilds, the first tag of each name winning', async () => {
    // A style before <html> makes linkedom take the style for the document element.
    const document = await parseHtmlDocument(
      '<!doctype html><style>p{}</style><html lang="en" data-theme="a&quot;b"><head><title>T</title></head>' +
        '<body class="post single"><p>Text</p></body></html><html lang="fr" dir="ltr"><body class="other" id="top">',
    );
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.documentElement.getAttribute('data-theme')).toBe('a"b');
    expect(document.documentElement.getAttribute('dir')).toBe('ltr');
    expect(document.body.getAttribute('class')).toBe('post single');
    expect(document.body.getAttribute('id')).toBe('top');
    expect(document.body.innerHTML).toBe('<p>Text</p>');
  });

  it('reads attribute names in lower case, as a browser does, the first of a repeated name winning', async () => {
    const document = await parseHtmlDocument(
      '<!doctype html><html><head><META NAME="Author" CONTENT="Jane Doe"></head><body>' +
        '<DIV CLASS="byline" Id="by" class="second">By <A HREF="/jane">Jane</A></DIV>' +
        '<svg viewBox="0 0 8 8"><path d="M0 0"/></svg></body></html>',
    );
    const byline = document.querySelector('.byline');
    expect(byline?.getAttribute('id')).toBe('by');
    expect(byline?.outerHTML).toBe('<div class="byline" id="by">By <a href="/jane">Jane</a></div>');
    expect(document.querySelector('a[href="/jane"]')).not.toBeNull();
    expect(document.querySelector('meta[name="Author"]')?.getAttribute('content')).toBe('Jane Doe');
    // SVG names are case-sensitive and keep their case.
    expect(document.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 8 8');
    // A rebuilt page (no <html> first) reads them in lower case too.
    const rebuilt = await parseHtmlDocument('<P CLASS="lead">Text <A HREF="/more">more</A></P>');
    expect(rebuilt.body.innerHTML).toBe('<p class="lead">Text <a href="/more">more</a></p>');
  });

  it('adds the body an html element without one is missing, keeping its head', async () => {
    expect(await shape('<html><head><title>T</title></head><p>No body tag</p></html>')).toMatchObject({
      children: ['head', 'body'],
      head: '<title>T</title>',
      body: '<p>No body tag</p>',
    });
    expect(await shape('<head><title>T</title></head><body><p>Y</p></body>')).toMatchObject({
      head: '<title>T</title>',
      body: '<p>Y</p>',
    });
  });

  it('moves elements beside the head and body into them, as a browser places them', async () => {
    const html =
      '<!doctype html><html><link rel="icon" href="/i.png"><head><title>T</title></head>' +
      '<div id="consent">Cookies</div><script>tag()</script><body class="b"><p>Story</p></body>' +
      '<div id="late">Late</div><body><p>Second body</p></body></html>';
    expect(await shape(html)).toEqual({
      root: 'html',
      children: ['head', 'body'],
      head: '<title>T</title><link rel="icon" href="/i.png">',
      body: '<div id="consent">Cookies</div><script>tag()</script><p>Story</p><div id="late">Late</div><p>Second body</p>',
      title: 'T',
    });
    const document = await parseHtmlDocument(html);
    expect(document.body.getAttribute('class')).toBe('b');
  });

  it('reads a story whose page puts an element between </head> and <body>', async () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, index) =>
        `<p>Paragraph ${index} of the garden column says how shrub ${index} grows, when to plant it and how to prune it.</p>`,
    ).join('');
    // Readability drops a column named "with-sidebar" and, finding too little, tries again from the
    // body: the body it rereads must be the page's, not an empty one.
    const html =
      '<!doctype html><html><head><title>Evergreens</title><meta property="og:type" content="article"></head>' +
      '<div class="tag-manager"></div><body><header><a href="/">Echo</a></header>' +
      `<div class="col-story with-sidebar"><article><h1>Three great evergreens</h1>${paragraphs}</article></div>` +
      '<div class="pop-up"><p>Add the Echo to your home screen for easy access to news, views, sport and more</p></div>' +
      '</body></html>';
    const article = await extractHtml(html, 'https://news.example.org/garden');
    // Readability's block (cleaned by Defuddle) is the whole story, which passes Defuddle's whole-page article over.
    expect(article.stage).toBe('readability');
    expect(article.parserFailures.map((failure) => failure.stage)).toEqual(['defuddle']);
    expect(article.text).toContain('Paragraph 0 of the garden column');
    expect(article.text).toContain('Paragraph 11 of the garden column');
    expect(article.text).not.toContain('home screen');
  });

  it('leaves a complete document as parsed', async () => {
    const html =
      '<!doctype html><html lang="en"><head><title>T</title></head><body class="b"><p>x</p></body></html>';
    const document = await parseHtmlDocument(html);
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.body.getAttribute('class')).toBe('b');
  });
});
