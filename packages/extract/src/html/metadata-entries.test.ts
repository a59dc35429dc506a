import { describe, expect, it } from 'vitest';
import { readPageMetadata } from './page-metadata.js';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/** A teaser of a section front: its linked headline, its byline and its standfirst. */
const teaser = (headline: string, writer: string) =>
  `<article class="teaser"><h2><a href="/${headline.length}">${headline}</a></h2><p class="byline">By ${writer}</p><p>A standfirst.</p></article>`;

describe("readPageMetadata: the bylines of a page's entries", () => {
  it("names nobody on a section front whose teasers each carry their writer's byline", async () => {
    const front = `<h1>Science</h1><section>${teaser('Comet returns', 'Lena Brandt')}${teaser('Oyster season', 'Samir Haddad')}${teaser('Bridge repairs', 'Rita Gomes')}</section>`;
    expect((await readPageMetadata(page('Science | The Daily', front))).author).toBeUndefined();
  });

  it('names nobody on a list of books in table rows, each with its writer and a heading role', async () => {
    const row = (book: string, writer: string) =>
      `<tr><td>1</td><td><a href="/b"><span role="heading" aria-level="4">${book}</span></a><div class="authorName__container"><a class="authorName" href="/a">${writer}</a></div></td></tr>`;
    const list = `<h1>Best Books Ever</h1><table>${row('The Hunger Games', 'Suzanne Collins')}${row('Emma', 'Jane Austen')}</table>`;
    expect((await readPageMetadata(page('Best Books Ever (100 books)', list))).author).toBeUndefined();
  });

  it("reads the page's byline before a list of other stories with theirs", async () => {
    const story = `<main><h1>Night market moves</h1><p class="byline">By Marco Bellini</p><p>Text.</p></main>`;
    const more = `<section><h2>More stories</h2>${teaser('Comet returns', 'Lena Brandt')}${teaser('Oyster season', 'Samir Haddad')}</section>`;
    expect((await readPageMetadata(page('Night market moves', story + more))).author).toBe('Marco Bellini');
  });

  it("reads a list of other stories' bylines after the page's own, not before it", async () => {
    // The teasers come first in the markup (a rail drawn before the story); the story's own byline
    // is read after them.
    const rail = `<div class="rail">${teaser('Comet returns', 'Lena Brandt')}${teaser('Oyster season', 'Samir Haddad')}</div>`;
    const story = `<main><h1>Night market moves</h1><p class="byline">By Marco Bellini</p><p>Text.</p></main>`;
    expect((await readPageMetadata(page('Night market moves', rail + story))).author).toBe('Marco Bellini');
  });

  it("reads the first story's byline in a stream of whole stories when its headline is the page's title", async () => {
    const story = (headline: string, writer: string) =>
      `<article class="story"><h1>${headline}</h1><p class="byline">By ${writer}</p><p>Text.</p></article>`;
    const stream = story('Night market moves', 'Marco Bellini') + story('Comet returns', 'Lena Brandt');
    expect((await readPageMetadata(page('Night market moves - The Daily', stream))).author).toBe(
      'Marco Bellini',
    );
  });

  it("names nobody on a blog's index whose entries open with their linked titles, no heading", async () => {
    const entry = (slug: string, title: string, writer: string) =>
      `<p class="blogtitle"><a href="/blog/${slug}">${title}</a>, <span class="date">10 February 2026</span><br><span class="author">${writer}</span></p><p class="blogsummary">What changed.</p>`;
    const index = `<h1>The Harbour Blog - Index</h1>${entry('pier', 'The new pier opens', 'Keith Ranulf')}${entry('ferry', 'Ferries every ninety minutes', 'Carla Amedo')}`;
    expect((await readPageMetadata(page('Blog Index - The Harbour Blog', index))).author).toBeUndefined();
  });

  it("reads a thread's first poster when each post opens with a link to its poster", async () => {
    const post = (writer: string) =>
      `<div class="post"><a href="/members/${writer}" class="post-author">${writer}</a><p>I think so, after the update.</p></div>`;
    const thread = `<h1>Fan noise after update</h1>${post('Rita Gomes')}${post('Omar Said')}${post('Lee Chan')}`;
    expect((await readPageMetadata(page('Fan noise after update', thread))).author).toBe('Rita Gomes');
  });

  it("reads a thread's first poster: posts carry no heading of their own", async () => {
    const post = (writer: string) =>
      `<div class="post"><div class="post-author">${writer}</div><p>I think so.</p></div>`;
    const thread = `<h1>Fan noise after update</h1>${post('Rita Gomes')}${post('Omar Said')}${post('Lee Chan')}`;
    expect((await readPageMetadata(page('Fan noise after update', thread))).author).toBe('Rita Gomes');
  });

  it("reads a thread's first poster when each post's header names its writer in a linked heading", async () => {
    // A forum whose posts head their text with the poster's name as a linked <h3>, and sign it below
    // with a byline that links the poster again.
    const post = (writer: string, text: string) =>
      `<li class="message"><h3 class="userText"><a href="/members/${writer}" class="username">${writer}</a></h3><blockquote>${text}</blockquote><div class="messageDetails"><a href="/members/${writer}" class="username author">${writer}</a></div></li>`;
    const thread = `<h1>Best server hosts this year</h1><ol>${post('pelex', '<h2><a href="https://host.example/">Host one</a></h2><p>Fast.</p>')}${post('Omar Said', '<p>Agreed.</p>')}</ol>`;
    expect((await readPageMetadata(page('Best server hosts this year | Forum', thread))).author).toBe(
      'pelex',
    );
  });

  it("reads a story's co-authors, each a link of the byline's", async () => {
    const story = `<h1>Night market moves</h1><p class="byline">By <a rel="author" href="/a">Marco Bellini</a> and <a rel="author" href="/b">Lena Brandt</a></p><h2>What changes</h2><p>Text.</p>`;
    expect((await readPageMetadata(page('Night market moves', story))).author).toBe(
      'Marco Bellini and Lena Brandt',
    );
  });
});

