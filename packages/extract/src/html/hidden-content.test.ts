import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { dropHiddenContent, HIDDEN_KEEP_SHARE } from './hidden-content.js';
import { htmlToStreamedText } from './html-streamed-text.js';
import { parseHtmlDocument } from './parse-html-document.js';

const url = 'https://example.org/news/harbour.html';
const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;
const story = (paragraphs: number[]) => paragraphs.map(paragraph).join('');

/** Each way a page hides an element, with a word the answer must not hold. */
const HIDDEN_PARTS = [
  '<div hidden><p>SECRETATTRIBUTE for a script.</p></div>',
  '<p aria-hidden="true">SECRETARIA decoration.</p>',
  '<p style="display:none">SECRETDISPLAY tracking.</p>',
  '<div style="color: red; display: none !important"><p>SECRETIMPORTANT menu.</p></div>',
  '<div style="display: none !important"><p>SECRETNONEIMPORTANT copy.</p></div>',
  '<p style="visibility: hidden">SECRETVISIBILITY placeholder.</p>',
  '<dialog><p>SECRETDIALOG: subscribe!</p></dialog>',
  '<p><span class="d-none">SECRETUTILITY count.</span></p>',
].join('');
const SECRET = /SECRET[A-Z]+/g;

const body = async (html: string) => {
  const document = await parseHtmlDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const removed = dropHiddenContent(document);
  return { removed, text: document.body?.textContent ?? '', document };
};

