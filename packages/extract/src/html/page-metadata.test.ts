import { describe, expect, it } from 'vitest';
import { MAX_HTML_DEPTH } from '../html-bounds.js';
import { toIsoDate } from './metadata-dates.js';
import { languageTag, MAX_DESCRIPTION_CHARS, MAX_METADATA_FIELD_CHARS } from './metadata-text.js';
import { readPageMetadata } from './page-metadata.js';

const page = (head: string, body = '<p>Text.</p>', htmlAttributes = '') =>
  `<!doctype html><html${htmlAttributes}><head><title>T</title>${head}</head><body>${body}</body></html>`;
const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('readPageMetadata: JSON-LD', () => {
  it('reads the article node of a @graph, resolving its author, publisher and page references', async () => {
    const html = page(
      ld({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebSite', '@id': '#site', name: 'Harbour Gazette', inLanguage: 'en-GB' },
          { '@type': 'Organization', '@id': '#org', name: 'Harbour Gazette Ltd' },
          { '@type': 'Person', '@id': '#jane', name: 'Jane Doe' },
          {
            '@type': 'NewsArticle',
            author: { '@id': '#jane' },
            publisher: { '@id': '#org' },
            datePublished: '2024-03-05T09:30:00-05:00',
            description: 'Tide tables for March.',
          },
        ],
      }),
    );
    expect(await readPageMetadata(html)).toEqual({
      author: 'Jane Doe',
      published: '2024-03-05T09:30:00-05:00',
      siteName: 'Harbour Gazette Ltd',
      language: 'en-GB',
      description: 'Tide tables for March.',
    });
  });

  it('joins an array of authors, objects and strings alike, and drops a leading "By"', async () => {
    const html = page(
      ld([
        {
          '@type': 'BlogPosting',
          author: [
            { '@type': 'Person', name: 'Ada Lovelace' },
            'By Charles Babbage',
            { name: 'https://x.test/u' },
          ],
        },
      ]),
    );
    expect((await readPageMetadata(html)).author).toBe('Ada Lovelace, Charles Babbage');
  });

  it("reads the article a WebPage names as its mainEntity, over the page's Dublin Core", async () => {
    const html = page(
      `<meta name="dc.creator" content="You, Xiaoying">${ld({
        '@context': 'https://schema.org',
        '@type': 'WebPage',
        mainEntity: {
          '@type': 'NewsArticle',
          datePublished: '2025-11-03T00:00:00Z',
          author: [
            { '@type': 'Person', name: 'Xiaoying You' },
            { '@type': 'Person', name: 'Mariana Lenharo' },
          ],
        },
      })}`,
    );
    const metadata = await readPageMetadata(html);
    expect(metadata.author).toBe('Xiaoying You, Mariana Lenharo');
    expect(metadata.published).toBe('2025-11-03T00:00:00Z');
  });

  it('reads a script with a trailing comma and decodes entities in its strings', async () => {
    const html = page(
      '<script type="application/ld+json">{"@type":"Article","author":{"name":"Tom &amp; Jerry"},}</script>',
    );
    expect((await readPageMetadata(html)).author).toBe('Tom & Jerry');
  });
});

