import { describe, expect, it } from 'vitest';
import { readPageMetadata } from './page-metadata.js';

const page = (head: string, body: string) =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const read = async (head: string, body: string) => readPageMetadata(page(head, body));

describe("readPageMetadata: names on the page that are not the page's writer", () => {
  it("names nobody for a service page whose only byline is a customer's under a quote", async () => {
    const quote = `<div class="blockquote"><p>They doubled our leads in a quarter.</p><p class="byline"><span class="name">Dana Whitfield</span> <span class="pos">Head of Growth</span></p></div>`;
    const body = `<h1>Analytics services</h1><p>We build dashboards.</p>${quote}`;
    expect((await read('<title>Analytics services</title>', body)).author).toBeUndefined();
  });

  it('names nobody for a byline inside a <blockquote>', async () => {
    const body = `<h1>Our platform</h1><blockquote><p>Fast and simple.</p><p class="author">Ian Moss</p></blockquote>`;
    expect((await read('<title>Our platform</title>', body)).author).toBeUndefined();
  });

  it("names nobody for a testimonial slider's author", async () => {
    const slide = (name: string) =>
      `<div class="testimonial-slide"><div class="message"><h2>A one-stop shop.</h2></div><div class="author">${name}</div></div>`;
    const body = `<h1>Event rentals</h1><div class="testimonials">${slide('Marta Quist')}${slide('Omar Diaz')}</div>`;
    expect((await read('<title>Event rentals</title>', body)).author).toBeUndefined();
  });

  it("still reads the page's byline above a customer's quote", async () => {
    const body = `<h1>How we cut churn</h1><p class="byline">By Priya Raman</p><p>Text.</p><blockquote><span class="author">Ian Moss</span></blockquote>`;
    expect((await read('<title>How we cut churn</title>', body)).author).toBe('Priya Raman');
  });

  it("reads the byline of a blog's post in its quote format", async () => {
    const body = `<article class="post type-post format-quote"><h1>Words for a Monday</h1><p class="byline">By Priya Raman</p><blockquote><p>Begin anywhere.</p></blockquote></article>`;
    expect((await read('<title>Words for a Monday</title>', body)).author).toBe('Priya Raman');
  });

  it("names nobody for a product page whose byline links to its maker's store", async () => {
    const store = `<h1 id="title">Electric kettle, 1.7 litres</h1><div id="bylineInfo_feature_div"><a id="bylineInfo" href="/stores/Kettlecraft">Visit the Kettlecraft Store</a></div><p>Boils a litre in three minutes.</p>`;
    expect((await read('<title>Electric kettle</title>', store)).author).toBeUndefined();
    const maker = `<h1>Electric kettle, 1.7 litres</h1><p id="pqv-byline">From Kettlecraft</p><p>Boils a litre in three minutes.</p>`;
    expect((await read('<title>Electric kettle</title>', maker)).author).toBeUndefined();
  });

  it("names nobody for a product page whose microdata author is a customer review's", async () => {
    const review = `<div itemprop="review" itemscope itemtype="http://schema.org/Review"><span itemprop="reviewBody">Does all I need.</span><span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Richard Iles</span></span></div>`;
    const body = `<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Free CRM</h1>${review}</div>`;
    expect((await read('<title>Free CRM</title>', body)).author).toBeUndefined();
  });

  it('names nobody for a product page whose customer review states its author in a <meta itemprop>', async () => {
    const review = `<div class="customer-review" itemprop="review" itemscope itemtype="https://schema.org/Review"><span class="review-intro__author">guitar_00 09.08.2024</span><meta itemprop="author" content="guitar_00"><p itemprop="reviewBody">Great neck.</p></div>`;
    const body = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Player II Strat</h1>${review}</div>`;
    expect((await read('<title>Player II Strat</title>', body)).author).toBeUndefined();
  });

  it("reads an article's author from a <meta itemprop> of the item that holds the headline", async () => {
    const body = `<article itemscope itemtype="https://schema.org/BlogPosting"><meta itemprop="author" content="Nadia Petrova"><h1 itemprop="headline">Winter gardens</h1><p>Text.</p></article>`;
    expect((await read('<title>Winter gardens</title>', body)).author).toBe('Nadia Petrova');
  });

  it("reads a critic's review's author when the review holds the page's headline", async () => {
    const body = `<article itemscope itemtype="https://schema.org/Review"><h1 itemprop="name">A quiet triumph</h1><span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Helen Okafor</span></span><p itemprop="reviewBody">Text.</p></article>`;
    expect((await read('<title>A quiet triumph</title>', body)).author).toBe('Helen Okafor');
  });

  it("does not take a front page's Parse.ly author and date, its lead story's, for the page's", async () => {
    const head = `<title>TechNews | Startup and technology news</title><meta name="parsely-type" content="index"><meta name="parsely-author" content="Connie Lomas"><meta name="parsely-pub-date" content="2026-03-08T06:05:26Z">`;
    const metadata = await read(head, '<h1>Latest</h1><p>Stories.</p>');
    expect(metadata.author).toBeUndefined();
    expect(metadata.published).toBeUndefined();
  });

  it("does not take the older parsely-page tag's author and date on a section page", async () => {
    const parselyPage = JSON.stringify({
      type: 'sectionpage',
      author: 'Connie Lomas',
      pub_date: '2026-03-08T06:05:26Z',
    });
    const head = `<title>Science</title><meta name="parsely-page" content='${parselyPage}'>`;
    const metadata = await read(head, '<h1>Science</h1>');
    expect(metadata.author).toBeUndefined();
    expect(metadata.published).toBeUndefined();
  });

  it("reads a post's Parse.ly author and date", async () => {
    const head = `<title>A story</title><meta name="parsely-type" content="post"><meta name="parsely-author" content="Connie Lomas"><meta name="parsely-pub-date" content="2026-03-08T06:05:26Z">`;
    const metadata = await read(head, '<h1>A story</h1>');
    expect(metadata.author).toBe('Connie Lomas');
    expect(metadata.published).toBe('2026-03-08T06:05:26Z');
  });
});
