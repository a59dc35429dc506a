import type TurndownService from 'turndown';
import { visibleChars } from './drawn-text.js';
import { escapeLinkLikeText } from './markdown-safety.js';

/** The annotation encodings that carry a formula's TeX source. */
const TEX_ENCODINGS = new Set(['application/x-tex', 'text/x-tex', 'tex', 'latex', 'application/x-latex']);

/**
 * Operators and identifiers written as TeX commands; any other glyph is kept as it is. The Greek
 * letters ε and φ as text writes them are TeX's `\varepsilon` and `\varphi`; its `\epsilon` and
 * `\phi` are the symbol forms ϵ and ϕ.
 */
const SYMBOLS: Record<string, string> = {
  '\u00b1': '\\pm',
  '\u00d7': '\\times',
  '\u00f7': '\\div',
  '\u2212': '-',
  '\u2217': '*',
  '\u22c5': '\\cdot',
  '\u2264': '\\leq',
  '\u2265': '\\geq',
  '\u2260': '\\neq',
  '\u2248': '\\approx',
  '\u2261': '\\equiv',
  '\u221e': '\\infty',
  '\u2192': '\\to',
  '\u21d2': '\\Rightarrow',
  '\u2208': '\\in',
  '\u2211': '\\sum',
  '\u220f': '\\prod',
  '\u222b': '\\int',
  '\u2202': '\\partial',
  '\u2207': '\\nabla',
  '\u03b1': '\\alpha',
  '\u03b2': '\\beta',
  '\u03b3': '\\gamma',
  '\u03b4': '\\delta',
  '\u03b5': '\\varepsilon',
  '\u03b6': '\\zeta',
  '\u03b7': '\\eta',
  '\u03b8': '\\theta',
  '\u03b9': '\\iota',
  '\u03ba': '\\kappa',
  '\u03bb': '\\lambda',
  '\u03bc': '\\mu',
  '\u03bd': '\\nu',
  '\u03be': '\\xi',
  '\u03c0': '\\pi',
  '\u03c1': '\\rho',
  '\u03c3': '\\sigma',
  '\u03c4': '\\tau',
  '\u03c5': '\\upsilon',
  '\u03c6': '\\varphi',
  '\u03c7': '\\chi',
  '\u03c8': '\\psi',
  '\u03c9': '\\omega',
  '\u03f5': '\\epsilon',
  '\u03d1': '\\vartheta',
  '\u03d5': '\\phi',
  '\u0393': '\\Gamma',
  '\u0394': '\\Delta',
  '\u0398': '\\Theta',
  '\u039b': '\\Lambda',
  '\u039e': '\\Xi',
  '\u03a0': '\\Pi',
  '\u03a3': '\\Sigma',
  '\u03a5': '\\Upsilon',
  '\u03a6': '\\Phi',
  '\u03a8': '\\Psi',
  '\u03a9': '\\Omega',
  '\u2061': '',
  '\u2062': '',
  '\u2063': '',
};

/** Accents written over a symbol (`<mover>`), as the TeX commands that put them there. */
const ACCENTS: Record<string, string> = {
  '\u00af': '\\bar',
  '\u203e': '\\overline',
  '^': '\\hat',
  '\u02c6': '\\hat',
  '~': '\\tilde',
  '\u02dc': '\\tilde',
  '\u2192': '\\vec',
  '\u02d9': '\\dot',
  '\u00a8': '\\ddot',
};

/**
 * The TeX of a `<math>` element: its TeX annotation or `alttext` when the page gives one (the
 * source the formula was written in), else rebuilt from its MathML elements.
 */
export function mathToLatex(math: Element): string {
  const given = math.getAttribute('data-latex') ?? texAnnotation(math) ?? math.getAttribute('alttext');
  if (given !== null && given.trim() !== '') return sourceTex(given);
  return children(math).map(toLatex).join(' ').replace(/\s+/g, ' ').trim();
}

/** A formula's TeX source as written: its whitespace runs as one space, without a style group around it. */
function sourceTex(tex: string): string {
  return withoutStyleGroup(tex.replace(/\s+/g, ' ').trim());
}

/** A TeX source that is one group setting its style: `{\displaystyle …}`, as MediaWiki writes each formula. */
const STYLE_GROUP = /^\{\s*\\(?:displaystyle|textstyle)\b\s*([\s\S]*)\}$/;