describe('readPageMetadata: meta tags', () => {
  it('reads Open Graph, article:published_time and the description', async () => {
    const html = page(
      `<meta property="og:site_name" content="The Quay"><meta property="article:published_time" content="2023-11-02T08:00:00Z">
       <meta name="author" content="Sam Lee"><meta name="description" content="  Boats   and tides. ">`,
    );
    expect(await readPageMetadata(html)).toEqual({
      author: 'Sam Lee',
      published: '2023-11-02T08:00:00Z',
      siteName: 'The Quay',
      description: 'Boats and tides.',
    });
  });

  it('prefers Dublin Core to a bare author, and reads space-separated property names', async () => {
    const html = page(
      `<meta name="author" content="Loose Name"><meta property="dc:creator twitter:site_name" content="Core Name">
       <meta name="DC.date.issued" content="2019/04/30">`,
    );
    const metadata = await readPageMetadata(html);
    expect(metadata.author).toBe('Core Name');
    expect(metadata.published).toBe('2019-04-30');
  });

  it('joins every Highwire citation_author, each in reading order, and ignores an author that is a profile URL', async () => {
    const html = page(
      `<meta property="article:author" content="https://facebook.com/someone">
       <meta name="citation_author" content="Curie, Marie"><meta name="citation_author" content="Curie, Pierre">`,
    );
    expect((await readPageMetadata(html)).author).toBe('Marie Curie, Pierre Curie');
  });

  it('ignores an author that is an email address, whatever its domain', async () => {
    for (const address of ['d.kuckelkorn@boersen-zeitung.de', 'desk@news.example']) {
      const html = page(
        `<meta name="author" content="${address}">`,
        '<p class="byline">By Dieter Kuckelkorn</p>',
      );
      expect((await readPageMetadata(html)).author, address).toBe('Dieter Kuckelkorn');
    }
  });

  it("reads the writer an SEO plugin's sharing card names, after every visible byline", async () => {
    const card = (label: string, name: string) =>
      `<meta name="twitter:label1" content="Est. reading time"><meta name="twitter:data1" content="3 minutes">` +
      `<meta name="twitter:label2" content="${label}"><meta name="twitter:data2" content="${name}">`;
    expect((await readPageMetadata(page(card('Written by', 'Anna Sleegers')))).author).toBe('Anna Sleegers');
    expect((await readPageMetadata(page(card('Verfasst von', 'Anna Sleegers')))).author).toBe(
      'Anna Sleegers',
    );
    const misc = page('<meta name="twitter:misc:Written by" content="Dieter Kuckelkorn">');
    expect((await readPageMetadata(misc)).author).toBe('Dieter Kuckelkorn');
    // Another label's data is no writer, and a visible byline goes first.
    expect((await readPageMetadata(page(card('Filed under', 'Markets')))).author).toBeUndefined();
    const both = page(card('Written by', 'admin'), '<p class="byline">By Jane Doe</p><p>Text.</p>');
    expect((await readPageMetadata(both)).author).toBe('Jane Doe');
  });

  it('reads a tag that states its value in `value` instead of `content`, and a <data> element', async () => {
    const html = page(
      `<meta name="author" value="Lena Ortiz"><meta property="article:published_time" value="2019-04-25T07:00:25Z">
       <meta property="og:site_name" value="Harbour Gazette">`,
      '<form><input name="author" value="Not Me"></form>',
    );
    expect(await readPageMetadata(html)).toEqual({
      author: 'Lena Ortiz',
      published: '2019-04-25T07:00:25Z',
      siteName: 'Harbour Gazette',
    });
    const dated = page('', '<data itemprop="datePublished" value="2021-06-02">2 June</data>');
    expect((await readPageMetadata(dated)).published).toBe('2021-06-02');
  });
});

