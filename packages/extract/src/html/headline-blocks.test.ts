import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { shieldHeadlineBlocks } from './headline-blocks.js';
import { parseHtmlDocument } from './parse-html-document.js';

const intro =
  '<p>Each project file starts with the same few lines of front matter, which the weekly review reads to decide what needs a look.</p>';
const frontMatter =
  '<pre><code class="language-yaml">status: open\nreview-cycle: 7\nstart-date: 2026-01-15\ncomplete-date:</code></pre>';
const page = (afterHeadline: string) =>
  `<!doctype html><html><head><title>Weekly review</title><meta name="author" content="Jane Smith"></head><body><article><h1>Weekly review</h1>${afterHeadline}<p>The review cycle counts days since the last look at the project, and a project past its cycle goes to the top of the list.</p><p>Done projects keep their front matter, with the day they were completed, so that the yearly summary can count them.</p></article></body></html>`;

describe('extract: a short code block with a date right under the headline', () => {
  it('keeps the code block, which a byline rule took for the date line (failing before: it was dropped)', async () => {
    const document = await extract({
      body: page(`${intro}${frontMatter}`),
      url: 'https://example.org/review',
      contentType: 'text/html',
      format: 'markdown',
    });
    expect(document.content).toContain('start-date: 2026-01-15');
    expect(document.content).toContain('```yaml');
  });

  it('still drops the date line under the headline', async () => {
    const document = await extract({
      body: page(`<p class="meta">By Jane Smith, January 15, 2026</p>${intro}${frontMatter}`),
      url: 'https://example.org/review',
      contentType: 'text/html',
      format: 'markdown',
    });
    expect(document.content).toContain('start-date: 2026-01-15');
    expect(document.content).not.toContain('January 15, 2026');
  });
});

describe('shieldHeadlineBlocks', () => {
  it('sets empty elements before a code block among the three elements after an h1, and removes them again', async () => {
    const document = await parseHtmlDocument(
      `<!doctype html><html><body><h1>T</h1><p>a</p>${frontMatter}<h1>U</h1><p>b</p><p>c</p><p>d</p><pre>late</pre></body></html>`,
    );
    const before = document.body.innerHTML;
    const restore = shieldHeadlineBlocks(document);
    expect(document.querySelectorAll('[data-mono-agent-spacer]')).toHaveLength(3);
    expect(
      document.querySelector('pre')?.previousElementSibling?.hasAttribute('data-mono-agent-spacer'),
    ).toBe(true);
    restore();
    expect(document.body.innerHTML).toBe(before);
  });
});
