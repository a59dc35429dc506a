import { describe, expect, it } from 'vitest';
import { datelineDate } from './metadata-dateline.js';
import { readPageMetadata } from './page-metadata.js';

const STORY =
  '<p>The island ferry will leave the north pier every ninety minutes instead of every hour from the first of November, the harbour office announced on Tuesday.</p>';

const page = (
  body: string,
  head = '<title>Winter ferry to run every ninety minutes | Kessel Courier</title>',
) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const published = async (body: string, head?: string) => (await readPageMetadata(page(body, head))).published;
const author = async (body: string, head?: string) => (await readPageMetadata(page(body, head))).author;

/** `count` short lines that are neither a date nor a byline. */
const filler = (count: number) =>
  Array.from({ length: count }, (_, index) => `<p>Note ${index + 1}</p>`).join('');

describe('datelineDate: a whole text that is one date', () => {
  it('reads the usual ways a dateline is written', () => {
    expect(datelineDate('January 1, 2025')).toBe('2025-01-01');
    expect(datelineDate('Wednesday, 26 February 2025')).toBe('2025-02-26');
    expect(datelineDate('Posted on 29th August, 2023')).toBe('2023-08-29');
    expect(datelineDate('Published: Mar. 5, 2024')).toBe('2024-03-05');
    expect(datelineDate('4 November 2025, 09:12')).toBe('2025-11-04T09:12:00');
    expect(datelineDate('Mar 27, 2026 3:09 PM')).toBe('2026-03-27T15:09:00');
    expect(datelineDate('2024-03-05')).toBe('2024-03-05');
    expect(datelineDate('5. März 2024')).toBe('2024-03-05');
    expect(datelineDate('12 de marzo de 2024')).toBe('2024-03-12');
    expect(datelineDate('2019.04.03')).toBe('2019-04-03');
    expect(datelineDate('2019年2月27日（水）')).toBe('2019-02-27');
    expect(datelineDate('2019年04月28日 08時00分')).toBe('2019-04-28T08:00:00');
    expect(datelineDate('2024년 3월 5일')).toBe('2024-03-05');
  });

  it('refuses a text that holds more than a date', () => {
    expect(datelineDate('The council met on March 5, 2024 to vote')).toBeUndefined();
    expect(datelineDate('March 2024')).toBeUndefined();
    expect(datelineDate('Theresa May 2019')).toBeUndefined();
    expect(datelineDate('5 min read')).toBeUndefined();
    expect(datelineDate('')).toBeUndefined();
  });
});