describe('dropHiddenContent', () => {
  it('removes an inline element whose class hides it at every width, and keeps one a breakpoint shows and a block a script may open', async () => {
    const { removed, text } = await body(
      '<div class="s-prose"><span class="d-none">$\\begingroup$</span><p>Three-phase power arrives on three wires.</p>' +
        '<span class="d-none">$\\endgroup$</span></div><span class="d-none" itemprop="commentCount">5</span>' +
        '<span class="d-none d-md-inline">Wide screens</span><small class="md:d-block d-none">Medium up</small>' +
        '<div class="answer d-none">The full answer a script shows.</div>',
    );
    expect(removed).toBe(3);
    expect(text).toBe(
      'Three-phase power arrives on three wires.Wide screensMedium upThe full answer a script shows.',
    );
  });

  it('removes elements hidden by attribute, by aria-hidden, by inline style or class, and dialogs not open', async () => {
    const { removed, text } = await body(`${story([1, 2, 3, 4])}${HIDDEN_PARTS}`);
    expect(removed).toBe(8);
    expect(text.match(SECRET)).toBeNull();
    expect(text).toContain('Paragraph 2');
  });

  it('keeps what a reader is shown: open dialogs, hidden="until-found", a visible child of a visibility:hidden box', async () => {
    const { removed, text } = await body(
      `${story([1, 2, 3])}<dialog open><p>OPEN dialog text</p></dialog><div hidden="until-found"><p>FOUND section text</p></div>` +
        '<div style="visibility:hidden"><p style="visibility: visible">VISIBLE child text</p></div>' +
        '<p style="display: block; opacity: 1">STYLED text</p><p aria-hidden="false">ARIAFALSE text</p>',
    );
    expect(removed).toBe(0);
    for (const word of ['OPEN', 'FOUND', 'VISIBLE', 'STYLED', 'ARIAFALSE']) expect(text).toContain(word);
  });

  it(`keeps every hidden element when together they hold more than ${HIDDEN_KEEP_SHARE * 100} % of the page's text`, async () => {
    // A page shown by its scripts: its story in a hidden app root, or spread over hidden blocks.
    const root = await body(
      `<header>Site</header><div id="app" style="display:none">${story([1, 2, 3])}</div>`,
    );
    expect(root.removed).toBe(0);
    expect(root.text).toContain('Paragraph 3');
    const spread = await body(
      `<p>Menu</p>${[1, 2, 3, 4].map((n) => `<div style="display:none">${story([n])}</div>`).join('')}${story([5])}`,
    );
    expect(spread.removed).toBe(0);
    // Saved with a dialog open: the rest of the page is aria-hidden.
    const saved = await body(
      `<div aria-hidden="true">${story([1, 2, 3])}</div><dialog open>Cookies?</dialog>`,
    );
    expect(saved.removed).toBe(0);
    // Scripts and styles are not text a reader sees, so they do not count.
    const scripted = await body(
      `<script>${'var x = 1;'.repeat(500)}</script>${story([1])}<div hidden>${story([2, 3, 4, 5])}</div>`,
    );
    expect(scripted.removed).toBe(0);
  });

  it(`removes hidden elements that hold ${HIDDEN_KEEP_SHARE * 100} % of the page's text or less: at the bound and past it`, async () => {
    // Paragraphs 1 to 9 are drawn with as many characters each.
    const hiddenShare = (hidden: number, shown: number) =>
      body(
        `${story(Array.from({ length: shown }, (_, n) => n + 1))}` +
          Array.from({ length: hidden }, (_, n) => `<div hidden>${paragraph(n + 1)}</div>`).join(''),
      );
    expect(HIDDEN_KEEP_SHARE).toBe(0.75);
    // Three quarters hidden (the bound): removed. Four fifths: kept, the page is shown by its scripts.
    expect((await hiddenShare(3, 1)).removed).toBe(3);
    expect((await hiddenShare(4, 1)).removed).toBe(0);
    // Two thirds and three fifths: a page that hides its other versions beside the one it shows.
    expect((await hiddenShare(2, 1)).removed).toBe(2);
    expect((await hiddenShare(3, 2)).removed).toBe(3);
  });

  it('walks nested hidden boxes once: 20,000 nested aria-hidden boxes, and as many visibility:hidden ones a descendant undoes', async () => {
    const nested = await body(
      `${'<div aria-hidden="true">'.repeat(20_000)}x${'</div>'.repeat(20_000)}${story([1, 2, 3])}`,
    );
    expect(nested.removed).toBe(1);
    expect(nested.text).toContain('Paragraph 3');
    const undone = await body(
      `${'<div style="visibility:hidden">'.repeat(20_000)}<p style="visibility:visible">SHOWN</p>${'</div>'.repeat(20_000)}${story([1])}`,
    );
    expect(undone.removed).toBe(0);
    expect(undone.text).toContain('SHOWN');
  });

  it("keeps a footnote's text that the page shows from its mark, inside the mark or named by it", async () => {
    const { text } = await body(
      `${story([1, 2, 3])}<p>The bridge reopened in May.<span class="note">1<span style="display:none">NOTEINSIDE: after the tests.</span></span></p>` +
        `<p>The toll was dropped for cyclists.<span data-definition="n2"><a href="#">*</a></span> Walkers pay nothing.<sup><a href="#n3">[3]</a></sup></p>` +
        '<aside id="n2" style="display:none">NOTENAMED: from June.</aside><div id="n3" hidden>NOTEHREF: see the council minutes.</div>',
    );
    expect(text).toContain('NOTEINSIDE');
    expect(text).toContain('NOTENAMED');
    expect(text).toContain('NOTEHREF');
  });

  it("removes what a menu's toggle, a pager or a mark outside any text points at, and what only aria-hidden hides", async () => {
    const { text } = await body(
      `${story([1, 2, 3])}<header><a href="#menu">☰</a><nav id="menu" hidden>SECRETMENU links</nav></header>` +
        '<ul class="pager"><li><a href="#page2">2</a></li></ul><div id="page2" style="display:none">SECRETPAGE two</div>' +
        '<div><span data-definition="d1">1</span></div><aside id="d1" style="display:none">SECRETALONE note</aside>' +
        '<p>The bridge reopened in May.<span class="note">Read more<span style="display:none">SECRETMORE text</span></span></p>' +
        '<li>Harbour guide, fourth edition <a href="/reviews"><i aria-hidden="true">SECRETSTARS 4.6 out of 5</i> 649</a></li>',
    );
    expect(text.match(SECRET)).toBeNull();
  });

  it('shows a formula hidden beside its picture (as MediaWiki writes one) and removes the picture; other hidden formulas go', async () => {
    const formula = (display: string) =>
      `<math${display} alttext="x^{2}"><semantics><msup><mi>x</mi><mn>2</mn></msup><annotation encoding="application/x-tex">x^{2}</annotation></semantics></math>`;
    const { text, document } = await body(
      `${story([1, 2, 3])}<p>Area <span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display: none;">${formula('')}</span><img class="mwe-math-fallback-image-inline" aria-hidden="true" alt="x^{2}" src="x.svg"></span> grows.</p>` +
        `<dl><dd><span id="shown" class="mwe-math-element"><span aria-hidden="true">${formula(' display="block"')}</span><img alt="x^{2}" src="y.svg"></span></dd></dl>` +
        `<p>Kept <span style="display:none">${formula('')}</span> apart.</p><p>Not a picture: <span><span hidden>${formula('')}</span><b>x squared</b></span></p>`,
    );
    expect(document.getElementsByTagName('math')).toHaveLength(2);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(document.querySelector('.mwe-math-mathml-inline')?.getAttribute('style')).toBeNull();
    expect(document.querySelector('#shown')?.getAttribute('data-display')).toBe('block');
    expect(document.querySelector('#shown > span')?.hasAttribute('aria-hidden')).toBe(false);
    expect(text).toContain('x squared');
  });

  it('moves JSON-LD out of a removed element, so the page keeps its metadata', async () => {
    const { document } = await body(
      `${story([1, 2])}<div hidden><script type="application/ld+json">{"@type":"NewsArticle"}</script></div>`,
    );
    expect(document.head?.querySelector('script[type="application/ld+json"]')?.textContent).toContain(
      'NewsArticle',
    );
  });
});