describe("readPageMetadata: the dates of a page's entries", () => {
  const dated = (headline: string, datetime: string) =>
    `<article class="teaser"><h2><a href="/${datetime}">${headline}</a></h2><time pubdate datetime="${datetime}">${datetime}</time><p>A standfirst.</p></article>`;

  it("dates no page by its first entry's date on a blog's index", async () => {
    const index = `<h1>News</h1>${dated('Comet returns', '2025-11-28')}${dated('Oyster season', '2025-11-27')}`;
    expect((await readPageMetadata(page('News | The Daily', index))).published).toBeUndefined();
  });

  it("dates no page by its first item's microdata date on a list of posts", async () => {
    const item = (headline: string, date: string) =>
      `<article itemscope itemtype="https://schema.org/BlogPosting"><h2><a href="/p">${headline}</a></h2><meta itemprop="datePublished" content="${date}"></article>`;
    const list = `<h1>Blog</h1>${item('Comet returns', '2026-03-06')}${item('Oyster season', '2026-03-02')}`;
    expect((await readPageMetadata(page('Blog', list))).published).toBeUndefined();
  });

  it("dates no blog's index by its first entry's date line under the index's heading", async () => {
    const entry = (slug: string, title: string, date: string, writer: string) =>
      `<p class="blogtitle"><a href="/blog/${slug}">${title}</a>, <span class="date">${date}</span><br><span class="author">${writer}</span></p><p class="blogsummary">What changed.</p>`;
    const index = `<h1>The Harbour Blog</h1>${entry('pier', 'The new pier opens', '27 February 2026', 'Keith Ranulf')}${entry('ferry', 'Ferries every ninety minutes', '10 February 2026', 'Carla Amedo')}`;
    const metadata = await readPageMetadata(page('The Harbour Blog', index));
    expect(metadata.published).toBeUndefined();
    expect(metadata.author).toBeUndefined();
  });

  it("reads a story's date before a list of dated teasers", async () => {
    const story = `<main><h1>Night market moves</h1><time pubdate datetime="2024-05-01">May 1</time><p>Text.</p></main>`;
    const rail = `<aside>${dated('Comet returns', '2025-11-28')}${dated('Oyster season', '2025-11-27')}</aside>`;
    expect((await readPageMetadata(page('Night market moves', rail + story))).published).toBe('2024-05-01');
  });
});
