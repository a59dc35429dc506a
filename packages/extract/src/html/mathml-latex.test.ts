import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { markMathLatex } from './mathml-latex.js';
import { parseHtmlDocument } from './parse-html-document.js';

describe('extract: MathML as TeX', () => {
  it('writes a formula from its structure between $ signs', async () => {
    const content = await markdownOf(
      '<p>The unit circle is <math><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><msup><mi>y</mi><mn>2</mn></msup><mo>=</mo><mn>1</mn></math> in the plane.</p>' +
        '<p>Roots: <math><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><mi>Δ</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math> and <math><mroot><mi>x</mi><mn>3</mn></mroot></math>, <math><msubsup><mi>a</mi><mi>i</mi><mn>2</mn></msubsup></math>.</p>',
    );
    expect(content).toContain('$x^2 + y^2 = 1$');
    expect(content).toContain('$\\frac{-b\\pm \\sqrt{\\Delta}}{2a}$');
    expect(content).toContain('$\\sqrt[3]{x}$');
    expect(content).toContain('$a_i^2$');
    expect(content).not.toContain('x 2 + y 2');
  });

  it('writes a displayed formula between $$ signs from its TeX annotation or alttext', async () => {
    const content = await markdownOf(
      '<math display="block"><semantics><mfrac><mi>a</mi><mi>b</mi></mfrac><annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math>' +
        '<p>Also <math alttext="e^{i\\pi} + 1 = 0"><mi>e</mi></math> holds.</p>',
    );
    expect(content).toContain('$$\n\\frac{a}{b}\n$$');
    expect(content).toContain('$e^{i\\pi} + 1 = 0$');
    expect(content).not.toContain('\\\\frac');
  });
});

describe('extract: MediaWiki formulas', () => {
  it('reads a formula its page hides beside a picture of it, once, as TeX without the style group around it (failing before: the formula was lost)', async () => {
    const formula = (tex: string, display: boolean) =>
      `<span class="mwe-math-element"><span class="mwe-math-mathml-${display ? 'display' : 'inline'} mwe-math-mathml-a11y" style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML"${display ? ' display="block"' : ''} alttext="${tex}"><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span><img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/0a1b" class="mwe-math-fallback-image-${display ? 'display' : 'inline'} mw-invert skin-invert" aria-hidden="true" style="vertical-align: -0.5ex; width:9ex; height:2.5ex;" alt="${tex}"></span>`;
    const content = await markdownOf(
      `<p>Given a set of ${formula('{\\displaystyle N}', false)} points ${formula('{\\displaystyle \\mathbf {x} _{1},\\dots ,\\mathbf {x} _{N}}', false)}, the similarity is</p>` +
        `<dl><dd>${formula('{\\displaystyle p_{ij}={\\frac {p_{j\\mid i}+p_{i\\mid j}}{2N}}}', true)}</dd></dl><p>for every pair.</p>`,
    );
    expect(content).toContain(
      'Given a set of $N$ points $\\mathbf {x} _{1},\\dots ,\\mathbf {x} _{N}$, the similarity is',
    );
    expect(content).toContain('$$\np_{ij}={\\frac {p_{j\\mid i}+p_{i\\mid j}}{2N}}\n$$');
    expect(content.match(/p_\{ij\}=/g)).toHaveLength(1);
    expect(content).not.toContain('displaystyle');
  });

  it('sets an indented formula on a line of its own, where a list of labels and values with a formula stays a list', async () => {
    const document = await parseHtmlDocument(
      '<!doctype html><html><head></head><body><dl id="a"><dd><math alttext="E=mc^{2}"><mi>E</mi></math>,</dd></dl>' +
        '<dl id="b"><dt>Energy</dt><dd><math alttext="E"><mi>E</mi></math></dd></dl><dl id="c"><dd><math><mi>E</mi></math> is energy</dd></dl></body></html>',
    );
    markMathLatex(document);
    expect(document.querySelector('#a')).toBeNull();
    const line = document.body?.firstElementChild;
    expect(line?.localName).toBe('div');
    expect(line?.textContent).toBe('E,');
    expect(line?.querySelector('math')?.getAttribute('data-latex')).toBe('E=mc^{2}');
    expect(document.querySelector('#b')).not.toBeNull();
    expect(document.querySelector('#c')).not.toBeNull();
  });

  it('keeps a source whose first group closes before its end as written', async () => {
    const content = await markdownOf(
      '<p>Pair <math alttext="{\\displaystyle a}{b}"><mi>a</mi></math> and <math alttext="{\\textstyle {1 \\over 2}}"><mn>1</mn></math>.</p>',
    );
    const [first, second] = ['{\\displaystyle a}{b}', '{1 \\over 2}'].map((tex) => `$${tex}$`);
    expect(content).toContain(`Pair ${first} and ${second}.`);
  });
});

describe('extract: MathML tables', () => {
  it('writes a table of rows and cells as a matrix, a labelled row without its label (failing before: rows ran together)', async () => {
    const content = await markdownOf(
      '<math display="block"><mtable><mtr><mtd><mover><mi>x</mi><mo>˙</mo></mover><mo>=</mo><mi>σ</mi><mi>y</mi></mtd></mtr><mtr><mtd><mover><mi>y</mi><mo>˙</mo></mover><mo>=</mo><mi>ρ</mi><mi>x</mi></mtd></mtr></mtable></math>' +
        '<p>and the determinant <math><mrow><mo>|</mo><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mlabeledtr><mtd><mtext>(2)</mtext></mtd><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mlabeledtr></mtable><mo>|</mo></mrow></math> of it.</p>',
    );
    expect(content).toContain('\\begin{matrix}\\dot{x}=\\sigma y \\\\ \\dot{y}=\\rho x\\end{matrix}');
    expect(content).toContain('$|\\begin{matrix}a & b \\\\ c & d\\end{matrix}|$');
    expect(content).not.toContain('(2)');
  });
});

describe('extract: MathML limits and accents', () => {
  it('writes a big operator with limits, text and an accent as TeX commands', async () => {
    const content = await markdownOf(
      '<math display="block"><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>x</mi><mi>i</mi></msub><mtext> for all </mtext><mover><mi>x</mi><mo>¯</mo></mover></math>',
    );
    expect(content).toContain('$$\n\\sum_{i=1}^n x_i \\text{ for all } \\bar{x}\n$$');
  });
});

describe('extract: TeX from the page cannot spell a link', () => {
  it('writes angle brackets as \\lt and \\gt and escapes script schemes inside a formula', async () => {
    const content = await markdownOf(
      '<p>Compare <math alttext="a<b [x](javascript:alert(1)) <javascript:alert(2)>"><mi>a</mi></math> here.</p>' +
        '<math display="block" alttext="[r]: javascript:alert(3)"><mi>r</mi></math>' +
        '<p>And <math><mi>x</mi><mo>&lt;</mo><mi>y</mi></math> too.</p>',
    );
    expect(content).not.toMatch(/\]\(/);
    expect(content).not.toMatch(/^\[r\]:/m);
    expect(content).not.toMatch(/<javascript/i);
    expect(content).toMatch(/\$x\s*\\lt\s+y\$/);
  });
});
