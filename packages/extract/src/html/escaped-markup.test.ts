import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';

const url = 'https://example.org/news/tide.html';
const story = [1, 2, 3]
  .map(
    (n) =>
      `<p>Paragraph ${n} tells how the spring tide came over the harbour wall and what the town did about the flooded cellars afterwards.</p>`,
  )
  .join('');
const page = (inner: string) =>
  `<!doctype html><html><head><title>The tide</title></head><body><article><h1>The tide</h1>${story}${inner}</article></body></html>`;
const markdown = async (inner: string, format: 'markdown' | 'text' = 'markdown') =>
  (await extract({ body: page(inner), url, contentType: 'text/html', format })).content;

describe('extract: markup a page escaped as text', () => {
  it('reads an element whose text is escaped markup as that markup, not as literal tags (failing before)', async () => {
    const content = await markdown(
      '<div class="post-body">&lt;p&gt;The harbour master closed the gates at noon.&lt;/p&gt;&lt;p&gt;Boats waited &lt;strong&gt;outside&lt;/strong&gt; until &lt;a href="/ebb"&gt;the ebb&lt;/a&gt;.&lt;/p&gt;</div>' +
        '<p>&#60;p&#62;An excerpt escaped with numeric references.&#60;/p&#62;</p>',
    );
    expect(content).toContain(
      'The harbour master closed the gates at noon.\n\nBoats waited **outside** until [the ebb](https://example.org/ebb).',
    );
    expect(content).toContain('An excerpt escaped with numeric references.');
    expect(content).not.toMatch(/\\?<\/?(?:p|strong|a)\b/);
  });

  it("keeps only the words of a picture's alt text that holds markup (failing before)", async () => {
    const content = await markdown(
      '<figure><img src="/wall.jpg" alt="The wall at high water&lt;br&gt;&lt;small&gt;Photo by &lt;a href=&quot;/ann&quot;&gt;Ann Lee&lt;/a&gt;&lt;/small&gt;"></figure>' +
        '<p><img src="/gate.jpg" alt="<span style=\'font-size:13px\'>The north gate</span>"></p>',
    );
    expect(content).toContain('![The wall at high water Photo by Ann Lee]');
    expect(content).toContain('![The north gate]');
    expect(content).not.toMatch(/\\?<\/?(?:br|small|a|span)\b/);
  });

  it('leaves prose and headings about tags, code and an alt text with a type parameter as written', async () => {
    const content = await markdown(
      '<h2>&lt;ul&gt; lists of &lt;img&gt;</h2><p>This could be "image" if the request is from an &lt;img&gt; tag.</p>' +
        '<p><code>&lt;p&gt;Hello&lt;/p&gt;</code> writes a paragraph.</p><pre><code>&lt;div&gt;&lt;/div&gt;\n</code></pre>' +
        '<p><img src="/list.png" alt="A List<String> of names"></p>',
    );
    expect(content).toContain('## \\<ul> lists of \\<img>');
    expect(content).toContain('from an \\<img> tag.');
    expect(content).toContain('`<p>Hello</p>` writes a paragraph.');
    expect(content).toContain('```\n<div></div>\n```');
    expect(content).toContain('![A List\\<String> of names]');
  });
});