describe('readPageMetadata: where else a page states its publication date', () => {
  const date = async (head: string, body = '<p>Text.</p>') =>
    (await readPageMetadata(page(head, body))).published;

  it('reads OriginalPublicationDate, rnews and the pub_date of a parsely-page tag', async () => {
    expect(await date('<meta name="OriginalPublicationDate" content="2014-06-30T16:54:02+00:00">')).toBe(
      '2014-06-30T16:54:02Z',
    );
    expect(await date('<meta property="rnews:datePublished" content="2010-02-22T11:53:04+00:00">')).toBe(
      '2010-02-22T11:53:04Z',
    );
    expect(
      await date(
        `<meta name="parsely-page" content='{"title": "T", "pub_date": "2014-11-23T16:00:00+04:00"}'>`,
      ),
    ).toBe('2014-11-23T16:00:00+04:00');
    expect(await date(`<meta name="parsely-page" content='{"title": "T"'>`)).toBeUndefined();
  });

  it("reads Cxense's publish time", async () => {
    expect(await date('<meta name="cXenseParse:recs:publishtime" content="2018-06-18T10:01:00.000Z">')).toBe(
      '2018-06-18T10:01:00Z',
    );
  });

  it("reads JSON-LD's Unix time, and its dateCreated only after the tags' publication date", async () => {
    expect(await date(ld({ '@type': 'NewsArticle', datePublished: 1676551869 }))).toBe(
      '2023-02-16T12:51:09Z',
    );
    const created = ld({ '@type': 'NewsArticle', dateCreated: '2017-02-24T01:18:13Z' });
    expect(
      await date(`${created}<meta property="article:published_time" content="2017-02-23T17:18:13-08:00">`),
    ).toBe('2017-02-23T17:18:13-08:00');
    expect(await date(created)).toBe('2017-02-24T01:18:13Z');
  });

  it("reads an element whose class names the date (pubdate, hAtom's published), but not a table's or an updated one", async () => {
    expect(await date('', '<div class="pubdate"> 2014-11-23T16:00:00+04:00 </div>')).toBe(
      '2014-11-23T16:00:00+04:00',
    );
    expect(await date('', '<abbr class="published" title="2016-12-06T12:06:00-08:00">12:06 PM</abbr>')).toBe(
      '2016-12-06T12:06:00-08:00',
    );
    expect(
      await date('', '<table><tr><td><span class="dtstart published">1998-02-28</span></td></tr></table>'),
    ).toBeUndefined();
    expect(await date('', '<span class="published updated">1998-02-28</span>')).toBeUndefined();
    expect(await date('', '<div class="pubdate">Published by the harbour office</div>')).toBeUndefined();
  });
});

describe('readPageMetadata: microdata', () => {
  it('reads the names of nested author items, the publication date and the publisher', async () => {
    const html = page(
      '',
      `<article itemscope itemtype="https://schema.org/Article">
        <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ines Park</span></span>
        and <span itemprop="author" itemscope><meta itemprop="name" content="Olu Ade"></span>
        <time itemprop="datePublished" datetime="2022-07-14">14 July</time>
        <div itemprop="publisher" itemscope><span itemprop="name">Tideway Press</span></div>
      </article>`,
    );
    expect(await readPageMetadata(html)).toEqual({
      author: 'Ines Park, Olu Ade',
      published: '2022-07-14',
      siteName: 'Tideway Press',
    });
  });
});

describe('readPageMetadata: microdata of several writings', () => {
  const item = (headline: string, author: string) =>
    `<li itemscope itemtype="https://schema.org/Article"><span itemprop="headline">${headline}</span> <span itemprop="author">${author}</span></li>`;

  it("names the writer of the page's writing, not the writers of the others it lists as items", async () => {
    // A stream of other stories before the story, each an item with its writer; the story's item
    // holds the page's headline.
    const stream = `<aside><ul>${item('Bridge repairs', 'Lena Brandt')}${item('Oyster season', 'Samir Haddad')}</ul></aside>`;
    const story = `<article itemscope itemtype="https://schema.org/NewsArticle"><h1 itemprop="headline">Night market moves</h1><p>By <span itemprop="author">Marco Bellini</span></p><p>Text.</p></article>`;
    expect((await readPageMetadata(page('', stream + story))).author).toBe('Marco Bellini');
    // A thread's posts: the first post's writer started it.
    const post = (type: string, author: string) =>
      `<div itemscope itemtype="https://schema.org/${type}"><p>Text.</p><span itemprop="author">${author}</span></div>`;
    const thread = post('Question', 'Rita Gomes') + post('Answer', 'Omar Said') + post('Answer', 'Lee Chan');
    expect((await readPageMetadata(page('', `<h1>Fan noise</h1>${thread}`))).author).toBe('Rita Gomes');
    // A list of writings, none of which holds the page's headline, names nobody: neither the first
    // writing's writer nor all of them.
    const list = `<h1>Best books of the year</h1><ul>${item('The Hunger Games', 'Suzanne Collins')}${item('Emma', 'Jane Austen')}</ul>`;
    expect((await readPageMetadata(page('', list))).author).toBeUndefined();
  });
});

