import { describe, expect, it } from 'vitest';
import { extract } from './extract.js';
import { dropLayoutClasses } from './layout-classes.js';
import { parseHtmlDocument } from './parse-html-document.js';

const encoder = new TextEncoder();

/** `count` distinct words, so that no extractor folds them as repeats. */
function prose(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

describe('extract: class names that only say how a box lays out', () => {
  it('keeps the anchored headings of a post whose headings keep clear of a sticky bar', async () => {
    const heading = (id: string, text: string) =>
      `<h2 id="${id}" class="group scroll-mt-24">${text}<a href="#${id}" class="ml-2 opacity-0">#</a></h2>`;
    const html =
      '<!doctype html><html><head><title>Tuning the tide model</title>' +
      '<meta property="og:type" content="article"></head><body><main><article>' +
      '<h1>Tuning the tide model</h1>' +
      `<p>${prose(80, 'opening')}</p>` +
      heading('calibration', 'Calibrating the gauges') +
      `<p>${prose(80, 'calibrating')}</p>` +
      heading('harmonics', 'Fitting the harmonics') +
      `<div class="overflow-hidden rounded-md"><pre><code>fit --constituents M2 S2 K1 O1</code></pre></div>` +
      `<p>${prose(80, 'fitting')}</p>` +
      '</article></main></body></html>';
    const { content } = await extract({
      body: encoder.encode(html),
      url: 'https://blog.example.org/tide-model',
      contentType: 'text/html',
      format: 'markdown',
    });
    expect(content).toContain('## Calibrating the gauges');
    expect(content).toContain('## Fitting the harmonics');
    expect(content).toContain('fit --constituents M2 S2 K1 O1');
  });
});

describe('dropLayoutClasses', () => {
  it('drops scrolling, overflow and shared-style names and keeps every other name', async () => {
    const document = await parseHtmlDocument(
      '<html><body><h2 id="a" class="group Scroll-mt-24">A</h2><div id="b" class="box overflow-x-hidden">B</div>' +
        '<h3 id="c" class="anchorTargetHideOnScrollNavbar_qJOx">C</h3><div id="d" class="ContentSystem-shared-styles__Header-sc-1 x">D</div>' +
        '<div id="e" class="sharedaddy sd-sharing">E</div><a id="f" class="scroll-to-top" href="#top">top</a></body></html>',
    );
    dropLayoutClasses(document);
    const classOf = (id: string) => document.getElementById(id)?.getAttribute('class') ?? null;
    expect(classOf('a')).toBe('group');
    expect(classOf('b')).toBe('box');
    expect(classOf('c') ?? '').toBe('');
    expect(classOf('d')).toBe('x');
    expect(classOf('e')).toBe('sharedaddy sd-sharing');
    expect(classOf('f')).toBe('scroll-to-top');
  });
});
