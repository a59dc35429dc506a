import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { placeDelimitedFormulas } from './math-delimiters.js';
import { parseHtmlDocument } from './parse-html-document.js';

describe('extract: formulas left as TeX between MathJax delimiters', () => {
  it('writes Pandoc\'s and Quarto\'s inline and displayed sources as TeX between $ and $$ (failing before: escaped page text, "\\\\(E = mc^2\\\\)")', async () => {
    const content = await markdownOf(
      '<p>Energy <span class="math inline">\\(E = mc^2\\)</span> and the sum</p>' +
        '<p><span class="math display">\\[\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n\\]</span></p><p>for all <span class="math inline">\\(n \\ge 1\\)</span>.</p>',
    );
    expect(content).toContain('Energy $E = mc^2$ and the sum');
    expect(content).toContain('$$\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n$$');
    expect(content).toContain('for all $n \\ge 1$.');
    expect(content).not.toContain('\\\\(');
    expect(content).not.toContain('\\_');
  });

  it("writes Sphinx's numbered equation with its number as a tag, and arithmatex's sources", async () => {
    const content = await markdownOf(
      '<div class="math notranslate nohighlight" id="equation-loss"><span class="eqno">(1)<a class="headerlink" href="#equation-loss">¶</a></span>\\[L(\\theta) = \\sum_i (y_i - f(x_i))^2\\]</div>' +
        '<p>Inline <span class="arithmatex">$$a^2$$</span> and <span class="arithmatex">$b_1$</span>.</p>',
    );
    expect(content).toContain('$$\nL(\\theta) = \\sum_i (y_i - f(x_i))^2 \\tag{1}\n$$');
    expect(content).toContain('$$\na^2\n$$');
    expect(content).toContain('$b_1$');
    expect(content).not.toContain('¶');
  });
});

describe('placeDelimitedFormulas', () => {
  it('leaves an element whose class is not math, whose text is not one delimited source, or that holds elements', async () => {
    const document = await parseHtmlDocument(
      '<!doctype html><html><head></head><body><span class="price">$5$</span><span class="math">x + 1</span>' +
        '<span class="math">$10 and $20$</span><span class="math-note">\\(x\\)</span><div class="math"><span class="katex">\\(y\\)</span></div><span class="math">\\(\\)</span></body></html>',
    );
    placeDelimitedFormulas(document);
    expect(document.getElementsByTagName('math')).toHaveLength(0);
    expect(document.body?.textContent).toBe('$5$x + 1$10 and $20$\\(x\\)\\(y\\)\\(\\)');
  });
});
