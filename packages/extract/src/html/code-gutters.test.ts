import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { dropLineNumbers } from './code-gutters.js';
import { parseHtmlDocument } from './parse-html-document.js';

const pygmentsLines =
  '<span class="kn">import</span> <span class="nn">csv</span>\n<span class="n">rows</span> <span class="o">=</span> <span class="nb">list</span><span class="p">(</span><span class="n">reader</span><span class="p">)</span>\n';
const gutter = (numbers: number[]) =>
  `<div class="linenodiv"><pre>${numbers.map((n) => `<span class="normal">${n}</span>`).join('\n')}</pre></div>`;

describe('extract: numbered code blocks', () => {
  it("reads a table of line numbers beside the code as the code (Pygments, Sphinx, MkDocs; failing before: only the numbers' column was kept)", async () => {
    const content = await markdownOf(
      `<div class="highlight"><table class="highlighttable"><tr><td class="linenos">${gutter([1, 2])}</td><td class="code"><div><pre><span></span>${pygmentsLines}</pre></div></td></tr></table></div>`,
    );
    expect(content).toContain('```\nimport csv\nrows = list(reader)\n```');
    expect(content).not.toMatch(/```\n1\n2\n```/);
  });

  it('leaves out numbers drawn at the start of each line inside the block (Pygments and Chroma inline)', async () => {
    const content = await markdownOf(
      '<div class="highlight"><pre><span></span><span class="linenos">1</span><span class="kn">import</span> csv\n<span class="linenos">2</span>rows = []\n</pre></div>' +
        '<pre><code><span class="line"><span class="ln">9</span><span class="cl">go build\n</span></span><span class="line"><span class="ln">10</span><span class="cl">go test\n</span></span></code></pre>',
    );
    expect(content).toContain('```\nimport csv\nrows = []\n```');
    expect(content).toContain('```\ngo build\ngo test\n```');
    expect(content).not.toMatch(/^(?:1|2|9|10)$/m);
  });

  it('writes a table of numbered rows inside a code block as its lines, one a row (highlight.js line numbers; failing before: a blank line between lines)', async () => {
    const row = (n: number, code: string) =>
      `<tr><td class="hljs-ln-line hljs-ln-numbers" data-line-number="${n}"><div class="hljs-ln-n" data-line-number="${n}"></div></td><td class="hljs-ln-line hljs-ln-code" data-line-number="${n}">${code}</td></tr>`;
    const content = await markdownOf(
      `<pre><code class="hljs language-js"><table class="hljs-ln"><tbody>${row(1, 'const a = 1;')}${row(2, '')}${row(3, 'const b = 2;')}${row(4, 'export { a, b };')}</tbody></table></code></pre>`,
    );
    expect(content).toContain('```js\nconst a = 1;\n\nconst b = 2;\nexport { a, b };\n```');
  });
});

describe('extract: numbered code drawn without a <pre>', () => {
  it("writes SyntaxHighlighter's table of line elements as a block of its lines, spaces kept (failing before: 'echo$a;')", async () => {
    const line = (n: number, inner: string) =>
      `<div class="line number${n} index${n - 1} alt${(n % 2) + 1}">${inner}</div>`;
    const content = await markdownOf(
      `<div id="highlighter_1" class="syntaxhighlighter php"><table border="0" cellpadding="0" cellspacing="0"><tbody><tr><td class="gutter">${line(1, '1')}${line(2, '2')}${line(3, '3')}</td><td class="code"><div class="container">${line(1, '<code class="php keyword">if</code> <code class="php plain">(</code><code class="php variable">$a</code><code class="php plain">) {</code>')}${line(2, '<code class="php spaces">&nbsp;&nbsp;&nbsp;&nbsp;</code><code class="php keyword">echo</code> <code class="php variable">$a</code><code class="php plain">;</code>')}${line(3, '<code class="php plain">}</code>')}</div></td></tr></tbody></table></div>`,
    );
    expect(content).toContain('```php\nif ($a) {\n    echo $a;\n}\n```');
  });
});

describe('dropLineNumbers', () => {
  const documentOf = (html: string) =>
    parseHtmlDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);

  it('leaves a table whose numbers are not one per line of the code, or not ascending, as it is', async () => {
    const document = await documentOf(
      `<table id="a"><tr><td>1</td><td><pre>one line</pre></td></tr></table>` +
        `<table id="b"><tr><td>${gutter([1, 2, 3])}</td><td><pre>${pygmentsLines}</pre></td></tr></table>` +
        `<table id="c"><tr><td>3 1</td><td><pre>a\nb</pre></td></tr></table>` +
        `<table id="d"><tr><td>1</td><td><pre>a</pre></td></tr><tr><td>2</td><td><pre>b</pre></td></tr></table>`,
    );
    dropLineNumbers(document);
    expect(document.querySelector('#a')).toBeNull();
    for (const id of ['b', 'c', 'd']) expect(document.querySelector(`#${id}`)).not.toBeNull();
  });

  it('keeps a number inside a block unless an element named as a line number holds only it', async () => {
    const document = await documentOf(
      '<pre><span class="mi">42</span> <span class="linenos">7 items</span><span class="lineno">3</span>x</pre>',
    );
    dropLineNumbers(document);
    expect(document.querySelector('pre')?.textContent).toBe('42 7 itemsx');
  });

  it('leaves a table inside a block whose first cells hold more than a number, or are blank without naming a line number', async () => {
    const document = await documentOf(
      '<pre><table id="a"><tr><td>key</td><td>value</td></tr></table></pre>' +
        '<pre><table id="b"><tr><td>&nbsp;</td><td>1. Heat</td></tr><tr><td> </td><td>2. Final</td></tr></table></pre>' +
        '<pre><table id="c"><tr><td class="gutter"></td><td>make</td></tr><tr><td data-line-number="2"></td><td>make test</td></tr></table></pre>',
    );
    dropLineNumbers(document);
    expect(document.querySelector('#a')).not.toBeNull();
    expect(document.querySelector('#b')).not.toBeNull();
    expect(document.querySelector('#c')).toBeNull();
    expect(document.querySelectorAll('pre')[2]?.textContent).toBe('make\nmake test\n');
  });
});
