import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const markdownOf = (html: string) => htmlToMarkdown(html, 'https://example.org/notes/');

describe('htmlToMarkdown: footnotes as Markdown footnotes', () => {
  it('writes marks as [^name] and the notes as definitions, without their back links (failing before: links to the page and arrows)', async () => {
    const markdown = await markdownOf(
      '<p>The deck was widened.<sup id="fnref:1"><a href="#fn:1">1</a></sup> The rails were not.<sup id="fnref:rails"><a href="#fn:rails">2</a></sup></p>' +
        '<div id="footnotes"><ol><li id="fn:1"><p>Council minutes, 2019. <a class="footnote-backref" href="#fnref:1">↩</a></p></li>' +
        '<li id="fn:rails"><p>See the <a href="https://example.org/rails">rail survey</a>.</p><p>It lists every post.<a href="#fnref:rails">↩</a></p></li></ol></div>',
    );
    expect(markdown).toBe(
      'The deck was widened.[^1] The rails were not.[^rails]\n\n' +
        '[^1]: Council minutes, 2019.\n\n' +
        '[^rails]: See the [rail survey](https://example.org/rails).\n\n    It lists every post.',
    );
  });

  it('leaves a link to another part of the page, and a note name that could spell Markdown, as links', async () => {
    const markdown = await markdownOf(
      '<p>See <sup><a href="#section-2">above</a></sup> and<sup><a href="#fn:a]b">3</a></sup>.</p><ol><li id="fn:a]b">Odd.</li></ol>',
    );
    expect(markdown).toContain('[above](https://example.org/notes/#section-2)');
    expect(markdown).toContain('[3](https://example.org/notes/#fn:a');
    expect(markdown).toContain('1. Odd.');
    expect(markdown).not.toContain('[^');
  });
});

describe('extract: a page whose footnotes Defuddle recognises', () => {
  it('gives Markdown footnotes through the whole extraction', async () => {
    const paragraph = (n: number) =>
      `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;
    const { content } = await extract({
      body: `<!doctype html><html><head><title>Bridge</title></head><body><article><h1>The bridge</h1>${[1, 2, 3].map(paragraph).join('')}<p>The deck was widened.<sup id="fnref1"><a href="#fn1">1</a></sup></p>${[4, 5].map(paragraph).join('')}<ol class="footnotes"><li id="fn1">Council minutes, 2019. <a href="#fnref1">↩</a></li></ol></article></body></html>`,
      url: 'https://example.org/bridge.html',
      contentType: 'text/html',
    });
    expect(content).toContain('The deck was widened.[^1]');
    expect(content).toContain('[^1]: Council minutes, 2019.');
    expect(content).not.toContain('↩');
  });
});
