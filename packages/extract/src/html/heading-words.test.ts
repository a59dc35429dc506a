import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { keepHeadingWords, spaceHeadingLines } from './heading-words.js';

const page = (body: string) =>
  parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`).document as unknown as Document;

describe('keepHeadingWords', () => {
  it("makes a heading's words linked to a place on the page plain text, keeping the link's other attributes", () => {
    const document = page(
      '<h4 class="code-header">pub fn <a href="#method.map" class="fn">map</a>&lt;U&gt;(self, op: F) -&gt; Result&lt;U, E&gt;</h4>' +
        '<h3>Origin of <a href="#origin" class="entry">harbour</a></h3>',
    );
    expect(keepHeadingWords(document)).toBe(2);
    expect(document.querySelector('a')).toBeNull();
    const [method, origin] = Array.from(document.querySelectorAll('h3, h4'));
    expect(method?.textContent).toBe('pub fn map<U>(self, op: F) -> Result<U, E>');
    expect(method?.querySelector('span')?.getAttribute('class')).toBe('fn');
    expect(origin?.textContent).toBe('Origin of harbour');
  });

  it.each([
    ['a permalink by class', '<h2>Usage <a class="headerlink" href="#usage">Link</a></h2>'],
    ['a permalink by title', '<h2>Usage <a href="#usage" title="Permalink to this section">Link</a></h2>'],
    ['a mark', '<h2>Usage <a href="#usage">¶</a></h2>'],
    ['text that is its own target', '<h2>Usage <a href="#section-2">#section-2</a></h2>'],
    ['a link to the top of the page', '<h2>SYNOPSIS <a href="#top">top</a></h2>'],
    ["a footnote's number", '<h2>Battery life<sup><a href="#fn-4">4</a></sup></h2>'],
    [
      "a post's time, linked to the post",
      '<h3><a href="/mara">mara</a> commented <a href="#issuecomment-1"><relative-time datetime="2026-01-15T10:30:00Z">Jan 15, 2026</relative-time></a></h3>',
    ],
    ['a date, linked to its post', '<h3>Mara wrote on <a href="#post-12">12 March 2026</a></h3>'],
    ['the whole heading', '<h2><a href="#usage">Usage</a></h2>'],
    [
      'one of two links: a contents list in a heading',
      '<h2>Contents <a href="#budget">Make a budget</a> <a href="#board">Build a mood board</a></h2>',
    ],
    ['a link to another page', '<h2>Origin of <a href="/words/harbour">harbour</a></h2>'],
  ])('leaves %s a link', (_, body) => {
    const document = page(body);
    expect(keepHeadingWords(document)).toBe(0);
    expect(document.querySelectorAll('a').length).toBe(page(body).querySelectorAll('a').length);
  });
});

describe('spaceHeadingLines', () => {
  it('spaces each line break and each block inside a heading, and nothing outside headings', () => {
    const document = page(
      '<h2>Accounting software that works<br>as hard as you do</h2>' +
        '<h4>fn map&lt;F&gt;(self, f: F) -&gt; bool<div class="where">where F: FnOnce(T) -&gt; bool</div></h4>' +
        '<p>One line<br>and the next</p>',
    );
    expect(spaceHeadingLines(document)).toBe(2);
    const [first, second] = Array.from(document.querySelectorAll('h2, h4'));
    expect(first?.textContent).toBe('Accounting software that works as hard as you do');
    expect(second?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'fn map<F>(self, f: F) -> bool where F: FnOnce(T) -> bool',
    );
    expect(document.querySelector('p br')).not.toBeNull();
  });
});

describe('headings through extract', () => {
  const story = (headings: string) =>
    new TextEncoder().encode(
      '<!doctype html><html lang="en"><head><title>Result in the standard library</title></head><body><main><article>' +
        '<h1>Result</h1><p>Result is the type used for returning and propagating errors. It is an enum with the variants Ok, representing success and containing a value, and Err, representing error and containing an error value.</p>' +
        `${headings}` +
        '<p>Returns true if the result is Ok and the value inside of it matches a predicate, which is handy when a caller needs to check both at once without taking the value out.</p>' +
        '</article></main></body></html>',
    );

  it("keeps a method's linked name and spaces its where clause in the Markdown heading", async () => {
    const { content } = await extract({
      body: story(
        '<section id="method.is_ok_and"><a href="#method.is_ok_and" class="anchor">§</a><h4 class="code-header">pub fn <a href="#method.is_ok_and" class="fn">is_ok_and</a>&lt;F&gt;(self, f: F) -&gt; bool<div class="where">where F: FnOnce(T) -&gt; bool,</div></h4></section>',
      ),
      url: 'https://docs.example/std/result/enum.Result.html',
      contentType: 'text/html; charset=utf-8',
      format: 'markdown',
    });
    expect(content).toContain(
      '#### pub fn is\\_ok\\_and\\<F>(self, f: F) -> bool where F: FnOnce(T) -> bool,',
    );
  });

  it('writes a heading broken over two lines as one line', async () => {
    const { content } = await extract({
      body: story('<h2>Accounting software that works<br>as hard as you do</h2>'),
      url: 'https://docs.example/std/result/enum.Result.html',
      contentType: 'text/html; charset=utf-8',
      format: 'markdown',
    });
    expect(content).toContain('## Accounting software that works as hard as you do\n');
  });
});