/**
 * `tex` without a group around it all that only sets its style (`{\displaystyle x^{2}}` is `x^{2}`):
 * the size a formula is drawn in, which the `$` or `$$` around it says already. A source whose first
 * brace closes before its end is not one group, and stays as it is.
 */
function withoutStyleGroup(tex: string): string {
  const inner = STYLE_GROUP.exec(tex)?.[1];
  if (inner === undefined) return tex;
  let depth = 0;
  for (let index = 0; index < inner.length; index++) {
    const char = inner[index];
    if (char === '\\') index++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth < 0) return tex;
  }
  return depth === 0 && inner.trim() !== '' ? inner.trim() : tex;
}

/**
 * Writes the TeX of each `<math>` element of `document` ({@link mathToLatex}) into its `data-latex`
 * attribute, before the extractors run: Defuddle keeps the attribute and takes it as the formula's
 * source, where its own reading drops `alttext` and flattens the structure to glyphs.
 */
export function markMathLatex(document: Document): void {
  const lists = new Set<Element>();
  for (const math of Array.from(document.getElementsByTagName('math'))) {
    const latex = mathToLatex(math);
    if (latex !== '') math.setAttribute('data-latex', latex);
    const list = math.closest('dd')?.parentElement;
    if (list?.localName === 'dl') lists.add(list);
  }
  for (const list of lists) if (isIndentedFormulas(list)) unindent(list);
}

/** The most characters a line of an indented formula holds besides the formula: its punctuation. */
const FORMULA_LINE_MAX_EXTRA = 2;

/**
 * Whether a `<dl>` is only formulas set apart on lines of their own: no term (`<dt>`), and each of
 * its `<dd>`s a formula with at most {@link FORMULA_LINE_MAX_EXTRA} more characters. MediaWiki
 * indents every displayed formula so (`:<math>…</math>`); it is no list of labels and values.
 */
function isIndentedFormulas(list: Element): boolean {
  for (const item of Array.from(list.children)) {
    if (item.localName !== 'dd') return false;
    const maths = Array.from(item.getElementsByTagName('math'));
    if (maths.length === 0) return false;
    const formula = maths.reduce((chars, math) => chars + visibleChars(math.textContent), 0);
    if (visibleChars(item.textContent) - formula > FORMULA_LINE_MAX_EXTRA) return false;
  }
  return true;
}

/**
 * Writes an indented list of formulas as a `<div>` per line, so that no stage reads it as a list
 * of labels and values: Defuddle drops such a short list near an article's start or end as the
 * post's metadata (date, reading time), formulas and all.
 */
function unindent(list: Element): void {
  const document = list.ownerDocument;
  const lines = Array.from(list.children).map((item) => {
    const line = document.createElement('div');
    line.append(...Array.from(item.childNodes));
    return line;
  });
  list.replaceWith(...lines);
}

/** Whether a `<math>` element is a displayed formula (`display="block"`) rather than one in a line. */
export function isDisplayMath(math: Element): boolean {
  return (
    (math.getAttribute('display') ?? '').toLowerCase() === 'block' || math.getAttribute('mode') === 'display'
  );
}

/** Writes each `<math>` element as TeX between `$` (in a line) or `$$` (displayed) signs. */
export function addMathRule(service: TurndownService): void {
  service.addRule('mathml', {
    filter: (node) => node.nodeName.toLowerCase() === 'math',
    replacement: (_content, node) => {
      const latex = safeLatex(mathToLatex(node as Element));
      if (latex === '') return '';
      return isDisplayMath(node as Element) ? `\n\n$$\n${latex}\n$$\n\n` : `$${latex}$`;
    },
  });
}

/**
 * A formula given as TeX source (`alttext`, a picture's alternative text) written in a line of
 * Markdown, between `$` signs: without a group that only sets its style, unable to spell a link.
 * Empty when the source is.
 */
export function inlineFormula(tex: string): string {
  const latex = safeLatex(sourceTex(tex));
  return latex === '' ? '' : `$${latex}$`;
}

/**
 * TeX from the page, made unable to spell a link or raw HTML for a reader that does not know math:
 * angle brackets become `\lt`/`\gt` (the same symbols in TeX); a space after `]` before `(`, `[` or
 * `:` (ignored in math mode) breaks inline links, reference links and link definitions, whose
 * destinations would undo a backslash escape; and the rest of link-like text is escaped.
 */