describe('readPageMetadata: the dateline beside the headline', () => {
  it('reads a date printed under the headline, and one above it beside a category link', async () => {
    expect(
      await published(
        `<h1>Winter ferry to run every ninety minutes</h1><p class="meta">January 1, 2025</p>${STORY}`,
      ),
    ).toBe('2025-01-01');
    expect(
      await published(
        `<article><div class="header"><p>May 22, 2026</p><a href="/news">News</a></div><h1>Winter ferry</h1>${STORY}</article>`,
      ),
    ).toBe('2026-05-22');
  });

  it("takes the datetime of a <time> in the headline's header, and a date in a span of a longer line", async () => {
    expect(
      await published(
        `<h1>Winter ferry</h1><div class="byline"><a href="/a/jd">Jane Doe</a> – <time datetime="2026-03-27T18:09:00-04:00">Mar 27, 2026 3:09 PM</time></div>${STORY}`,
      ),
    ).toBe('2026-03-27T18:09:00-04:00');
    expect(
      await published(
        `<h1>Winter ferry</h1><div><a href="/team">Licat</a><span> on June 5, 2023</span></div>${STORY}`,
      ),
    ).toBe('2023-06-05');
    expect(await published(`<h1>Winter ferry</h1><div>July 13, 2023 · 5 min read</div>${STORY}`)).toBe(
      '2023-07-13',
    );
  });

  it('reads a dated heading under the headline (a blog that heads each day with its date)', async () => {
    expect(
      await published(`<h1>Winter ferry</h1><h6 class="dateline">Wednesday, 26 February 2025</h6>${STORY}`),
    ).toBe('2025-02-26');
  });

  it('never reads an updated date, on its line or after an "Updated:" label', async () => {
    expect(await published(`<h1>Winter ferry</h1><p>Updated March 5, 2024</p>${STORY}`)).toBeUndefined();
    expect(
      await published(`<h1>Winter ferry</h1><p>Last updated:</p><p>March 5, 2024</p>${STORY}`),
    ).toBeUndefined();
    expect(
      await published(`<h1>Winter ferry</h1><p>Published March 1, 2024 | Updated March 5, 2024</p>${STORY}`),
    ).toBe('2024-03-01');
  });

  it("never reads another thing's date: the masthead's, a menu's, a teaser's after the story", async () => {
    expect(
      await published(`<header><p>Thursday, December 4, 2025</p></header><h1>Winter ferry</h1>${STORY}`),
    ).toBeUndefined();
    expect(
      await published(`<nav><span>December 4, 2025</span></nav><h1>Winter ferry</h1>${STORY}`),
    ).toBeUndefined();
    expect(
      await published(
        `<article><h1>Winter ferry</h1>${STORY}</article><aside><h2>More news</h2><p>March 5, 2026</p></aside>`,
      ),
    ).toBeUndefined();
    expect(await published(`<h1>Winter ferry</h1>${STORY}<p>March 5, 2026</p>`)).toBeUndefined();
    expect(await published(`<h1>Winter ferry</h1><h2>Timetable</h2><p>March 5, 2026</p>`)).toBeUndefined();
  });

  it("passes over the headline's subtitle heading, and stops at the next heading", async () => {
    expect(
      await published(
        `<h1>Winter ferry</h1><h2>The harbour office adds crossings this winter.</h2><p><a href="/a/jd">Jane Doe</a> - <time datetime="2016-08-10T11:15:53+00:00">Aug 10, 2016</time></p>${STORY}`,
      ),
    ).toBe('2016-08-10T11:15:53Z');
    expect(
      await published(
        `<h1>Winter ferry</h1><h2>The harbour office adds crossings this winter.</h2><h2>The new timetable for every pier</h2><p>Aug 10, 2016</p>${STORY}`,
      ),
    ).toBeUndefined();
    // A subtitle is a sentence: a short heading of five words is a section's.
    expect(
      await published(
        `<h1>Winter ferry</h1><h2>The timetable for every pier</h2><p>Aug 10, 2016</p>${STORY}`,
      ),
    ).toBeUndefined();
    expect(
      await published(
        `<h1>Winter ferry</h1><h2>The new timetable for every pier</h2><p>Aug 10, 2016</p>${STORY}`,
      ),
    ).toBe('2016-08-10');
    // A heading that is a link is a teaser's: an edition's first story, not the page's subtitle.
    expect(
      await published(
        `<h1>Weekly edition</h1><h2><a href="/a/1">A trademark battle in the maker community</a></h2><div class="FeatureByline">By <b>Ana Ruiz</b><br>March 25, 2015</div>${STORY}`,
      ),
    ).toBeUndefined();
  });

  it('looks six lines after the headline and three before it, and no further', async () => {
    const date = '<p>March 5, 2024</p>';
    expect(await published(`<h1>Winter ferry</h1>${filler(5)}${date}${STORY}`)).toBe('2024-03-05');
    expect(await published(`<h1>Winter ferry</h1>${filler(6)}${date}${STORY}`)).toBeUndefined();
    expect(await published(`${date}${filler(2)}<h1>Winter ferry</h1>${STORY}`)).toBe('2024-03-05');
    expect(await published(`${date}${filler(3)}<h1>Winter ferry</h1>${STORY}`)).toBeUndefined();
  });

  it('stops at a line of 150 characters (the story), and not at one of 149', async () => {
    const line = (length: number) => `<p>${'a'.repeat(length)}</p>`;
    expect(await published(`<h1>Winter ferry</h1>${line(149)}<p>March 5, 2024</p>`)).toBe('2024-03-05');
    expect(await published(`<h1>Winter ferry</h1>${line(150)}<p>March 5, 2024</p>`)).toBeUndefined();
  });

  it("takes the <h1> the page's title repeats over the site's logo", async () => {
    const body = `<div id="branding"><h1>Kessel Courier</h1><p>December 4, 2025</p></div><div id="main"><h1>Winter ferry to run every ninety minutes</h1><p>November 4, 2025</p>${STORY}</div>`;
    expect(await published(body)).toBe('2025-11-04');
  });

  it('is read only when the markup states no date', async () => {
    const head = '<title>Winter ferry</title><meta property="article:published_time" content="2025-10-30">';
    expect(await published(`<h1>Winter ferry</h1><p>November 4, 2025</p>${STORY}`, head)).toBe('2025-10-30');
  });
});

