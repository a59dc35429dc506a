import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { NOSCRIPT_CONTENT_MIN_WORDS, NOSCRIPT_COPY_MIN_WORDS } from './noscript-content.js';

const url = 'https://forum.example.org/t/tide-gauge-drift/4121';
const encoder = new TextEncoder();

/** `count` distinct words, so that no extractor folds them as repeats. */
function prose(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

/** A forum thread as Discourse and Flarum send it: an empty application shell, the posts in `<noscript>`. */
function threadPage(noscriptInner: string): string {
  return (
    '<!doctype html><html><head><title>Tide gauge drift</title>' +
    '<script src="/assets/app.js"></script></head><body>' +
    '<section id="main"></section>' +
    `<noscript data-path="/t/tide-gauge-drift/4121">${noscriptInner}</noscript>` +
    '<script>window.preloaded = {};</script></body></html>'
  );
}

async function extractPage(html: string) {
  return extract({ body: encoder.encode(html), url, contentType: 'text/html', format: 'markdown' });
}

describe('extract: content a page shows readers without scripts', () => {
  it('reads a thread sent inside <noscript>, question and every answer, and is no shell', async () => {
    const posts = [
      `<h1>Tide gauge drift</h1><div class="post"><span class="author">marta</span><p>Our gauge reads high every spring. ${prose(30, 'question')}</p></div>`,
      `<div class="post"><span class="author">ines</span><p>Check the stilling well for silt. ${prose(30, 'firstanswer')}</p></div>`,
      `<div class="post"><span class="author">olu</span><p>Recalibrate against the benchmark. ${prose(30, 'secondanswer')}</p></div>`,
    ].join('');
    const document = await extractPage(threadPage(`<div id="main-outlet">${posts}</div>`));
    expect(document.content).toContain('Our gauge reads high every spring.');
    expect(document.content).toContain('Check the stilling well for silt.');
    expect(document.content).toContain('Recalibrate against the benchmark.');
    expect(document.sparseShell?.sparse).toBe(false);
  });

  it(`keeps a <noscript> of ${NOSCRIPT_CONTENT_MIN_WORDS} words and drops one of fewer`, async () => {
    const page = (noscriptWords: number) =>
      '<!doctype html><html><head><title>Harbour notes</title></head><body><article><h1>Harbour notes</h1>' +
      `<p>${prose(80, 'article')}</p><noscript><p>${prose(noscriptWords, 'fallback')}</p></noscript>` +
      '</article></body></html>';
    const atBound = await extractPage(page(NOSCRIPT_CONTENT_MIN_WORDS));
    expect(atBound.content).toContain(`fallback${NOSCRIPT_CONTENT_MIN_WORDS - 1}`);
    const below = await extractPage(page(NOSCRIPT_CONTENT_MIN_WORDS - 1));
    expect(below.content).not.toContain('fallback0');
    expect(below.content).toContain('article79');
  });

  it(`reads once an article the page shows and sends again in a <noscript> of ${NOSCRIPT_COPY_MIN_WORDS} words or more`, async () => {
    // The story is in a <div>: the one <article> holding the page's <h1> would be read alone, without
    // the copy beside it, whichever way the copy went.
    const page = (copyWords: number, hiddenShown = false) =>
      '<!doctype html><html><head><title>Harbour notes</title></head><body><main>' +
      `<div class="story"${hiddenShown ? ' hidden' : ''}><h1>Harbour notes</h1><p>${prose(copyWords, 'story')}</p></div>` +
      `<noscript><div><p>${prose(copyWords, 'story')}</p></div></noscript>` +
      '</main></body></html>';
    const count = (content: string) => content.split('story0 story1').length - 1;
    expect(count((await extractPage(page(NOSCRIPT_COPY_MIN_WORDS))).content)).toBe(1);
    // A smaller copy (a carousel's card the page also draws) is still unwrapped.
    expect(count((await extractPage(page(NOSCRIPT_COPY_MIN_WORDS - 1))).content)).toBe(2);
    // Text the page hides is not shown: the <noscript> is then what a reader gets.
    const hidden = await extractPage(page(NOSCRIPT_COPY_MIN_WORDS, true));
    expect(hidden.content).toContain(`story${NOSCRIPT_COPY_MIN_WORDS - 1}`);
  });

  it('does not count the styles and scripts inside a <noscript> as words', async () => {
    const css = `<style>${Array.from({ length: 60 }, (_, index) => `.rule${index} { color: red; }`).join(' ')}</style>`;
    const page =
      '<!doctype html><html><head><title>Harbour notes</title></head><body>' +
      `<article><h1>Harbour notes</h1><p>${prose(80, 'article')}</p></article>` +
      `<noscript>${css}<p>Please enable JavaScript to see the comments.</p></noscript></body></html>`;
    const document = await extractPage(page);
    expect(document.content).not.toContain('enable JavaScript');
    expect(document.content).not.toContain('rule1');
  });
});
