import { describe, expect, it } from 'vitest';
import { extract, extractWith } from '../extract.js';
import { MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from '../html-bounds.js';
import { htmlToStreamedText } from './html-streamed-text.js';
import { readPageMetadata, readStatedMetadata } from './page-metadata.js';
import { MAX_STATED_ELEMENTS, MAX_STATED_JSON_LD_CHARS, statedMarkup } from './stated-markup.js';

const url = 'https://example.org/report';

const HEAD = `<head><title>Harbour dredging report | Kessel Courier</title>
<meta property="og:site_name" content="Kessel Courier">
<meta property="og:title" content="Harbour dredging report">
<meta name="description" content="What the dredging of the east channel costs &amp; when it starts.">
<script type="application/ld+json">{"@type":"NewsArticle","author":[{"@type":"Person","name":"Ada Brand"},{"@type":"Person","name":"Ole Wik"}],"datePublished":"2025-11-03T08:00:00+01:00"}</script>
</head>`;

const STATED = {
  title: 'Harbour dredging report',
  author: 'Ada Brand, Ole Wik',
  published: '2025-11-03T08:00:00+01:00',
  siteName: 'Kessel Courier',
  language: 'en-GB',
  description: 'What the dredging of the east channel costs & when it starts.',
};

const page = (body: string) => `<!doctype html><html lang="en-GB">${HEAD}<body>${body}</body></html>`;

describe('a page read by streaming states its metadata', () => {
  it('past the element bound: from its meta tags, JSON-LD and <html lang>, with the title without the site', async () => {
    const rows = '<p>The east channel is dredged in winter.</p>'.repeat(MAX_HTML_ELEMENTS);
    const document = await extract({ body: page(`<h1>Harbour dredging report</h1>${rows}`), url });
    expect(document.stage).toBe('streamed-text');
    expect(document).toMatchObject(STATED);
  });

  it('past the depth bound', async () => {
    const depth = MAX_HTML_DEPTH + 10;
    const body = `${'<div>'.repeat(depth)}<p>The east channel is dredged in winter.</p>${'</div>'.repeat(depth)}`;
    const document = await extract({ body: page(body), url });
    expect(document.stage).toBe('streamed-text');
    expect(document).toMatchObject(STATED);
  });

  it('when a pool retries the page by streaming after the DOM stages ran out of time', async () => {
    const document = await extractWith(
      { body: page('<main><p>The east channel is dredged in winter.</p></main>'), url },
      { skipDomStages: 'the DOM stages ran out of time' },
    );
    expect(document.stage).toBe('streamed-text');
    expect(document).toMatchObject(STATED);
  });

  it('states nothing a page does not say', async () => {
    const body = `<!doctype html><html><body>${'<p>Words.</p>'.repeat(MAX_HTML_ELEMENTS)}</body></html>`;
    const document = await extract({ body, url });
    expect(document.stage).toBe('streamed-text');
    for (const field of ['author', 'published', 'siteName', 'language', 'description', 'title']) {
      expect(document).not.toHaveProperty(field);
    }
  });

  it("takes the page's first <title>, not a drawing's", async () => {
    const html =
      '<html><head></head><body><svg><title>Anchor icon</title></svg><title>Tides</title><title>Later</title></body></html>';
    expect((await htmlToStreamedText(html, url)).title).toBe('Tides');
  });

  it("reads what the page's tree would give from its tags: split text, entities, microdata, <time>", async () => {
    const pages = [
      '<html><body><script type="application/ld+json">{"@type":"BlogPosting","author":{"name":"Ada &amp; Ole"},"datePublished":"2025-01-02"}</script></body></html>',
      '<html lang="nb"><head><meta itemprop="datePublished" content="2024-06-01"><meta name="author" content="Kari Nordmann"></head><body><p>Tekst</p></body></html>',
      '<html><head><title>Tides &amp; currents — Harbour Log</title></head><body><h1>Tides <em>&amp;</em> currents</h1><time pubdate datetime="2023-09-09">9 September</time></body></html>',
      '<html><body><article><time itemprop="datePublished" datetime="2021-05-05">May</time></article></body></html>',
      '<html><head><meta property="og:locale" content="fr_FR"><meta property="article:published_time" content="2022-02-02T10:00:00Z"></head><body></body></html>',
    ];
    for (const html of pages) {
      const { stated } = await htmlToStreamedText(html, url);
      expect(readStatedMetadata(stated).metadata, html).toEqual(await readPageMetadata(html));
    }
  });
});

describe('the streamed statement is bounded', () => {
  const siteMeta = { property: 'og:site_name', content: 'Kessel Courier' };

  it(`keeps ${MAX_STATED_ELEMENTS} elements and no more`, () => {
    const atBound = statedMarkup();
    for (let index = 1; index < MAX_STATED_ELEMENTS; index++)
      atBound.open('meta', { name: `filler-${index}`, content: 'x' });
    atBound.open('meta', siteMeta);
    expect(atBound.tree().children).toHaveLength(MAX_STATED_ELEMENTS);
    expect(readStatedMetadata(atBound.tree()).metadata.siteName).toBe('Kessel Courier');

    const past = statedMarkup();
    for (let index = 0; index < MAX_STATED_ELEMENTS; index++)
      past.open('meta', { name: `filler-${index}`, content: 'x' });
    past.open('meta', siteMeta);
    expect(past.tree().children).toHaveLength(MAX_STATED_ELEMENTS);
    expect(readStatedMetadata(past.tree()).metadata.siteName).toBeUndefined();
  });

  it("keeps no post's or entry's time, so a long thread's times leave room for what follows them", async () => {
    const posts = '<article><time datetime="2024-01-01T10:00:00Z">Jan 1</time><p>Reply.</p></article>'.repeat(
      MAX_STATED_ELEMENTS + 1,
    );
    const html = `<html><body>${posts}<script type="application/ld+json">{"@type":"DiscussionForumPosting","author":{"name":"Ada Brand"},"datePublished":"2023-12-31"}</script></body></html>`;
    const { stated } = await htmlToStreamedText(html, url);
    expect(stated.children?.map((node) => node.name)).toEqual(['html', 'script']);
    expect(readStatedMetadata(stated).metadata).toMatchObject({
      author: 'Ada Brand',
      published: '2023-12-31',
    });
  });

  it(`keeps ${MAX_STATED_JSON_LD_CHARS} characters of JSON-LD, every script's together`, () => {
    const stated = statedMarkup();
    const script = { type: 'application/ld+json' };
    stated.open('script', script);
    stated.text('x'.repeat(MAX_STATED_JSON_LD_CHARS - 10));
    stated.close('script');
    stated.open('script', script);
    stated.text('y'.repeat(20));
    stated.close('script');
    // At the bound the next script is not kept at all.
    stated.open('script', script);
    stated.text('z');
    stated.close('script');
    const scripts = stated.tree().children ?? [];
    expect(scripts).toHaveLength(2);
    expect(scripts[1]?.children?.[0]?.data).toBe('y'.repeat(10));
  });
});