describe('readPageMetadata: a byline line beside the headline', () => {
  it('reads "By" and the names on a line of their own', async () => {
    expect(await author(`<h1>Winter ferry</h1><p>By Jane Doe</p>${STORY}`)).toBe('Jane Doe');
    expect(await author(`<h1>Winter ferry</h1><p>By Jane Doe and John Roe · 5 min read</p>${STORY}`)).toBe(
      'Jane Doe and John Roe',
    );
  });

  it("reads the headline's byline before a marked byline of another story further down", async () => {
    const related = `<section><h2>Related Content</h2><article class="w-stories__item"><h1><a href="/2012/dorsett">Dorsett is suing</a></h1><a class="byline" href="/author/mm">Michael J. Mooney</a></article><article class="w-stories__item"><h1><a href="/2015/smith">Smith's concussion</a></h1></article></section>`;
    expect(
      await author(
        `<h1>Winter ferry</h1><div class="story__info"><span>By <a href="/author/kw">Kathy Wise</a></span></div>${STORY}${related}`,
      ),
    ).toBe('Kathy Wise');
  });

  it('cuts the names before the date or count glued after their link', async () => {
    expect(
      await author(
        `<h1>Winter ferry</h1><p><span>by</span> <a href="/author/ln">Lucas Nolan</a><span>22 Dec 2016</span><a href="#comments">651</a></p>${STORY}`,
      ),
    ).toBe('Lucas Nolan');
  });

  it('cuts the names after their link when what follows is not more names', async () => {
    expect(
      await author(
        `<h1>Winter ferry</h1><p>By <a href="/a">A. J. Neal</a> View in digital edition</p>${STORY}`,
      ),
    ).toBe('A. J. Neal');
    expect(
      await author(
        `<h1>Winter ferry</h1><div>By <a href="/a">Korin Miller</a><span>Published Mar 5, 2025</span></div>${STORY}`,
      ),
    ).toBe('Korin Miller');
    expect(
      await author(
        `<h1>Winter ferry</h1><p>By <a href="/a">Jane Doe</a> and <a href="/b">John Roe</a></p>${STORY}`,
      ),
    ).toBe('Jane Doe and John Roe');
  });

  it('never takes a sentence that starts with "By" for a byline', async () => {
    expect(
      await author(`<h1>Winter ferry</h1><p>By the way, the pier is closed.</p>${STORY}`),
    ).toBeUndefined();
    expect(await author(`<h1>Winter ferry</h1><p>by ferry or by bus</p>${STORY}`)).toBeUndefined();
    // A joining word counts whole: "android" is no "and", "default" no "de".
    expect(await author(`<h1>Winter ferry</h1><p>By android developers</p>${STORY}`)).toBeUndefined();
    expect(await author(`<h1>Winter ferry</h1><p>By Ludwig van Beethoven</p>${STORY}`)).toBe(
      'Ludwig van Beethoven',
    );
  });
});

