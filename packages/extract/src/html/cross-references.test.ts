import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { keepCrossReferences } from './cross-references.js';
import { parseHtmlDocument } from './parse-html-document.js';

describe('extract: cross-references to a place on the page', () => {
  it("keeps the words of Sphinx's references in running text (failing before: 'see  for the options')", async () => {
    const content = await markdownOf(
      '<h2 id="options">Options</h2><p>Each option has a default.</p>' +
        '<p>The worker reads its settings at start; see <a class="reference internal" href="#options"><span class="std std-ref">Options</span></a> for the full list, and equation <a class="reference internal" href="#equation-rate">(2)</a> for the rate.</p>',
    );
    expect(content).toContain('see [Options](https://example.org/docs/guide.html#options) for the full list');
    expect(content).toContain(
      'equation [(2)](https://example.org/docs/guide.html#equation-rate) for the rate',
    );
  });
});

describe('keepCrossReferences', () => {
  it('leaves a table of contents, footnote marks, a number that is no internal reference and a name that only holds the letters as they were', async () => {
    const document = await parseHtmlDocument(
      '<!doctype html><html><head></head><body>' +
        '<ul><li><a id="toc" class="reference internal" href="#a">Installing the worker</a></li></ul>' +
        '<p>A claim that needs a source<a id="fn" class="footnote-reference brackets" href="#n1">1</a> and more words here.</p>' +
        '<p>A figure that the text points to <a id="num" class="xref" href="#fig-3">3</a> among many other words.</p>' +
        '<p>Words around <a id="kept" class="reference internal current" href="#b">the reference</a> in a sentence of text.</p>' +
        '<p>Manage the site\'s cookies in <a id="prefs" class="cookie-preferences" href="#">Consent Preferences</a> at any time.</p></body></html>',
    );
    expect(keepCrossReferences(document)).toBe(1);
    expect(document.querySelector('#toc')?.getAttribute('class')).toBe('reference internal');
    expect(document.querySelector('#fn')?.getAttribute('class')).toBe('footnote-reference brackets');
    expect(document.querySelector('#num')?.getAttribute('class')).toBe('xref');
    expect(document.querySelector('#kept')?.getAttribute('class')).toBe('internal current');
    expect(document.querySelector('#prefs')?.getAttribute('class')).toBe('cookie-preferences');
  });
});