// Through extract(): whichever stage reads the page, hidden text is not its text. Failing before
// this rule: Defuddle keeps `display: none !important` and, on short pages, every hidden element.
describe('extract: content the page hides', () => {
  const pages: Record<string, string> = {
    article: `<article><h1>The bridge</h1>${story([1, 2])}${HIDDEN_PARTS}${story([3, 4, 5])}</article>`,
    'short page': `<div><h1>Notice</h1><p>The harbour office is closed on Monday for the bridge works. Tickets bought for Monday are valid on Tuesday and Wednesday, and season passes are extended by one day. The ferry to the island runs as usual from the north pier; its timetable is on the board by the office door and at every stop of the harbour bus.</p></div>${HIDDEN_PARTS}`,
    'list page': `<h1>Harbour services</h1><ul>${['Ferry times and fares for the island crossing', 'Bridge works and road closures this month', 'Moorings for visiting boats, by the night or week', 'Fuel, water and pump-out at the east quay', 'Lost property and the harbour master on duty'].map((item, n) => `<li><a href="/s/${n}">${item}</a></li>`).join('')}</ul>${HIDDEN_PARTS}<table><tr><td>North pier</td><td>Open every day from six in the morning</td></tr><tr><td>East quay</td><td>Closed on Monday for the works on the bridge</td></tr></table>`,
  };
  for (const [name, inner] of Object.entries(pages)) {
    for (const format of ['markdown', 'text'] as const) {
      it(`leaves hidden text out of a ${name} (${format})`, async () => {
        const document = await extract({
          body: `<!doctype html><html><head><title>Harbour</title></head><body>${inner}</body></html>`,
          url,
          contentType: 'text/html',
          format,
        });
        expect(document.content.match(SECRET)).toBeNull();
        expect(document.content.length).toBeGreaterThan(10);
      });
    }
  }

  it('leaves out hidden sections that hold most, but not nearly all, of the text, whichever stage reads the page', async () => {
    // Failing before: hidden parts holding over half the text were all kept, and the cleaned body
    // read them. Here two of three sections are hidden for good (two thirds of the text).
    const sections = (n: number, hide: string) =>
      `<h2>Section ${n}</h2><p ${hide}>HIDDENSECTION${n} ${paragraph(n).slice(3, -4)} ${paragraph(n + 3).slice(3, -4)}</p>`;
    for (const hide of ['style="display: none"', 'hidden', 'style="visibility: hidden"']) {
      const document = await extract({
        body: `<!doctype html><html><head><title>Harbour</title></head><body><h1>The bridge</h1><p>${paragraph(1).slice(3, -4)} ${paragraph(4).slice(3, -4)}</p>${sections(2, hide)}${sections(3, hide)}</body></html>`,
        url,
        contentType: 'text/html',
      });
      expect([hide, document.content.match(/HIDDENSECTION\d/g)]).toEqual([hide, null]);
      expect(document.content).toContain('Paragraph 4');
    }
  });

  it('still shows the folded answers of an FAQ and the parts a page fades in', async () => {
    const document = await extract({
      body: `<!doctype html><html><head><title>FAQ</title></head><body><main><h1>Harbour FAQ</h1>${story([1, 2])}
        <div class="faq"><h3>When does the ferry run?</h3><div class="faq-answer" style="display:none"><p>FOLDED answer: every hour from six until midnight.</p></div></div>
        <section style="opacity:0"><p>FADED paragraph about the new pier and its lights.</p></section>
        <div role="tabpanel" hidden><p>PANEL text of the second tab.</p></div></main></body></html>`,
      url,
      contentType: 'text/html',
    });
    for (const word of ['FOLDED', 'FADED', 'PANEL']) expect(document.content).toContain(word);
  });

  it('reads a section marked hidden="until-found", which find-in-page opens, whichever stage reads the page', async () => {
    // Failing before: the preparation kept such a section, and Readability and Defuddle then dropped
    // it for its `hidden` attribute, whatever its value.
    const found = (n: number, value: string) =>
      `<h2>Section ${n}</h2><div hidden="${value}"><p>FOUNDSECTION${n} ${paragraph(n).slice(3, -4)}</p></div>`;
    const pages = {
      article: `<article><h1>The bridge</h1>${story([1, 2, 3])}${found(4, 'until-found')}${story([5, 6])}${found(7, 'UNTIL-FOUND')}</article>`,
      'short page': `<div><h1>Notice</h1>${paragraph(1)}${found(2, 'until-found')}</div>`,
    };
    for (const [name, inner] of Object.entries(pages)) {
      for (const format of ['markdown', 'text'] as const) {
        const document = await extract({
          body: `<!doctype html><html><head><title>Harbour</title></head><body>${inner}<div hidden="hidden"><p>SECRETHIDDEN copy.</p></div></body></html>`,
          url,
          contentType: 'text/html',
          format,
        });
        const expected = name === 'article' ? ['FOUNDSECTION4', 'FOUNDSECTION7'] : ['FOUNDSECTION2'];
        expect([name, format, document.content.match(/FOUNDSECTION\d/g)]).toEqual([name, format, expected]);
        expect(document.content).not.toContain('SECRETHIDDEN');
      }
    }
  });
});