describe('readPageMetadata: bylines and author tags written with more than the names', () => {
  it("reads a Korean reporter's name without the title after it, from a tag or a byline", async () => {
    expect(await author(STORY, '<title>속보</title><meta name="author" content="신현주 기자">')).toBe(
      '신현주',
    );
    expect(await author(`<h1>속보</h1><p class="byline">박준석 기자, 김태연 특파원</p>${STORY}`)).toBe(
      '박준석, 김태연',
    );
    expect(await author(`<h1>속보</h1><p class="byline">박준석 기자 외 1명</p>${STORY}`)).toBe('박준석');
  });

  it('reads names that Dublin Core and Highwire write family name first in reading order', async () => {
    expect(
      await author(STORY, '<title>T</title><meta name="dcterms.creator" content="Gillman, Steve">'),
    ).toBe('Steve Gillman');
    expect(
      await author(
        STORY,
        '<title>T</title><meta name="citation_author" content="Roy, Aniruddha"><meta name="citation_author" content="Berger, Emery D.">',
      ),
    ).toBe('Aniruddha Roy, Emery D. Berger');
    // Another tag's comma is two writers, or a writer and a desk, and stays as written.
    expect(await author(STORY, '<title>T</title><meta name="author" content="Gillman, Steve">')).toBe(
      'Gillman, Steve',
    );
  });

  it("reads the writer's author tag after one that names the site", async () => {
    const head =
      '<title>속보</title><meta property="og:site_name" content="한국일보"><meta name="author" content="한국일보"><meta name="author" content="신현주 기자">';
    expect(await author(STORY, head)).toBe('신현주');
    expect(
      await author(
        STORY,
        '<title>속보</title><meta property="og:site_name" content="한국일보"><meta name="author" content="한국일보">',
      ),
    ).toBe('한국일보');
  });

  it('names nobody for a line that says when the page was changed, and reads the names after it', async () => {
    expect(
      await author(
        `<h1>Winter ferry</h1>${STORY}<div class="author-details"><em>Last Updated:</em> January 7, 2025</div>`,
      ),
    ).toBeUndefined();
    expect(
      await author(
        `<h1>Winter ferry</h1><div class="story-meta has-byline"><span class="date">Updated November 11, 2022</span><div class="byline"><p>By&nbsp;</p><p><a href="/people/af" rel="author">April Fulton</a></p></div></div>${STORY}`,
      ),
    ).toBe('April Fulton');
  });

  it('reads the names after the "by" of a byline that starts with its date, not the weekday', async () => {
    expect(
      await author(
        `<h1>Winter ferry</h1><div class="byline--3Eec"><time datetime="2017-01-18T11:44:11-08:00">Wednesday January 18, 2017 10:44 am PST</time> by <a href="/author/jc/" rel="author">Juli Clover</a></div>${STORY}`,
      ),
    ).toBe('Juli Clover');
  });

  it("reads an hCard's name (a vcard is the byline's markup, not an author's card)", async () => {
    expect(
      await author(
        `<h1>Winter ferry</h1><div class="entry-meta">Posted on March 5, 2024 by <span class="author vcard"><a class="url fn n" href="/author/apg">apgoucher</a></span></div>${STORY}`,
      ),
    ).toBe('apgoucher');
  });

  it('reads the elements of a byline apart, and cuts the names after the element that holds them', async () => {
    const byline = (inner: string) =>
      author(`<h1>Winter ferry</h1><div class="byline">${inner}</div>${STORY}`);
    expect(await byline('<span>By</span>Travis Haney')).toBe('Travis Haney');
    expect(
      await byline('<span>By</span><span>by JOSH HASKELL, DAVID CAPLAN and PATRICK REEVELL</span>'),
    ).toBe('JOSH HASKELL, DAVID CAPLAN and PATRICK REEVELL');
    expect(await byline('<a href="/about/gt"><span>Gina Trapani</span><span>CEO</span></a>')).toBe(
      'Gina Trapani',
    );
    expect(
      await byline(
        'by <a href="/author/jh">Julia Horowitz</a> <a href="https://x.example/jh">@juliakhorowitz</a>',
      ),
    ).toBe('Julia Horowitz');
    expect(await byline('<cite>By Zach Hanlon </cite><span>5 minute Read</span>')).toBe('Zach Hanlon');
    expect(
      await byline('<a href="/toireporter/sd">Saibal Dasgupta</a> / TNN / <span>Updated: Oct 9, 2019</span>'),
    ).toBe('Saibal Dasgupta');
    // A name the page writes in two elements stays whole; so do names joined by "and".
    expect(await byline('<span>Jane</span> <span>Doe</span>')).toBe('Jane Doe');
    expect(await byline('<a href="/a">Jane Doe</a> and <a href="/b">John Roe</a>')).toBe(
      'Jane Doe and John Roe',
    );
    // CJK text is never spaced where its elements meet.
    expect(await byline('[<a href="/w/t">田中宏昌</a>，ITmedia]')).toBe('[田中宏昌，ITmedia]');
  });

  it('reads the names on the line after a label, and never a byline that is only a date', async () => {
    expect(
      await author(`<h1>Winter ferry</h1><dl class="author"><dt>著者</dt><dd>お米ゴハン</dd></dl>${STORY}`),
    ).toBe('お米ゴハン');
    expect(
      await author(`<h1>Winter ferry</h1><div class="byline"><p>Author:</p><p>Jane Doe</p></div>${STORY}`),
    ).toBe('Jane Doe');
    expect(
      await author(
        `<h1>Winter ferry</h1><div class="p-article__byline"><span>Dec 1st 2016 1:01PM</span></div>${STORY}`,
      ),
    ).toBeUndefined();
    // An author's note is no byline.
    expect(
      await author(
        `<div class="author-note-portlet"><span>A note from Sleyca</span></div><h1>Winter ferry</h1>${STORY}`,
      ),
    ).toBeUndefined();
  });

  it('reads a byline written as a phrase, and never a phrase, a category or an avatar for names', async () => {
    const byline = (inner: string) =>
      author(`<h1>Winter ferry</h1><div class="byline">${inner}</div>${STORY}`);
    expect(await byline('This post was written by <a href="/a/jd">Jane Doe</a>')).toBe('Jane Doe');
    expect(await byline('Recipe by PJ Hamel')).toBe('PJ Hamel');
    expect(await byline('Authored by: Dr. Ehsan Jazini')).toBe('Dr. Ehsan Jazini');
    expect(
      await byline(
        'By <a href="/a/sl">Shelby Loos, DVM</a>. Reviewed by <a href="/a/mp">Molly Price, DVM</a>',
      ),
    ).toBe('Shelby Loos, DVM');
    expect(await byline('Post by galitsyn »')).toBe('galitsyn');
    expect(await byline('Post by changingtimes » Sat Jan 02, 2021 8:15 pm')).toBe('changingtimes');
    // A trail of "»" is a breadcrumb, not a name and what follows it.
    expect(await byline('Home » Consulting &amp; Services » Security')).toBeUndefined();
    expect(await byline('Laura / House Plant House')).toBe('Laura');
    expect(await byline('<div class="avatar">CM</div><div>Craig McCarthy</div>')).toBe('Craig McCarthy');
    expect(await byline('<span class="initials">CM</span> Craig McCarthy')).toBe('Craig McCarthy');
    expect(await byline('This article was reviewed')).toBeUndefined();
    expect(await byline('Jun 2')).toBeUndefined();
    expect(await byline('Coming Soon!')).toBeUndefined();
    // The byline's own category link is no author when the byline names nobody.
    expect(
      await byline(
        '<span class="byline__date">March 20, 2023</span> | <span class="byline__category"><a href="/c/w">Wellness</a></span>',
      ),
    ).toBeUndefined();
    // A CMS's class on the whole post names its author's slug, not a byline.
    expect(
      await author(
        `<article class="entry author-jane-doe"><p>Comment</p><h1>Winter ferry</h1>${STORY}</article>`,
      ),
    ).toBeUndefined();
  });

  it("takes the article's author tag over a page-wide one, and the byline over the site's own name", async () => {
    expect(
      await author(
        '<p>Text.</p>',
        '<title>T</title><meta name="author" content="Condé Nast"><meta property="article:author" content="Emma Grey Ellis">',
      ),
    ).toBe('Emma Grey Ellis');
    expect(
      await author(
        `<h1>Winter ferry</h1><p class="byline">By Ana Ruiz</p>${STORY}`,
        '<title>T</title><meta name="author" content="Kessel Courier"><meta property="og:site_name" content="Kessel Courier">',
      ),
    ).toBe('Ana Ruiz');
    // So does the site's staff.
    const staff =
      '<title>T</title><meta name="author" content="Kessel Courier Staff"><meta property="og:site_name" content="Kessel Courier">';
    expect(await author(`<h1>Winter ferry</h1><p class="byline">By Ana Ruiz</p>${STORY}`, staff)).toBe(
      'Ana Ruiz',
    );
    expect(await author(`<h1>Winter ferry</h1>${STORY}`, staff)).toBe('Kessel Courier Staff');
    // A byline that is part of the site's name, or holds it, or reads as no names, does not replace it.
    const site =
      '<title>T</title><meta name="author" content="Audiophile On"><meta property="og:site_name" content="Audiophile ON">';
    expect(await author(`<h1>Winter ferry</h1><p class="byline">By Audiophile</p>${STORY}`, site)).toBe(
      'Audiophile On',
    );
    expect(await author(`<h1>Winter ferry</h1><p class="byline">Insights from</p>${STORY}`, site)).toBe(
      'Audiophile On',
    );
    // Every writer's article:author tag counts.
    expect(
      await author(
        '<p>Text.</p>',
        '<title>T</title><meta property="article:author" content="Craig Randall"><meta property="article:author" content="Alli Miles">',
      ),
    ).toBe('Craig Randall, Alli Miles');
    // With no byline on the page, the site's name is the author the page states.
    expect(
      await author(
        `<h1>Winter ferry</h1>${STORY}`,
        '<title>T</title><meta name="author" content="Kessel Courier"><meta property="og:site_name" content="Kessel Courier">',
      ),
    ).toBe('Kessel Courier');
    // A profile's path is no name.
    expect(
      await author('<p>Text.</p>', '<title>T</title><meta property="article:author" content="/@timoreilly">'),
    ).toBeUndefined();
  });

  it('drops the job title after the names', async () => {
    expect(await author(`<h1>Winter ferry</h1><p class="byline">Jane Doe, Senior Editor</p>${STORY}`)).toBe(
      'Jane Doe',
    );
    expect(
      await author(`<h1>Winter ferry</h1><p class="byline">Claire Wilson, Co-Founder &amp; COO</p>${STORY}`),
    ).toBe('Claire Wilson');
  });

  it('drops quotes, "By", a link and a job title from an author tag', async () => {
    const tagged = (value: string) =>
      author('<p>Text.</p>', `<title>T</title><meta name="author" content="${value}">`);
    expect(await tagged('&quot;David Kim&quot;')).toBe('David Kim');
    expect(await tagged('By Arlene Marturano')).toBe('Arlene Marturano');
    expect(await tagged('Dr Jane Smith - https://blog.example.com/')).toBe('Dr Jane Smith');
    expect(await tagged('Benjamin Johnson, Sr. Director of Operations')).toBe('Benjamin Johnson');
    expect(await tagged('Dr. Vahid Osman -')).toBe('Dr. Vahid Osman');
    // JSON-LD's authors are names each, joined by commas: none of them is a job title.
    const ld =
      '<script type="application/ld+json">{"@type":"NewsArticle","author":[{"name":"Jane Doe"},{"name":"Night Editor"}]}</script>';
    expect(await author('<p>Text.</p>', `<title>T</title>${ld}`)).toBe('Jane Doe, Night Editor');
    // One author's name with a job title after it is the name alone.
    const titled =
      '<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Person","name":"TOM KRISHER, AP Auto Writer"}}</script>';
    expect(await author('<p>Text.</p>', `<title>T</title>${titled}`)).toBe('TOM KRISHER');
  });
});

