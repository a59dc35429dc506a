import { texFormula } from './math-scripts.js';

// Pandoc, Quarto, R Markdown, Sphinx, Jupyter Book and MkDocs' arithmatex leave each formula as its
// TeX source between MathJax's delimiters, in an element of its own named for it:
// `<span class="math inline">\(E = mc^2\)</span>`, `<div class="math notranslate nohighlight">\[…\]</div>`.
// MathJax replaces the source when the page's scripts run; read without them, the source was page
// text, and the Markdown escapes made it worse (`\\(E = mc^2\\)`, `\sum\_{i=1}`). Each such element
// becomes a formula here, the form `mathml-latex.ts` writes as `$…$` or `$$…$$`.

/** An element whose class says it holds a formula's source, without which a page has none. */
export const DELIMITED_MATH_MARKUP = /\bclass\s*=\s*["']?(?:[^"'>]*\s)?(?:math|arithmatex)[\s"'>]/i;

/**
 * A formula's source between delimiters: `\(…\)` and `$…$` in a line, `\[…\]` and `$$…$$` displayed.
 * A `$…$` source holds no other `$`.
 */
const DELIMITED = [
  { pattern: /^\\\(([\s\S]*)\\\)$/, display: false },
  { pattern: /^\\\[([\s\S]*)\\\]$/, display: true },
  { pattern: /^\$\$([\s\S]*)\$\$$/, display: true },
  { pattern: /^\$([^$]*)\$$/, display: false },
];

/** A displayed formula's number as Sphinx writes it beside the source: `(1)`. */
const EQUATION_NUMBER = /^\(\s*([\w.-]{1,12})\s*\)$/;

/**
 * Replaces each element of `document` whose class is `math` or `arithmatex` and whose text is one
 * formula between MathJax's delimiters ({@link DELIMITED}) with a `<math>` holding that source as
 * its TeX annotation, displayed for `\[…\]` and `$$…$$`. Sphinx's equation number beside a displayed
 * source (`<span class="eqno">(1)…</span>`) becomes the formula's `\tag{1}`. An element holding
 * other elements (besides the number), or text that is not one delimited source, stays as written.
 */
export function placeDelimitedFormulas(document: Document): void {
  const body = document.body;
  if (body === null) return;
  for (const element of Array.from(body.querySelectorAll('.math, .arithmatex'))) {
    if (element.parentNode === null) continue;
    const number = Array.from(element.children).find((child) => child.classList.contains('eqno'));
    if (Array.from(element.children).some((child) => child !== number && child.localName !== 'br')) continue;
    const source = Array.from(element.childNodes)
      .filter((node) => node !== number)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    const found = DELIMITED.map(({ pattern, display }) => ({ tex: pattern.exec(source)?.[1], display })).find(
      ({ tex }) => tex !== undefined && tex.trim() !== '',
    );
    if (found?.tex === undefined) continue;
    const tag = EQUATION_NUMBER.exec((number?.firstChild?.textContent ?? '').trim())?.[1];
    const tex = tag === undefined || !found.display ? found.tex.trim() : `${found.tex.trim()} \\tag{${tag}}`;
    const math = texFormula(document, tex, found.display);
    if (math === undefined) continue;
    // A reference to the equation (`href="#equation-loss"`) still finds it.
    if (element.id !== '') math.id = element.id;
    element.replaceWith(math);
  }
}