describe('readPageMetadata: language', () => {
  it('takes <html lang> over a content-language meta, and the meta when lang is missing', async () => {
    const both = page('<meta http-equiv="Content-Language" content="de-AT">', '<p>x</p>', ' lang="en_us"');
    expect((await readPageMetadata(both)).language).toBe('en-US');
    const meta = page('<meta http-equiv="content-language" content="fr-ca, en">');
    expect((await readPageMetadata(meta)).language).toBe('fr-CA');
  });

  it('writes BCP 47 tags in their usual case and refuses what is none', () => {
    expect(languageTag('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(languageTag('english please')).toBeUndefined();
    expect(languageTag('es-419')).toBe('es-419');
    expect(languageTag('sr-latn-rs')).toBe('sr-Latn-RS');
    expect(languageTag('de-CH-1901')).toBe('de-CH-1901');
    // Extensions and private use stay in lower case.
    expect(languageTag('ja-JP-u-ca-japanese')).toBe('ja-JP-u-ca-japanese');
    expect(languageTag('en-US-x-twain')).toBe('en-US-x-twain');
  });

  it('refuses a charset given as the language, and reads the next source instead', async () => {
    // Out of BCP 47's grammar (a one-character subtag, a long first subtag) or an encoding's label.
    for (const charset of [
      'utf-8',
      'gbk',
      'gb2312',
      'euc-kr',
      'iso-8859-1',
      'windows-1252',
      'shift_jis',
      'big5',
    ]) {
      expect(languageTag(charset), charset).toBeUndefined();
    }
    const alone = page('<meta http-equiv="Content-Language" content="utf-8">');
    expect((await readPageMetadata(alone)).language).toBeUndefined();
    const withLocale = page(
      '<meta http-equiv="Content-Language" content="euc-kr"><meta property="og:locale" content="ko_KR">',
    );
    expect((await readPageMetadata(withLocale)).language).toBe('ko-KR');
  });
});

describe('readPageMetadata: visible byline', () => {
  it('reads "By X and Y" without its lead and without the date after it', async () => {
    const html = page(
      '',
      '<nav><span class="author">Site Team</span></nav><article><p class="byline">By Jane Doe and John Roe | March 5, 2024</p><p>Text.</p></article>',
    );
    expect((await readPageMetadata(html)).author).toBe('Jane Doe and John Roe');
  });

  it('takes a rel="author" link, and never a comment author or a sign-in link', async () => {
    const html = page(
      '',
      `<div id="authorization"><a href="/login">Sign in</a></div>
       <div class="comments"><span class="comment-author">Troll</span></div>
       <p>Written by <a rel="author" href="/u/kim">Kim Lo</a></p>`,
    );
    expect((await readPageMetadata(html)).author).toBe('Kim Lo');
  });

  it("reads the names after a page's tools in the byline, not the tool's label", async () => {
    const html = page(
      '',
      `<div id="Byline"><div class="EmailPrint"><a class="PrintLink" href="/print">Print</a></div>
       By <span class="author vcard"><a href="/u/desk">National Desk</a></span></div><p>Text.</p>`,
    );
    expect((await readPageMetadata(html)).author).toBe('National Desk');
    const shared = page('', '<p class="byline"><span class="share-tools">Share</span> By Ana Lee</p>');
    expect((await readPageMetadata(shared)).author).toBe('Ana Lee');
    // A name that merely contains the letters stays ("Sharon", "Sprint"), and so does a name in an
    // element a utility class keeps off paper.
    const unprinted = page(
      '',
      '<p class="byline">By <a class="author d-print-none" href="/u/ana">Ana Lee</a></p>',
    );
    expect((await readPageMetadata(unprinted)).author).toBe('Ana Lee');
    const named = page('', '<p class="byline"><a class="Sharon-Sprint">Sharon Sprint</a></p>');
    expect((await readPageMetadata(named)).author).toBe('Sharon Sprint');
  });

  it("reads past a byline's text kept for screen readers only", async () => {
    const html = page(
      '',
      '<div class="authors"><span class="u-visually-hidden">capital</span> <span>von</span> <span>Jemima Kelly</span></div><p>Text.</p>',
    );
    expect((await readPageMetadata(html)).author).toBe('Jemima Kelly');
  });

  it("reads the names in a box about the writer, not the box's heading", async () => {
    for (const heading of [
      'About the Author',
      'About the authors:',
      'Author bio',
      'Über den Autor',
      "À propos de l'auteur",
    ]) {
      const html = page(
        '',
        `<p>Text.</p><div class="blog-post-author panel"><h3>${heading}</h3><div class="media-body"><a href="/u/pl" class="blog-post-author-name">Patrick Linton</a></div><p>Patrick writes about remote teams.</p></div>`,
      );
      expect((await readPageMetadata(html)).author, heading).toBe('Patrick Linton');
    }
  });

  it('reads the names after a credit for the words ("Text:", "Texto:", "Текст:")', async () => {
    const bylines = {
      '<p class="byline">Text: Max Muster</p>': 'Max Muster',
      '<p class="byline">Texto: Ana Lima</p>': 'Ana Lima',
      '<span itemprop="author">Текст: Венера Ерофеева</span>': 'Венера Ерофеева',
      '<p class="byline">Автор: Иван Петров</p>': 'Иван Петров',
      // No label without its colon.
      '<p class="byline">Textor Lund</p>': 'Textor Lund',
    };
    for (const [byline, author] of Object.entries(bylines)) {
      expect((await readPageMetadata(page('', `${byline}<p>Text.</p>`))).author, byline).toBe(author);
    }
  });

  it('passes over a text too long to be a byline', async () => {
    const html = page('', `<div class="byline">${'word '.repeat(40)}</div>`);
    expect((await readPageMetadata(html)).author).toBeUndefined();
  });
});

describe('readPageMetadata: absent fields and page text', () => {
  it('leaves out every field the page does not state', async () => {
    expect(await readPageMetadata(page(''))).toEqual({});
    expect(await readPageMetadata('just words')).toEqual({});
  });

  it('removes controls and bidi characters', async () => {
    const html = page('<meta name="author" content="Eve\u202e\u0007 Adams\u2066">');
    expect((await readPageMetadata(html)).author).toBe('Eve Adams');
  });

  it('keeps a field of exactly its bound and cuts one a character longer', async () => {
    const exact = 'a'.repeat(MAX_METADATA_FIELD_CHARS);
    expect((await readPageMetadata(page(`<meta property="og:site_name" content="${exact}">`))).siteName).toBe(
      exact,
    );
    const over = (await readPageMetadata(page(`<meta property="og:site_name" content="${exact}b">`)))
      .siteName;
    expect(Array.from(over ?? '')).toHaveLength(MAX_METADATA_FIELD_CHARS);
    expect(over?.endsWith('…')).toBe(true);
    const description = 'd'.repeat(MAX_DESCRIPTION_CHARS);
    expect(
      (await readPageMetadata(page(`<meta name="description" content="${description}">`))).description,
    ).toBe(description);
    const longer = (await readPageMetadata(page(`<meta name="description" content="${description}d">`)))
      .description;
    expect(Array.from(longer ?? '')).toHaveLength(MAX_DESCRIPTION_CHARS);
  });
});

describe('readPageMetadata: hostile bylines and nesting', () => {
  it('reads no byline from an element of thousands of empty elements, and stops early', async () => {
    // Before the byline reader was bounded, this page took minutes: every empty element re-read the
    // whole line so far.
    const html = page('', `<div class="author">${'<div> </div>'.repeat(20_000)}Jane Doe</div><p>Text.</p>`);
    expect((await readPageMetadata(html)).author).toBeUndefined();
    const labels = page('', `<div class="author">${'<div>By</div>'.repeat(5_000)}</div>`);
    expect((await readPageMetadata(labels)).author).toBeUndefined();
  });

  it("reads the markup of a page nested past the DOM stages' depth, and not its text", async () => {
    const depth = MAX_HTML_DEPTH * 40;
    const html = page(
      '<meta name="author" content="Jane Doe">',
      `<h1>T</h1>${'<div>'.repeat(depth)}<p class="byline">By John Roe</p><p>March 5, 2024</p>${'</div>'.repeat(depth)}`,
    );
    expect(await readPageMetadata(html)).toEqual({ author: 'Jane Doe' });
    const bare = page(
      '',
      `<h1>T</h1>${'<span>'.repeat(depth)}<p>March 5, 2024</p>${'</span>'.repeat(depth)}`,
    );
    expect(await readPageMetadata(bare)).toEqual({});
  });
});

describe('toIsoDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024-03-05T09:30:00.000+0530', '2024-03-05T09:30:00+05:30'],
    ['2024-03-05 09:30', '2024-03-05T09:30:00'],
    ['20240305', '2024-03-05'],
    ['March 5, 2024', '2024-03-05'],
    ['5th March 2024, 3:04 pm EST', '2024-03-05T15:04:00-05:00'],
    ['Tue, 05 Mar 2024 10:00:00 GMT', '2024-03-05T10:00:00Z'],
    ['05.03.2024', '2024-03-05'],
    ['03/05/2024', '2024-03-05'],
    ['25/12/2023', '2023-12-25'],
    ['5. März 2024', '2024-03-05'],
    ['1709630000', '2024-03-05T09:13:20Z'],
    ['2019.04.03', '2019-04-03'],
    ['2019年04月28日 08時00分', '2019-04-28T08:00:00'],
    ['2017年3月1日（水）14:27', '2017-03-01T14:27:00'],
    ['2024년 3월 5일', '2024-03-05'],
    ['Sun Nov 23 16:00:00 EDT 2014', '2014-11-23T16:00:00-04:00'],
  ])('reads %s', (raw, iso) => {
    expect(toIsoDate(raw)).toBe(iso);
  });

  it.each(['yesterday', '2024-02-30', '13/13/2024', 'March 2024'])('refuses %s', (raw) => {
    expect(toIsoDate(raw)).toBeUndefined();
  });
});