// The last-resort stage for pages past the DOM stages' bounds reads the page in one pass, without a
// DOM; it follows the same rules.
describe('the streamed-text stage: content the page hides', () => {
  it('leaves hidden elements out, and what follows them in', async () => {
    const { markdown } = await htmlToStreamedText(
      `<html><body><h1>The bridge</h1>${story([1, 2])}${HIDDEN_PARTS}<img hidden src="x.png"><p>After the hidden parts.</p>${story([3, 4])}</body></html>`,
      url,
    );
    expect(markdown.match(SECRET)).toBeNull();
    expect(markdown).toContain('After the hidden parts.');
    expect(markdown).toContain('Paragraph 4');
  });

  it('leaves hidden elements out when they hold two thirds of the text, and keeps them past three quarters', async () => {
    const read = (hidden: number) =>
      htmlToStreamedText(
        `<html><body>${story([1])}${[2, 3, 4, 5]
          .slice(0, hidden)
          .map((n) => `<div hidden>${story([n])}</div>`)
          .join('')}</body></html>`,
        url,
      );
    expect((await read(2)).markdown).not.toContain('Paragraph 3');
    expect((await read(4)).markdown).toContain('Paragraph 5');
  });

  it('writes a formula from its alttext or its picture named as one, as TeX between $ signs', async () => {
    const { markdown } = await htmlToStreamedText(
      `<html><body>${story([1])}<p>Area <math alttext="{\\displaystyle \\pi r^{2}}"><mi>π</mi></math> and <span><span style="display:none"><math alttext="x^{2}"></math></span><img class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle x^{2}}" src="x.svg"></span> grow; <img class="photo" alt="A bridge"> <img class="latex" alt="a&lt;b" src="l.png"></p></body></html>`,
      url,
    );
    expect(markdown).toContain('Area $\\pi r^{2}$ and');
    expect(markdown).toContain('$x^{2}$');
    expect(markdown).toContain('$a\\lt b$');
    expect(markdown).not.toContain('A bridge');
    expect(markdown.match(/x\^\{2\}/g)).toHaveLength(1);
  });

  it('keeps a hidden element holding most of the text, and hidden="until-found"', async () => {
    const { markdown } = await htmlToStreamedText(
      `<html><body><p>Menu</p><div id="app" style="display:none">${story([1, 2])}</div><div hidden="until-found">FOUND text</div></body></html>`,
      url,
    );
    expect(markdown).toContain('Paragraph 2');
    expect(markdown).toContain('FOUND text');
  });
});
