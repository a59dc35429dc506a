// "ExtractedDocument gains author (the byline's names, without "By"), published (ISO 8601 date or
// date-time), siteName, language (BCP 47) and description, each absent when the page does not say
// it, read from JSON-LD, microdata, <meta>/OpenGraph and the visible byline. WebFetch shows them as
// header lines under the title, inside the untrusted frame (they are page text), and in the
// structured result; timing events carry none of them."
// And the contract's "fetched pages are always labelled untrusted": metadata is page text, so nothing
// in it can close the frame.
import { MAX_HTML_ELEMENTS, MAX_METADATA_FIELD_CHARS } from '@mono-agent/extract';
import { findMarkerSpans, WEB_CONTENT_BEGIN, WEB_CONTENT_END } from '@mono-agent/tool-adapters';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { LOCALHOST_ENV, useFixtureSession } from './support/fixture-session.js';
import { hostileMarkers } from './support/hostile-pages.js';

interface OkData {
  status: 'ok';
  document: Record<string, unknown>;
}

const fixture = useFixtureSession('web-fetch-metadata');

/** What the recorded news article states: JSON-LD author and date, og:site_name, lang, description. */
const NEWS_METADATA = {
  author: 'Marta Lindqvist',
  published: '2024-04-09T18:20:00+02:00',
  siteName: 'The Riverside Ledger',
  language: 'en',
  description: 'A six-month trial of three night bus lines starts in May, funded by a parking levy.',
};

const HEADER_LINES = [
  `Author: ${NEWS_METADATA.author}`,
  `Published: ${NEWS_METADATA.published}`,
  `Site: ${NEWS_METADATA.siteName}`,
  `Language: ${NEWS_METADATA.language}`,
  `Description: ${NEWS_METADATA.description}`,
].join('\n');

/** A short story that states nothing about itself, for pages whose head alone is under test. */
const HARBOUR_STORY = `<main><h1>Harbour</h1>${'<p>The harbour office will dredge the east channel in the winter, after two ferries ran aground on the sandbank there.</p>'.repeat(3)}</main>`;

const framed = (text: string) => text.slice(text.indexOf(WEB_CONTENT_BEGIN), text.indexOf(WEB_CONTENT_END));

