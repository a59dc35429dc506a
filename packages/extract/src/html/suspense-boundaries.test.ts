import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { parseHtmlDocument } from './parse-html-document.js';
import { resolveStreamedParts } from './suspense-boundaries.js';

const url = 'https://docs.example.dev/guide/install';
const encoder = new TextEncoder();

/** `count` distinct words, so that no extractor folds them as repeats. */
function prose(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}

/**
 * A guide as React's streaming renderer sends it: the code blocks were not ready when the first piece
 * went out, so each stands as a placeholder with a skeleton, and comes at the end of the body in a
 * hidden element with the script that moves it.
 */
function streamedGuide(head = ''): string {
  return (
    `<!doctype html><html><head><title>Install the CLI</title>${head}</head><body><main><article>` +
    '<h1>Install the CLI</h1>' +
    `<p>Install the command line tool with your package manager. ${prose(60, 'intro')}</p>` +
    '<!--$?--><template id="B:0"></template><div class="skeleton">Loading code sample</div><!--/$-->' +
    `<p>Then check which version you have. ${prose(60, 'middle')}</p>` +
    '<!--$?--><template id="B:1"></template><div class="skeleton">Loading code sample</div><!--/$-->' +
    `<p>Both commands print nothing else. ${prose(60, 'outro')}</p>` +
    '</article></main>' +
    '<div hidden id="S:0"><pre><code class="language-sh">npm install --global tidectl</code></pre></div>' +
    '<script>$RC=function(b,c){/* moves c into b */};$RC("B:0","S:0")</script>' +
    '<div hidden id="S:1"><pre><code class="language-sh">tidectl --version</code></pre></div>' +
    '<script>$RC("B:1","S:1")</script>' +
    '</body></html>'
  );
}

async function extractPage(html: string) {
  return extract({ body: encoder.encode(html), url, contentType: 'text/html', format: 'markdown' });
}

describe('extract: parts a React page streams in', () => {
  it('puts each streamed code block where its placeholder stood, without the skeleton', async () => {
    const { content } = await extractPage(streamedGuide());
    const install = content.indexOf('npm install --global tidectl');
    const version = content.indexOf('tidectl --version');
    expect(install).toBeGreaterThan(content.indexOf('Install the command line tool'));
    expect(install).toBeLessThan(content.indexOf('Then check which version'));
    expect(version).toBeGreaterThan(content.indexOf('Then check which version'));
    expect(version).toBeLessThan(content.indexOf('Both commands print nothing else'));
    expect(content).toContain('```sh');
    expect(content).not.toContain('Loading code sample');
  });

  it('does the same on a copy of the page saved without its scripts and comments', async () => {
    const saved = streamedGuide().replace(/<script>.*?<\/script>|<!--.*?-->/g, '');
    const { content } = await extractPage(saved);
    const install = content.indexOf('npm install --global tidectl');
    expect(install).toBeGreaterThan(content.indexOf('Install the command line tool'));
    expect(install).toBeLessThan(content.indexOf('Then check which version'));
    expect(content.indexOf('tidectl --version')).toBeGreaterThan(content.indexOf('Then check which version'));
  });

  it('does the same on a page that declares itself an article', async () => {
    const { content } = await extractPage(streamedGuide('<meta property="og:type" content="article">'));
    expect(content).toContain('npm install --global tidectl');
    expect(content).toContain('tidectl --version');
    expect(content).not.toContain('Loading code sample');
  });
});

describe('resolveStreamedParts', () => {
  it('moves parts in the order the scripts call, a part holding a later placeholder, and segments', async () => {
    const document = await parseHtmlDocument(
      '<html><body><div id="page"><!--$?--><template id="B:0"></template><p>skeleton</p><!--/$--></div>' +
        '<div hidden id="S:0"><p>outer part</p><!--$?--><template id="B:1"></template><!--$--><p>nested fallback</p><!--/$--><p>inner skeleton</p><!--/$--></div>' +
        '<script>$RC("B:0","S:0")</script>' +
        '<div hidden id="S:1"><p>inner part</p><template id="P:2"></template></div>' +
        '<script>$RC("B:1","S:1");</script>' +
        '<div hidden id="S:2"><p>segment</p></div><script>$RS("S:2","P:2")</script></body></html>',
    );
    expect(resolveStreamedParts(document)).toBe(3);
    const page = document.getElementById('page');
    expect(page?.textContent).toBe('outer partinner partsegment');
    expect(document.querySelectorAll('[hidden], template')).toHaveLength(0);
  });

  it('leaves a part in place when its placeholder, its content or the closing comment is missing', async () => {
    const html =
      '<html><body><div id="page"><template id="B:0"></template><p>fallback without its closing comment</p></div>' +
      '<div hidden id="S:0"><p>part</p></div><div hidden id="S:1"><p>orphan</p></div>' +
      '<script>$RC("B:0","S:0");$RC("B:9","S:1");$RC("B:0","S:7")</script></body></html>';
    const document = await parseHtmlDocument(html);
    expect(resolveStreamedParts(document)).toBe(0);
    expect(document.getElementById('page')?.textContent).toBe('fallback without its closing comment');
    expect(document.getElementById('S:0')?.textContent).toBe('part');
    expect(document.getElementById('S:1')?.textContent).toBe('orphan');
  });

  it('moves the parts of a copy saved without scripts into the placeholders numbered alike', async () => {
    // Archived copies lose the scripts and, often, the comments that close each fallback.
    const document = await parseHtmlDocument(
      '<html><body><div id="page"><template id="B:0"></template><div class="skeleton"></div>' +
        '<p>between</p><template id="B:1"></template></div>' +
        '<div hidden id="S:1"><p>second</p></div>' +
        '<div hidden id="S:0"><p>first</p><div><template id="P:2"></template></div></div>' +
        '<div hidden id="S:2"><p>segment</p></div><div hidden id="S:7"><p>unplaced</p></div></body></html>',
    );
    expect(resolveStreamedParts(document)).toBe(3);
    expect(document.getElementById('page')?.textContent).toBe('firstsegmentbetweensecond');
    expect(document.getElementById('S:7')?.textContent).toBe('unplaced');
  });

  it('pairs parts by number only when the page carries no script that places them', async () => {
    const document = await parseHtmlDocument(
      '<html><body><div id="page"><template id="B:0"></template><!--/$--><template id="B:1"></template></div>' +
        '<div hidden id="S:0"><p>scripted</p></div><div hidden id="S:1"><p>unscripted</p></div>' +
        '<script>$RC("B:0","S:0")</script></body></html>',
    );
    expect(resolveStreamedParts(document)).toBe(1);
    expect(document.getElementById('S:1')?.textContent).toBe('unscripted');
  });

  it('never moves a part into itself', async () => {
    const document = await parseHtmlDocument(
      '<html><body><div hidden id="S:0"><p>part</p><template id="B:0"></template><!--/$--></div>' +
        '<script>$RC("B:0","S:0")</script></body></html>',
    );
    expect(resolveStreamedParts(document)).toBe(0);
    expect(document.getElementById('S:0')?.textContent).toBe('part');
  });
});
