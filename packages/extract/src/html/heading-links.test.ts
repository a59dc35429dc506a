import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { headingLinks, relinkHeadings } from './heading-links.js';

const PAGE = { url: 'https://news.example/science', baseUrl: 'https://news.example/science' };

const noted = (body: string, address = PAGE) => {
  const { document } = parseHTML(`<!doctype html><html><body>${body}</body></html>`);
  return headingLinks(document as unknown as ParentNode, address);
};

describe('headingLinks', () => {
  it("notes each heading that is one link, by its text, resolved against the page's base", () => {
    const links = noted(
      '<h2><a href="/science/comet">Comet returns</a></h2><h3> <a href="https://other.example/a"> Oyster  season </a> </h3>',
    );
    expect(links).toEqual(
      new Map([
        ['Comet returns', ['https://news.example/science/comet']],
        ['Oyster season', ['https://other.example/a']],
      ]),
    );
    const based = noted('<h2><a href="comet">Comet returns</a></h2>', {
      url: PAGE.url,
      baseUrl: 'https://cdn.example/base/',
    });
    expect(based?.get('Comet returns')).toEqual(['https://cdn.example/base/comet']);
  });

  it('notes no heading linked to a place on the page, to the page itself, or out of the web', () => {
    expect(
      noted(
        `<h2><a href="#methods">Methods</a></h2>
         <h1><a href="https://news.example/science#top">Science</a></h1>
         <h2><a href="javascript:void(0)">Open</a></h2>
         <h2><a href="mailto:desk@news.example">Write to us</a></h2>
         <h2><a>No target</a></h2>`,
      ),
    ).toBeUndefined();
  });

  it("notes no heading that names a person: a post's poster, linked to a profile or an archive", () => {
    expect(
      noted(
        `<h4 class="message-name"><a href="/members/felixen.304082/">felixen</a></h4>
         <h4><a class="username" href="/t/123">spikeymike</a></h4>
         <h3><a href="https://forum.example/u/pnomes">pnomes</a></h3>
         <h3><a href="/blog/author/jane-doe/">Jane Doe</a></h3>`,
      ),
    ).toBeUndefined();
  });

  it('notes no heading whose link is only part of its text, nor one with two links', () => {
    expect(
      noted(
        '<h2>Read: <a href="/a">Comet returns</a></h2><h2><a href="/a">Comets</a> vs <a href="/b">asteroids</a></h2>',
      ),
    ).toBeUndefined();
  });

  it('keeps the targets of headings with the same text in document order', () => {
    expect(
      noted('<h3><a href="/1">Read more</a></h3><h3><a href="/2">Read more</a></h3>')?.get('Read more'),
    ).toEqual(['https://news.example/1', 'https://news.example/2']);
  });
});

describe('relinkHeadings', () => {
  it('links each unlinked heading whose text was noted, in order, and leaves the others', () => {
    const { document } = parseHTML(
      '<!doctype html><html><body><h2>Read more</h2><h2>Read more</h2><h2>Other</h2><h2><a href="/x">Read more</a></h2></body></html>',
    );
    relinkHeadings(
      document as unknown as ParentNode,
      new Map([['Read more', ['https://a.example/1', 'https://a.example/2']]]),
    );
    expect(document.body.innerHTML).toBe(
      '<h2><a href="https://a.example/1">Read more</a></h2><h2><a href="https://a.example/2">Read more</a></h2><h2>Other</h2><h2><a href="/x">Read more</a></h2>',
    );
  });
});

describe('extract: the links of linked headings', () => {
  it("keeps each teaser's link on a section front, which Defuddle writes as text", async () => {
    const teaser = (path: string, title: string, text: string) =>
      `<li><article><h2><a href="${path}">${title}</a></h2><p>${text}</p></article></li>`;
    const body = `<!doctype html><html><head><title>Science | The Gazette</title></head><body><main><h1>Science</h1><ol>
      ${teaser('/science/comet', 'A comet last seen in 1952 is back and it is bright', 'Amateur astronomers on the north shore were the first to photograph it on Tuesday night, two days early.')}
      ${teaser('/science/oyster', 'The oyster reefs in the bay are growing again', 'Divers counted three times as many living oysters as in the last survey, and the reefs now reach the pier.')}
      ${teaser('/science/tide', "Why the harbour's tide gauge has been reading high", 'A sensor fouled by weed, not the sea, explains most of the difference, engineers say, but not all of it.')}
      </ol></main></body></html>`;
    const document = await extract({ body: Buffer.from(body), url: PAGE.url, contentType: 'text/html' });
    expect(document.content).toContain(
      '## [A comet last seen in 1952 is back and it is bright](https://news.example/science/comet)',
    );
    expect(document.content).toContain(
      "## [Why the harbour's tide gauge has been reading high](https://news.example/science/tide)",
    );
  });
});
