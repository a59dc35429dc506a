import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { keepCodeLines } from './code-lines.js';
import { parseHtmlDocument } from './parse-html-document.js';

const STEP = 'code-step bg-opacity-10 relative rounded px-1';
const line = (inner: string) => `<div class="cm-line">${inner}<br></div>`;

describe('extract: code drawn one element per line', () => {
  it('keeps a whole line whose highlighted token is named as code (a `code-step`)', async () => {
    const content = await markdownOf(
      `<pre><code>${line('<span class="tok-kw">function</span> handleClick() {')}${line(
        `  setAge(<span class="${STEP}">a</span> =&gt; <span class="${STEP}">a + 1</span>); <span class="tok-comment">// 42 =&gt; 43</span>`,
      )}${line('}')}</code></pre>`,
    );
    expect(content).toContain('```\nfunction handleClick() {\n  setAge(a => a + 1); // 42 => 43\n}\n```');
  });

  it('keeps a line whose tokens are named by a stylesheet module (`code-diff_keyword__x1`)', async () => {
    const content = await markdownOf(
      `<pre>${['import React from "react"', 'export default App'].map((text) => `<div class="diff-line"><span class="code-diff_keyword__x1">${text.split(' ')[0]}</span> ${text.split(' ').slice(1).join(' ')}</div>`).join('')}</pre>`,
    );
    expect(content).toContain('import React from "react"\nexport default App');
  });

  it('still reads the code column of a numbered line, without its number', async () => {
    const content = await markdownOf(
      `<pre>${['x = 1', 'y = x + 1']
        .map(
          (code, index) =>
            `<div class="line"><span class="line-number">${index + 1}</span><span class="code-content">${code}</span></div>`,
        )
        .join('')}</pre>`,
    );
    expect(content).toContain('```\nx = 1\ny = x + 1\n```');
  });

  it('keeps the line breaks of lines drawn as plain <div>s, without a newline between them', async () => {
    const content = await markdownOf(
      `<pre><code>${['{', '  "id": "ch_3Mml",', '  "amount": 1099', '}'].map((text) => `<div class="x9 as-8b"><span>${text}</span></div>`).join('')}</code></pre>`,
    );
    expect(content).toContain('```\n{\n  "id": "ch_3Mml",\n  "amount": 1099\n}\n```');
  });

  it('adds no blank line to lines that already end in a break or are followed by one', async () => {
    const content = await markdownOf(
      `<pre><code><div>make all<br></div><div>make test<br></div></code></pre>` +
        `<pre><code><p>cd site</p>\n<p>npm start</p>\n</code></pre>` +
        `<pre><span class="token-line">let x = 1;</span><span class="token-line">let y = 2;</span></pre>` +
        `<pre><div><span>1</span><span>alpha()</span></div><div><span>2</span><span>beta()</span></div></pre>`,
    );
    expect(content).toContain('```\nmake all\nmake test\n```');
    expect(content).toContain('```\ncd site\nnpm start\n```');
    expect(content).toContain('```\nlet x = 1;\nlet y = 2;\n```');
    expect(content).toContain('```\nalpha()\nbeta()\n```');
  });
});

describe('keepCodeLines', () => {
  it('takes only the code names off the tokens of a line they hold part of, and leaves whole code columns named', async () => {
    const document = await parseHtmlDocument(
      '<body><pre><div class="cm-line">  f(<span class="code-step blue">a</span>)</div>' +
        '<div class="line"><span class="gutter">1</span><span class="code">g()</span></div></pre>' +
        '<div class="cm-line"><span class="code-step">outside</span> any block</div></body>',
    );
    keepCodeLines(document);
    const spans = Array.from(document.querySelectorAll('span'));
    expect(spans.map((span) => span.getAttribute('class'))).toEqual(['blue', 'gutter', 'code', 'code-step']);
  });

  it('writes a newline after each plain block line that has none, and nowhere else', async () => {
    const document = await parseHtmlDocument(
      '<body><pre><div><div>a</div><div>b<br></div><div>c</div>\n<div> </div><div>d</div></div></pre><div>e</div><div>f</div></body>',
    );
    keepCodeLines(document);
    expect(document.querySelector('pre')?.textContent).toBe('a\nbc\n \nd\n');
    expect(document.body.lastElementChild?.previousSibling?.textContent).toBe('e');
  });
});