describe("readPageMetadata: the site's name at the end of the title", () => {
  const site = async (title: string, body: string, head = '') =>
    (await readPageMetadata(page(body, `<title>${title}</title>${head}`))).siteName;

  it('reads the last part of a title whose first part is the headline', async () => {
    expect(await site('Quadratic formula - Encyclopedia', '<h1>Quadratic formula</h1>')).toBe('Encyclopedia');
    expect(await site('Array - JavaScript | MDN', '<h1>Array</h1>')).toBe('MDN');
    expect(
      await site('Simulators — LessWrong', '<p>x</p>', '<meta property="og:title" content="Simulators">'),
    ).toBe('LessWrong');
  });

  it('reads nothing when the title does not start with the headline, or says no more than it', async () => {
    expect(await site('Pricing | Tidewell', '<h1>Plans for every team</h1>')).toBeUndefined();
    expect(await site('Winter ferry', '<h1>Winter ferry</h1>')).toBeUndefined();
    expect(await site('Kessel Courier | Winter ferry', '<h1>Winter ferry</h1>')).toBeUndefined();
    expect(await site('Winter ferry | https://courier.example', '<h1>Winter ferry</h1>')).toBeUndefined();
  });

  it("gives way to the site's name the markup states", async () => {
    expect(
      await site(
        'Winter ferry | Courier',
        '<h1>Winter ferry</h1>',
        '<meta property="og:site_name" content="Kessel Courier">',
      ),
    ).toBe('Kessel Courier');
  });
});