function safeLatex(latex: string): string {
  const unlinked = latex
    .replace(/</g, '\\lt ')
    .replace(/>/g, '\\gt ')
    .replace(/\]\s*(?=[([:])/g, '] ');
  return escapeLinkLikeText(unlinked);
}

function texAnnotation(math: Element): string | null {
  for (const annotation of Array.from(math.getElementsByTagName('annotation'))) {
    if (TEX_ENCODINGS.has((annotation.getAttribute('encoding') ?? '').toLowerCase()))
      return annotation.textContent;
  }
  return null;
}

function children(element: Element): Element[] {
  return Array.from(element.children);
}

/** An argument of a script or fraction: braced unless it is one character. */
function group(element: Element | undefined): string {
  const latex = element === undefined ? '' : toLatex(element).trim();
  return latex.length === 1 || /^\\[a-zA-Z]+$/.test(latex) ? latex : `{${latex}}`;
}

/** The trimmed TeX of an argument of a root, an over- or underscript; empty when the element is missing. */
function argument(element: Element | undefined): string {
  return element === undefined ? '' : toLatex(element).trim();
}

function token(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  // A command is followed by a space, so that a letter after it does not lengthen its name.
  return Array.from(trimmed)
    .map((glyph) => {
      const command = SYMBOLS[glyph];
      if (command === undefined) return glyph;
      return command.startsWith('\\') ? `${command} ` : command;
    })
    .join('');
}

/**
 * One row of a table (`mtr`), its cells (`mtd`) between `&`; a labelled row (`mlabeledtr`) leaves out
 * its first cell, the equation's number. Anything else in a table stands as a row of one cell.
 */
function tableRow(row: Element): string {
  const name = row.localName.toLowerCase();
  if (name !== 'mtr' && name !== 'mlabeledtr') return toLatex(row).trim();
  const cells = children(row).slice(name === 'mlabeledtr' ? 1 : 0);
  return cells.map((cell) => toLatex(cell).trim()).join(' & ');
}

/** The TeX of one MathML element; elements it does not know give their children's TeX. */
function toLatex(element: Element): string {
  const name = element.localName.toLowerCase();
  const [first, second, third] = children(element);
  switch (name) {
    case 'mi':
    case 'mn':
    case 'mo':
      return token(element.textContent ?? '');
    case 'mtext':
    case 'ms':
      return `\\text{${(element.textContent ?? '').replace(/[{}\\]/g, '')}}`;
    case 'mspace':
      return ' ';
    case 'msup':
      return `${group(first)}^${group(second)}`;
    case 'msub':
      return `${group(first)}_${group(second)}`;
    case 'msubsup':
      return `${group(first)}_${group(second)}^${group(third)}`;
    case 'mfrac':
      return `\\frac{${toLatex(first ?? element).trim()}}{${argument(second)}}`;
    case 'msqrt':
      return `\\sqrt{${children(element).map(toLatex).join('').trim()}}`;
    case 'mroot':
      return `\\sqrt[${argument(second)}]{${argument(first)}}`;
    case 'mover': {
      const accent = ACCENTS[(second?.textContent ?? '').trim()];
      if (accent !== undefined && first !== undefined) return `${accent}{${toLatex(first).trim()}}`;
      return `\\overset{${argument(second)}}{${argument(first)}}`;
    }
    case 'munder':
      return `\\underset{${argument(second)}}{${argument(first)}}`;
    case 'munderover':
      return `${group(first)}_${group(second)}^${group(third)}`;
    case 'mfenced': {
      const open = element.getAttribute('open') ?? '(';
      const close = element.getAttribute('close') ?? ')';
      return `\\left${open} ${children(element).map(toLatex).join(', ')} \\right${close}`;
    }
    case 'mtable':
      // Rows and columns, written as a matrix: a system of equations, a determinant between bars.
      return `\\begin{matrix}${children(element).map(tableRow).join(' \\\\ ')}\\end{matrix}`;
    case 'mtr':
    case 'mlabeledtr':
      return tableRow(element);
    case 'annotation':
    case 'annotation-xml':
      return '';
    case 'semantics':
      return first === undefined ? '' : toLatex(first);
    default:
      return children(element).length === 0
        ? token(element.textContent ?? '')
        : children(element).map(toLatex).join('');
  }
}
