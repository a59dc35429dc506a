import { hostilePage } from '@mono-agent/fixture-web';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPool } from '../pool/extraction-pool.js';
import {
  COLUMN_MIN_LINE_BREAKS,
  dropExtraLineBreaks,
  htmlToMarkdown,
  MAX_LINE_BREAKS_IN_A_ROW,
  MAX_WHITESPACE_RUN,
} from './html-to-markdown.js';
import { parseHtmlDocument } from './parse-html-document.js';

describe('dropExtraLineBreaks', () => {
  it(`keeps ${MAX_LINE_BREAKS_IN_A_ROW} <br>s in a row and drops the ones after, whitespace between them or not`, async () => {
    const document = await parseHtmlDocument(
      '<body><p>a<br>b<br><br>c<br> <br>\n<br><br>d</p><p>e<br><i>f</i><br><br><br>g</p></body>',
    );
    dropExtraLineBreaks(document);
    const [first, second] = Array.from(document.querySelectorAll('p'));
    expect(first?.innerHTML).toBe('a<br>b<br><br>c<br> <br>\nd');
    expect(second?.innerHTML).toBe('e<br><i>f</i><br><br>g');
  });
});

describe('htmlToMarkdown: whitespace is bounded', () => {
  it('writes a paragraph break for two or more line breaks, however many', async () => {
    for (const count of [2, 3, 5000])
      expect(await htmlToMarkdown(`<p>one${'<br>'.repeat(count)}two</p>`, 'https://x.example/')).toBe(
        'one\n\ntwo',
      );
  });

  it(`keeps a run of ${MAX_WHITESPACE_RUN} whitespace characters in code and cuts a longer one to that`, async () => {
    const code = (run: number) => `<pre><code>a${' '.repeat(run)}b</code></pre>`;
    expect(await htmlToMarkdown(code(MAX_WHITESPACE_RUN), 'https://x.example/')).toContain(
      `a${' '.repeat(MAX_WHITESPACE_RUN)}b`,
    );
    const past = await htmlToMarkdown(code(MAX_WHITESPACE_RUN + 1), 'https://x.example/');
    expect(past).toContain(`a${' '.repeat(MAX_WHITESPACE_RUN)}b`);
    expect(past).not.toContain(' '.repeat(MAX_WHITESPACE_RUN + 1));
    const nbsp = await htmlToMarkdown(`<p>a${'&nbsp;'.repeat(100_000)}b</p>`, 'https://x.example/');
    expect(nbsp.length).toBeLessThanOrEqual(MAX_WHITESPACE_RUN + 2);
  });
});

// Worker start-up on a busy machine can take many seconds; what is tested is the stage, not a time.
describe('the extraction pool: a run of line breaks cannot stall the extractors', { timeout: 90_000 }, () => {
  const pool = createExtractionPool();
  afterAll(() => pool.close());

  it('reads a page of 27,000 <br>s in a row with the DOM stages', async () => {
    // Without dropping the extra breaks the DOM stages spend over 10 s on this page (selector passes
    // over every element, Turndown's quadratic trim), run out of their time budget, and the
    // streamed stage reads it instead.
    const page = hostilePage('line-breaks', { count: 27_000 });
    const document = await pool.extract({
      body: page.body,
      contentType: page.contentType,
      url: 'https://x.example/',
    });
    expect(document.stage).not.toBe('streamed-text');
    expect(document.parserFailures.map((failure) => failure.reason).join(' ')).not.toMatch(/ran past/);
    expect(document.content).toContain('The sentence before the breaks.');
    expect(document.content).toContain('The sentence after the breaks.');
  });
});