describe('readPageMetadata: what follows the names in a byline', () => {
  it.each([
    ['By Tom Hegarty, 12 February', 'Tom Hegarty'],
    ['via petrelwatch 9 hours ago', 'petrelwatch'],
    ['By Theresa May', 'Theresa May'],
    ['Jane Doe March 5, 2024', 'Jane Doe'],
    ['Von Anna Schmidt | 5. März 2024', 'Anna Schmidt'],
  ])('reads %s as %s', async (byline, names) => {
    expect(
      (await readPageMetadata(page('', `<article><p class="byline">${byline}</p></article>`))).author,
    ).toBe(names);
  });

  it("drops the site's own name after the writers, and keeps an author that is only the site", async () => {
    const site = '<meta property="og:site_name" content="CNN">';
    const author = async (content: string) =>
      (await readPageMetadata(page(`${site}<meta name="author" content="${content}">`))).author;
    expect(await author('Dana A. Ford, James S.A. Corey, and Tom Watkins, CNN')).toBe(
      'Dana A. Ford, James S.A. Corey, and Tom Watkins',
    );
    expect(await author('Jane Doe - CNN')).toBe('Jane Doe');
    expect(await author('CNN')).toBe('CNN');
    expect(await author('Jane Doe of CNN')).toBe('Jane Doe of CNN');
  });

  it("reads the author of Parse.ly's parsely-page tag, a name or a list", async () => {
    const tag = (data: unknown) => `<meta name='parsely-page' content='${JSON.stringify(data)}'>`;
    expect((await readPageMetadata(page(tag({ title: 'T', author: 'National Desk' })))).author).toBe(
      'National Desk',
    );
    expect((await readPageMetadata(page(tag({ authors: 'x', author: ['Ana Lee', 'Bo Park'] })))).author).toBe(
      'Ana Lee, Bo Park',
    );
    expect(
      (await readPageMetadata(page(`<meta name='parsely-page' content='{"author": '>`))).author,
    ).toBeUndefined();
  });

  it('never takes a reviewer for the author', async () => {
    const html = page('', '<section class="reviews"><p class="review-author">Ana</p></section>');
    expect((await readPageMetadata(html)).author).toBeUndefined();
  });
});
