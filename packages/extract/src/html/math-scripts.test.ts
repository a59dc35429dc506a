import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

/** MathJax 2's output for the script `MathJax-Element-<n>` as a saved page keeps it: preview, drawn glyphs, MathML copy. */
const drawn = (n: number, glyphs: string, mathml: string, display = false) => {
  const frame = `<span class="MathJax" id="MathJax-Element-${n}-Frame" role="presentation"><nobr aria-hidden="true"><span class="math">${glyphs}</span></nobr><span class="MJX_Assistive_MathML" role="presentation"><math${display ? ' display="block"' : ''}>${mathml}</math></span></span>`;
  return `<span class="MathJax_Preview"></span>${display ? `<div class="MathJax_Display">${frame}</div>` : frame}`;
};

describe('extract: formulas kept as source in scripts (MathJax 2, kramdown)', () => {
  it('writes a math/tex script as $…$ in its sentence and a display one as $$…$$ (failing before: both vanished)', async () => {
    const content = await markdownOf(
      '<p>Trying <script type="math/tex">x = e^{st}</script> gives a quadratic in <script type="math/tex">s</script> whose roots decide it.</p>' +
        '<script type="math/tex; mode=display">\n  x(t) = (A + Bt)\\,e^{-\\omega_0 t}\n</script>',
    );
    expect(content).toContain('Trying $x = e^{st}$ gives a quadratic in $s$ whose roots decide it.');
    expect(content).toContain('$$\nx(t) = (A + Bt)\\,e^{-\\omega_0 t}\n$$');
  });

  it('writes a formula MathJax drew on a saved page once, from its source, without the drawing or its preview', async () => {
    const content = await markdownOf(
      `<p>The ratio ${drawn(1, '<span class="mi">ζ</span>', '<mi>ζ</mi>')}<script type="math/tex" id="MathJax-Element-1">\\zeta</script> sets the regime.</p>` +
        `${drawn(2, '<span class="mi">x</span><span class="mo">=</span><span class="mn">0</span>', '<mi>x</mi><mo>=</mo><mn>0</mn>', true)}<script type="math/tex; mode=display" id="MathJax-Element-2">x_{\\text{rest}} = 0</script>`,
    );
    expect(content).toContain('The ratio $\\zeta$ sets the regime.');
    expect(content).toContain('$$\nx_{\\text{rest}} = 0\n$$');
    expect(content.match(/\\zeta/g)).toHaveLength(1);
    expect(content).not.toContain('x = 0');
  });

  it('writes a math/mml script from its MathML, as displayed when its mode says so', async () => {
    const content = await markdownOf(
      '<p>The period <script type="math/mml"><math><msub><mi>T</mi><mi>d</mi></msub><mo>=</mo><mn>2</mn><mi>π</mi><mo>/</mo><msub><mi>ω</mi><mi>d</mi></msub></math></script> of a swing.</p>' +
        '<script type="math/mml; mode=display"><math><mi>φ</mi><mo>=</mo><mi>θ</mi></math></script>',
    );
    expect(content).toContain('The period $T_d = 2 \\pi / \\omega_d$ of a swing.');
    expect(content).toContain('$$\n\\varphi = \\theta\n$$');
  });

  it('leaves no trace of an empty formula, a MathML script that holds no formula, or the MathJax configuration', async () => {
    const content = await markdownOf(
      '<script type="text/x-mathjax-config">MathJax.Hub.Config({tex2jax: {inlineMath: [["$","$"]]}});</script>' +
        '<p>Before <script type="math/tex"> </script>and <script type="math/mml">not a formula</script>after.</p>',
    );
    expect(content).toContain('Before and after.');
    expect(content).not.toContain('$');
    expect(content).not.toContain('MathJax');
    expect(content).not.toContain('not a formula');
  });
});