describe('htmlToMarkdown: links that wrap blocks', () => {
  it('writes a card link on one line, its blocks joined, so that the link stays a link', async () => {
    const markdown = await htmlToMarkdown(
      '<p>Shop by body shape:</p>' +
        '<a href="/st_models.html" title="ST Style Guitars"><div><img alt="ST guitar"></div><h3>ST Style Guitars</h3>' +
        '<p>From £99</p><ul><li>Three pickups</li></ul></a>' +
        '<a href="/t_models.html"><h3>T Style Guitars</h3><p>From £119</p></a>',
      'https://shop.example.org/gb/',
    );
    expect(markdown).toContain(
      // The link's title is not written: it repeats the text, and free-form text could break out.
      '[![ST guitar] ST Style Guitars From £99 Three pickups](https://shop.example.org/st_models.html)',
    );
    expect(markdown).toContain('[T Style Guitars From £119](https://shop.example.org/t_models.html)');
    // No link text is cut by a paragraph break, which would leave its URL in the text.
    expect(markdown).not.toMatch(/\n\s*\n[^[]*\]\(/);
  });

  it('writes cards side by side as blocks of their own, and a link inside a sentence inside it', async () => {
    const markdown = await htmlToMarkdown(
      '<div class="grid"><a href="/shop/nina"><div class="title">Pink Nina Bag</div><div class="price">$130.00</div></a>' +
        '<a href="/shop/birds"><div class="title">Virginia Birds Poster</div><div class="price">$30.00</div></a></div>' +
        '<p>Acrobat Reader, which you can <a href="/reader"><b>download</b> free</a>, opens them.</p>',
      'https://shop.example.org/',
    );
    expect(markdown).toContain(
      '[Pink Nina Bag $130.00](https://shop.example.org/shop/nina)\n\n[Virginia Birds Poster $30.00](https://shop.example.org/shop/birds)',
    );
    expect(markdown).toContain(
      'Acrobat Reader, which you can [**download** free](https://shop.example.org/reader), opens them.',
    );
  });

  it("writes a link around one heading without the heading's marker inside the brackets", async () => {
    const markdown = await htmlToMarkdown(
      '<p>Members get free delivery.</p><ul><li><a href="/pages/rewards"><div><img src="/join.png" alt=""></div>' +
        '<div><h2>JOIN THE CLUB</h2></div></a></li></ul>',
      'https://shop.example.org/',
    );
    expect(markdown).toContain('- [JOIN THE CLUB](https://shop.example.org/pages/rewards)');
    expect(markdown).not.toContain('[#');
  });
});

describe('htmlToMarkdown: advertisement labels and gallery counters', () => {
  it('drops a paragraph that is only an advertisement label or a gallery counter', async () => {
    const markdown = await htmlToMarkdown(
      '<p>The harbour gauge was moved on Monday.</p><div>Advertisement</div><p><strong>Anzeige</strong></p>' +
        '<p>Publicidade</p><span>Image 3 of 23</span><p>Photo 2/9</p><p>Slide 1 of 5.</p>' +
        '<p>It was read again every hour.</p>',
      'https://news.example.org/',
    );
    expect(markdown).toBe('The harbour gauge was moved on Monday.\n\nIt was read again every hour.');
  });

  it('keeps the words as headings, list items, table cells, code and inside sentences', async () => {
    const markdown = await htmlToMarkdown(
      '<h2>Advertising</h2><p>Advertising pays for the gauge.</p><ul><li>Sponsored</li><li>Image 1 of 2</li></ul>' +
        '<table><tr><th>Kind</th><th>Share</th></tr><tr><td>Advertisement</td><td>12 %</td></tr><tr><td>Print</td><td>88 %</td></tr></table>' +
        '<pre><code>Advertisement\n\nImage 1 of 2</code></pre><p>Image 1 of 2 shows the pier<br>Advertisement</p>',
      'https://news.example.org/',
    );
    expect(markdown).toContain('## Advertising');
    expect(markdown).toContain('Advertising pays for the gauge.');
    expect(markdown).toContain('- Sponsored');
    expect(markdown).toContain('- Image 1 of 2');
    expect(markdown).toContain('| Advertisement | 12 % |');
    expect(markdown).toContain('Advertisement\n\nImage 1 of 2\n```');
    expect(markdown).toContain('Image 1 of 2 shows the pier');
  });
});

describe('htmlToMarkdown: a caption that only repeats its picture', () => {
  const base = 'https://example.org/';
  it('writes the picture, not its alt text again as a line of page text', async () => {
    const markdown = await htmlToMarkdown(
      '<p>The deck.</p><figure><img src="/deck.jpg" alt="The new deck at dawn"><figcaption> The new deck  at dawn </figcaption></figure>',
      base,
    );
    expect(markdown).toBe('The deck.\n\n![The new deck at dawn]');
  });

  it('keeps a caption that says more than the alt text, or something else, as page text', async () => {
    const more = await htmlToMarkdown(
      '<figure><img src="/deck.jpg" alt="The new deck"><figcaption>The new deck at dawn, photographed by Ann Reyes.</figcaption></figure>',
      base,
    );
    expect(more).toBe('The new deck at dawn, photographed by Ann Reyes.');
    const other = await htmlToMarkdown(
      '<figure><img src="/deck.jpg" alt="Steel arches"><figcaption>Opened in May.</figcaption></figure>',
      base,
    );
    expect(other).toContain('![Steel arches]');
    expect(other).toContain('Opened in May.');
  });

  it('keeps the caption of a figure of several pictures', async () => {
    const markdown = await htmlToMarkdown(
      '<figure><img src="/a.jpg" alt="The pier"><img src="/b.jpg" alt="The deck"><figcaption>The pier</figcaption></figure>',
      base,
    );
    expect(markdown.split('The pier')).toHaveLength(2);
    expect(markdown).not.toContain('![The pier]');
    expect(markdown).toContain('![The deck]');
  });
});

describe('htmlToMarkdown: a table of one row', () => {
  const names = (list: readonly string[]) =>
    list.map((name) => `<strong>${name}</strong>, writer`).join('<br>');

  it(`writes a table whose only row of text sets columns of ${COLUMN_MIN_LINE_BREAKS + 1} lines or more side by side as those columns, one after another`, async () => {
    // Failing before: one table row, the names of each column run together on one line.
    const markdown = await htmlToMarkdown(
      `<table><tr><td>${names(['Ada Albers', 'Bram Kerr', 'Celia Ruiz', 'Dario Zeller'])}</td><td>${names(['Edith Eklund', 'Femi Novak'])}</td></tr><tr><td></td></tr></table>`,
      'https://example.org/',
    );
    expect(markdown).toBe(
      '**Ada Albers**, writer\n**Bram Kerr**, writer\n**Celia Ruiz**, writer\n**Dario Zeller**, writer\n\n**Edith Eklund**, writer\n**Femi Novak**, writer',
    );
  });

  it('keeps a row of single values, one of lines under the bound, and a table of two rows tables', async () => {
    const markdownOf = (html: string) => htmlToMarkdown(html, 'https://example.org/');
    expect(await markdownOf('<table><tr><td>Interface</td><td>PCI Express 4.0</td></tr></table>')).toBe(
      '| Interface | PCI Express 4.0 |\n| --- | --- |',
    );
    expect(
      await markdownOf(
        `<table><tr><td>${names(['Ada Albers', 'Bram Kerr', 'Celia Ruiz'])}</td><td>Harbour office</td></tr></table>`,
      ),
    ).toBe(
      '| **Ada Albers**, writer **Bram Kerr**, writer **Celia Ruiz**, writer | Harbour office |\n| --- | --- |',
    );
    expect(
      await markdownOf(
        `<table><tr><td>${names(['Ada Albers', 'Bram Kerr', 'Celia Ruiz', 'Dario Zeller'])}</td><td>Harbour office</td></tr><tr><td>Ferry pier</td><td>2.38 m</td></tr></table>`,
      ),
    ).toContain('| Ferry pier | 2.38 m |');
  });
});
