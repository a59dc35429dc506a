import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

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