describe('WebFetch metadata: header lines under the title, inside the frame, and in the structured result', () => {
  it('shows author, published, site, language and description through createWebRuntime', async () => {
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/pages/news-article') });
    const inside = framed(result.text);
    expect(inside).toMatch(new RegExp(`\\nTitle: [^\\n]+\\n${escapeRegExp(HEADER_LINES)}\\n\\n`));
    // The control line outside the frame carries none of it.
    expect(result.text.slice(0, result.text.indexOf(WEB_CONTENT_BEGIN))).not.toContain('Lindqvist');
    expect((result.data as OkData).document).toMatchObject(NEWS_METADATA);
  });

  it('gives the same fields in the built CLI’s --json result', async () => {
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/news-article'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject(NEWS_METADATA);
  });

  it('leaves every field out, and shows no header line, when the page states none', async () => {
    fixture.web.scenario('/plain', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><title>Tides</title></head><body><main><h1>Tides</h1>${'<p>The spring tides this autumn run higher than usual because the equinox and the new moon fall in the same week, and the harbour office asks boat owners to check their lines.</p>'.repeat(3)}</main></body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/plain') });
    expect(framed(result.text)).not.toMatch(/^(?:Author|Published|Site|Language|Description): /m);
    const document = (result.data as OkData).document;
    for (const field of Object.keys(NEWS_METADATA)) expect(document).not.toHaveProperty(field);
  });

  it("reads what a page states only in its text: the headline's dateline and byline, and the site in its title (runtime and built CLI)", async () => {
    // "read from … the visible byline": no tag, JSON-LD or microdata states any of the three.
    fixture.web.scenario('/dateline', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Winter ferry to run every ninety minutes | Kessel Courier</title></head>
<body><header><p>Thursday, 4 December 2025</p><nav><a href="/">Home</a></nav></header><main><article>
<h1>Winter ferry to run every ninety minutes</h1><p>By <a href="/staff/jd">Jane Doe</a> · 3 min read</p><p>4 November 2025, 09:12</p>
${'<p>The island ferry will leave the north pier every ninety minutes instead of every hour from the first of November, the harbour office announced.</p>'.repeat(3)}
</article><aside><h2>More from the harbour</h2><p>March 5, 2026</p></aside></main></body></html>`,
    });
    const stated = { author: 'Jane Doe', published: '2025-11-04T09:12:00', siteName: 'Kessel Courier' };
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/dateline') });
    expect(framed(result.text)).toContain(
      `\nAuthor: ${stated.author}\nPublished: ${stated.published}\nSite: ${stated.siteName}\nLanguage: en\n`,
    );
    expect((result.data as OkData).document).toMatchObject(stated);
    const run = await runBuiltCli(['fetch', fixture.web.url('/dateline'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject(stated);
  });

  it('dates a page whose markup states no date by the day its address files it under, and only then (runtime and built CLI)', async () => {
    // "published (ISO 8601 date or date-time) … absent when the page does not say it": a news site
    // that files a story under /2025/11/04/ says the day it was published; a month's archive does not.
    const story = (head: string) =>
      `<!doctype html><html lang="en"><head>${head}<title>Ferry timetable</title></head><body><main><h1>Ferry timetable</h1>${'<p>The island ferry will leave the north pier every ninety minutes instead of every hour from the first of November, the harbour office announced.</p>'.repeat(3)}</main></body></html>`;
    const html = { 'content-type': 'text/html; charset=utf-8' };
    fixture.web.scenario('/news/2025/11/04/ferry-timetable', { headers: html, body: story('') });
    fixture.web.scenario('/news/2025/11/', { headers: html, body: story('') });
    fixture.web.scenario('/news/2025/11/05/ferry-stated', {
      headers: html,
      body: story('<meta property="article:published_time" content="2025-11-03T18:00:00+01:00">'),
    });
    const filed = await fixture.session.run.webFetch({
      url: fixture.web.url('/news/2025/11/04/ferry-timetable'),
    });
    expect(framed(filed.text)).toContain('\nPublished: 2025-11-04\n');
    expect((filed.data as OkData).document).toMatchObject({ published: '2025-11-04' });
    const archive = await fixture.session.run.webFetch({ url: fixture.web.url('/news/2025/11/') });
    expect(framed(archive.text)).not.toContain('\nPublished:');
    const stated = await fixture.session.run.webFetch({
      url: fixture.web.url('/news/2025/11/05/ferry-stated'),
    });
    expect((stated.data as OkData).document).toMatchObject({ published: '2025-11-03T18:00:00+01:00' });
    const run = await runBuiltCli(['fetch', fixture.web.url('/news/2025/11/04/ferry-timetable'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ published: '2025-11-04' });
  });

  it('names the writer from the byline, not the site an author tag names, and the date under a subtitle (runtime and built CLI)', async () => {
    // "the byline's names, without \"By\"": the author tag says "Coastline Daily", the site itself;
    // the byline's elements hold "By", the name, a job title and a handle, read apart.
    const stated = {
      author: 'Mara Quinn',
      published: '2025-11-20T16:05:00Z',
      siteName: 'Coastline Daily',
    };
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/pages/publisher-byline') });
    expect(framed(result.text)).toContain(
      `\nAuthor: ${stated.author}\nPublished: ${stated.published}\nSite: ${stated.siteName}\nLanguage: en\n`,
    );
    expect((result.data as OkData).document).toMatchObject(stated);
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/publisher-byline'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject(stated);
  });

  it("names the writers after the byline's Print and Email links, without the site's name they are signed with (runtime and built CLI)", async () => {
    // "the byline's names, without \"By\"": the byline opens with the page's Print and Email links
    // and signs "Ana Lee and Bo Park, Harbour Wire" on Harbour Wire's own page.
    const stated = { author: 'Ana Lee and Bo Park', siteName: 'Harbour Wire' };
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/pages/wire-byline') });
    expect(framed(result.text)).toContain(`\nAuthor: ${stated.author}\n`);
    expect((result.data as OkData).document).toMatchObject(stated);
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/wire-byline'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject(stated);
  });

  it('names the writers as a reader would: after a dated byline\'s "by", in reading order, never a date\'s word (runtime and built CLI)', async () => {
    // "the byline's names, without \"By\"": not the weekday a byline starts with, not "Last" of
    // "Last Updated", not a family name first as Dublin Core writes it.
    const story =
      '<p>The harbour office will dredge the east channel in the winter, after two ferries ran aground on the sandbank there.</p>'.repeat(
        3,
      );
    const pages: Record<string, [string, string, string]> = {
      '/dated-byline': [
        '',
        `<h1>Ferries run aground</h1><div class="byline--3Eec"><time datetime="2017-01-18T11:44:11-08:00">Wednesday January 18, 2017 10:44 am PST</time> by <a href="/author/jc" rel="author">Juli Clover</a></div>${story}`,
        'Juli Clover',
      ],
      '/dublin-core': [
        '<meta name="dcterms.creator" content="Gillman, Steve">',
        `<h1>Ferries run aground</h1>${story}`,
        'Steve Gillman',
      ],
    };
    for (const [path, [head, body, writer]] of Object.entries(pages)) {
      fixture.web.scenario(path, {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: `<!doctype html><html lang="en"><head><title>Ferries run aground</title>${head}</head><body><main>${body}</main></body></html>`,
      });
      const result = await fixture.session.run.webFetch({ url: fixture.web.url(path) });
      expect(framed(result.text)).toContain(`\nAuthor: ${writer}\n`);
      expect((result.data as OkData).document).toMatchObject({ author: writer });
      const run = await runBuiltCli(['fetch', fixture.web.url(path), '--json'], {
        home: fixture.home,
        env: LOCALHOST_ENV,
      });
      expect(run.code, run.stderr).toBe(EXIT_CODES.success);
      expect(jsonOf<OkData>(run).document).toMatchObject({ author: writer });
    }
    fixture.web.scenario('/last-updated', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Ferries run aground</title></head><body><main><h1>Ferries run aground</h1>${story}<div class="author-details"><em>Last Updated:</em> January 7, 2025</div></main></body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/last-updated') });
    expect(framed(result.text)).not.toContain('\nAuthor:');
    expect((result.data as OkData).document).not.toHaveProperty('author');
  });

  it('gives no language for a charset a page states as its language, and reads its locale instead (runtime and built CLI)', async () => {
    // "language (BCP 47) … absent when the page does not say it": `Content-Language: utf-8` names
    // an encoding, not a language.
    fixture.web.scenario('/charset-only', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><title>Harbour</title><meta http-equiv="Content-Language" content="utf-8"></head><body>${HARBOUR_STORY}</body></html>`,
    });
    fixture.web.scenario('/charset-and-locale', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><title>Harbour</title><meta http-equiv="Content-Language" content="gbk"><meta property="og:locale" content="de_DE"></head><body>${HARBOUR_STORY}</body></html>`,
    });
    const alone = await fixture.session.run.webFetch({ url: fixture.web.url('/charset-only') });
    expect(framed(alone.text)).not.toMatch(/^Language: /m);
    expect((alone.data as OkData).document).not.toHaveProperty('language');
    const withLocale = await fixture.session.run.webFetch({ url: fixture.web.url('/charset-and-locale') });
    expect(framed(withLocale.text)).toMatch(/^Language: de-DE$/m);
    const run = await runBuiltCli(['fetch', fixture.web.url('/charset-only'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).not.toHaveProperty('language');
  });

  it("reads the writers of the article a WebPage names as its main entity, and else a sharing card's writer (runtime and built CLI)", async () => {
    // "read from JSON-LD, microdata, <meta>/OpenGraph": the article node may sit under the page's
    // `mainEntity`; an SEO plugin's `twitter:label`/`twitter:data` card names the writer in <meta>.
    const graph = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      mainEntity: { '@type': 'NewsArticle', author: [{ name: 'Xiaoying You' }, { name: 'Jeff Tollefson' }] },
    });
    fixture.web.scenario('/main-entity', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Harbour</title><meta name="dc.creator" content="You, Xiaoying"><script type="application/ld+json">${graph}</script></head><body>${HARBOUR_STORY}</body></html>`,
    });
    fixture.web.scenario('/sharing-card', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Harbour</title><meta name="author" content="desk@harbour-news.example"><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Anna Sleegers"></head><body>${HARBOUR_STORY}</body></html>`,
    });
    const entity = await fixture.session.run.webFetch({ url: fixture.web.url('/main-entity') });
    expect(framed(entity.text)).toContain('\nAuthor: Xiaoying You, Jeff Tollefson\n');
    const card = await fixture.session.run.webFetch({ url: fixture.web.url('/sharing-card') });
    expect((card.data as OkData).document).toMatchObject({ author: 'Anna Sleegers' });
    const run = await runBuiltCli(['fetch', fixture.web.url('/main-entity'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ author: 'Xiaoying You, Jeff Tollefson' });
  });

  it("names the writer past the byline's text kept for screen readers only (runtime and built CLI)", async () => {
    // "the byline's names, without \"By\"": the section's brand is hidden for screen readers before "von".
    fixture.web.scenario('/screen-reader-byline', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="de"><head><title>Hafen</title></head><body><div class="authors"><span class="sr-only">capital</span> <span>von</span> <span>Jemima Kelly</span></div>${HARBOUR_STORY}</body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/screen-reader-byline') });
    expect(framed(result.text)).toContain('\nAuthor: Jemima Kelly\n');
    const run = await runBuiltCli(['fetch', fixture.web.url('/screen-reader-byline'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ author: 'Jemima Kelly' });
  });

  it("names the writer, not the key of the writer's page an analytics tag holds (runtime and built CLI)", async () => {
    // "the byline's names": `parsely-author` holds `sophie-foster`, the page's address for its writer.
    fixture.web.scenario('/keyed-author', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Harbour</title><meta name="parsely-author" content="sophie-foster"><meta name="author" content="Sophie Foster"></head><body>${HARBOUR_STORY}</body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/keyed-author') });
    expect(framed(result.text)).toContain('\nAuthor: Sophie Foster\n');
    const run = await runBuiltCli(['fetch', fixture.web.url('/keyed-author'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ author: 'Sophie Foster' });
  });

  it('names the poster who started a thread, and the writer of a story beside a stream of others, not every writer the page names (runtime and built CLI)', async () => {
    // "the byline's names": the page's writer, not the writers of the posts and stories it also shows.
    const post = (type: string, author: string, text: string) =>
      `<div itemscope itemtype="https://schema.org/${type}"><span itemprop="author">${author}</span><p>${text}</p></div>`;
    fixture.web.scenario('/thread', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Laptop fan runs at full speed</title></head><body><main><h1>Laptop fan runs at full speed</h1>${post('DiscussionForumPosting', 'Rita Gomes', 'Since the last update the fan of my laptop runs at full speed even when the machine is idle, and the battery is empty within two hours.')}${post('Comment', 'Omar Said', 'Check the fan curve in the firmware settings: the update resets it to the most aggressive profile on some models.')}${post('Comment', 'Lee Chan', 'Same here after the update. Resetting the fan curve fixed it for me, and the battery lasts a full day again.')}</main></body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/thread') });
    expect(framed(result.text)).toContain('\nAuthor: Rita Gomes\n');
    expect((result.data as OkData).document).toMatchObject({ author: 'Rita Gomes' });
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/story-beside-stream'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ author: 'Marco Bellini' });
  });

  it("names nobody and no date on a section front whose teasers carry their own writers' bylines and dates (runtime and built CLI)", async () => {
    // "each absent when the page does not say it": the writers of the stories a page lists did not
    // write the page, nor was it published when they were. The golden page `section-front`.
    const url = fixture.web.url('/pages/section-front');
    const result = await fixture.session.run.webFetch({ url });
    expect(result.text).toContain('A comet last seen in 1952 is back');
    expect(framed(result.text)).not.toContain('\nAuthor:');
    expect(framed(result.text)).not.toContain('\nPublished:');
    expect((result.data as OkData).document).not.toHaveProperty('author');
    expect((result.data as OkData).document).not.toHaveProperty('published');
    expect((result.data as OkData).document).toMatchObject({ siteName: 'Harbour Gazette' });
    const run = await runBuiltCli(['fetch', url, '--json'], { home: fixture.home, env: LOCALHOST_ENV });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).not.toHaveProperty('author');
    expect(jsonOf<OkData>(run).document).not.toHaveProperty('published');
  });

  it("names nobody for a page whose names are its customers' or its lead story's: quotes, reviews, a front page's Parse.ly tags (runtime and built CLI)", async () => {
    // "each absent when the page does not say it": a testimonial's or a customer review's writer did
    // not write the service page, and the writer and date a front page's Parse.ly tags give are its
    // lead story's. The golden pages `customer-quotes` and `front-page`.
    for (const [name, kept] of [
      ['customer-quotes', 'nothing was scratched'],
      ['front-page', 'The lock gates will be replaced'],
    ] as const) {
      const url = fixture.web.url(`/pages/${name}`);
      const result = await fixture.session.run.webFetch({ url });
      expect(result.text).toContain(kept);
      expect(framed(result.text)).not.toContain('\nAuthor:');
      expect(framed(result.text)).not.toContain('\nPublished:');
      expect((result.data as OkData).document).not.toHaveProperty('author');
      expect((result.data as OkData).document).not.toHaveProperty('published');
      const run = await runBuiltCli(['fetch', url, '--json'], { home: fixture.home, env: LOCALHOST_ENV });
      expect(run.code, run.stderr).toBe(EXIT_CODES.success);
      expect(jsonOf<OkData>(run).document).not.toHaveProperty('author');
      expect(jsonOf<OkData>(run).document).not.toHaveProperty('published');
    }
  });

  it("titles a page with its headline, without the site's name its <title> adds, which the Site line gives (runtime and built CLI)", async () => {
    // The golden page `site-in-title`: 見出し：新聞名, the paper's name also in og:site_name.
    const headline = '港の東水路、11月からしゅんせつ　フェリー座礁受け';
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/pages/site-in-title') });
    // A header line is one line of single spaces: the ideographic space reads as one.
    const titleLine = `Title: ${headline.replace(/\s+/g, ' ')}`;
    expect(framed(result.text)).toMatch(new RegExp(`\\n${titleLine}\\n(?:.+\\n)*Site: 港町新聞デジタル\\n`));
    expect((result.data as OkData).document).toMatchObject({ title: headline, siteName: '港町新聞デジタル' });
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/site-in-title'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ title: headline, siteName: '港町新聞デジタル' });
  });

  it('states the same fields for a page too large for the DOM stages, read in one streaming pass (runtime and built CLI)', async () => {
    // "each absent when the page does not say it": a page said them, however large it is. Past the
    // element bound the page is read as streamed text; its head still states who, when and where.
    const rows = Array.from(
      { length: MAX_HTML_ELEMENTS },
      (_, index) => `<li>Departure ${index}: the night bus leaves the depot on time.</li>`,
    ).join('');
    fixture.web.scenario('/timetable', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Night bus timetable | The Riverside Ledger</title>
<meta property="og:site_name" content="${NEWS_METADATA.siteName}">
<meta property="og:title" content="Night bus timetable">
<meta name="description" content="${NEWS_METADATA.description}">
<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Person","name":"${NEWS_METADATA.author}"},"datePublished":"${NEWS_METADATA.published}"}</script>
</head><body><svg><title>Bus icon</title></svg><h1>Night bus timetable</h1><ul>${rows}</ul></body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/timetable') });
    const document = (result.data as OkData).document;
    expect(document.stage).toBe('streamed-text');
    expect(framed(result.text)).toMatch(
      new RegExp(`\\nTitle: Night bus timetable\\n${escapeRegExp(HEADER_LINES)}\\n\\n`),
    );
    expect(document).toMatchObject({ ...NEWS_METADATA, title: 'Night bus timetable' });
    const run = await runBuiltCli(['fetch', fixture.web.url('/timetable'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<OkData>(run).document).toMatchObject({ ...NEWS_METADATA, title: 'Night bus timetable' });
  });

  it('keeps timing events free of every metadata field and value', async () => {
    fixture.session.events.length = 0;
    await fixture.session.run.webFetch({ url: fixture.web.url('/pages/news-article') });
    const fetchEvents = fixture.session.events.filter((event) => JSON.stringify(event).includes('WebFetch'));
    expect(fetchEvents.length).toBeGreaterThan(0);
    const serialized = JSON.stringify(fixture.session.events);
    for (const [field, value] of Object.entries(NEWS_METADATA)) {
      expect(serialized).not.toContain(`"${field}"`);
      if (value.length > 3) expect(serialized).not.toContain(value);
    }
  });
});

describe('WebFetch metadata is page text: bounded, one line, and unable to close the frame', () => {
  it('neutralizes disguised frame markers, line breaks and bidi controls in every field, and bounds them', async () => {
    const markers = hostileMarkers('WEB CONTENT');
    const hostile = escapeMarkup(`Eve\u202e ${markers.slice(0, 6).join(' ')}`);
    const longSite = 's'.repeat(MAX_METADATA_FIELD_CHARS * 3);
    fixture.web.scenario('/hostile-metadata', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour</title>
<meta name="author" content="${hostile}"><meta name="description" content="${escapeMarkup(markers.slice(6, 12).join('\n'))}">
<meta property="og:site_name" content="${longSite}"></head><body><article><h1>Harbour</h1>
${'<p>The harbour office publishes the tide tables for the estuary every month, and the spring tides run higher this autumn.</p>'.repeat(3)}</article></body></html>`,
    });
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/hostile-metadata') });
    const found = findMarkerSpans(result.text).map((span) => result.text.slice(span.start, span.end));
    expect(found).toEqual([WEB_CONTENT_BEGIN, WEB_CONTENT_END]);
    expect(result.text).toContain('neutralized marker');
    const authorLine = framed(result.text)
      .split('\n')
      .find((line) => line.startsWith('Author: '));
    expect(authorLine).toMatch(/^Author: Eve /);
    expect(authorLine).not.toContain('\u202e');
    const siteLine = framed(result.text)
      .split('\n')
      .find((line) => line.startsWith('Site: '));
    expect(Array.from(siteLine ?? '')).toHaveLength('Site: '.length + MAX_METADATA_FIELD_CHARS);
    const document = (result.data as OkData).document;
    expect(Array.from(String(document.siteName))).toHaveLength(MAX_METADATA_FIELD_CHARS);
    for (const field of ['author', 'description']) {
      const spans = findMarkerSpans(String(document[field]));
      expect(spans, String(document[field])).toEqual([]);
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
