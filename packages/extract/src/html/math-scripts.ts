/**
 * Formulas a page keeps as source in a `<script>`: MathJax 2 reads `<script type="math/tex">` (and
 * `math/tex; mode=display` for a displayed formula), which Markdown converters such as kramdown
 * write for every `$…$` of a post, and `<script type="math/mml">` holding MathML. Scripts never
 * reach the answer, so without this each formula would vanish from its sentence.
 */

/** A script that holds a formula's source, without which a page has nothing for {@link placeMathScripts}. */
export const MATH_SCRIPT_MARKUP = /<script\b[^>]*\btype\s*=\s*["']?math\/(?:tex|mml)\b/i;

/** The script types, and the mode that marks a displayed formula. */
const TEX_TYPE = /^\s*math\/tex\s*(?:;|$)/i;
const MML_TYPE = /^\s*math\/mml\s*(?:;|$)/i;
const DISPLAY_MODE = /;\s*mode\s*=\s*display\b/i;

/**
 * The class names of MathJax 2's output beside a source script: the formula drawn (in each of its
 * output modes), the block that holds a displayed one, and the preview shown until it is drawn.
 */
const RENDERED_DISPLAY = /\b(?:MathJax_Display|MathJax_SVG_Display|MJXc-display)\b/;
const PREVIEW = /\bMathJax_Preview\b/;

/**
 * Puts a `<math>` element in the place of each formula script of `document`: TeX becomes the TeX
 * annotation of an otherwise empty formula (the form `mathml-latex.ts` writes as `$…$` or `$$…$$`),
 * MathML its own `<math>` element. What MathJax drew from the script on a saved page (the formula
 * as glyphs, its copy for screen readers, the preview) goes, so that a formula is written once.
 */
export function placeMathScripts(document: Document): void {
  for (const script of Array.from(document.getElementsByTagName('script'))) {
    const type = script.getAttribute('type') ?? '';
    const display = DISPLAY_MODE.test(type);
    const source = script.textContent ?? '';
    let math: Element | undefined;
    if (TEX_TYPE.test(type)) math = texFormula(document, source, display);
    else if (MML_TYPE.test(type)) math = mathmlFormula(document, source, display);
    else continue;
    dropRendering(document, script);
    if (math === undefined) script.remove();
    else script.replaceWith(math);
  }
}

/** A `<math>` element whose only content is the TeX annotation `source`; undefined for an empty one. */
export function texFormula(document: Document, source: string, display: boolean): Element | undefined {
  const tex = source.trim();
  if (tex === '') return undefined;
  const math = document.createElement('math');
  const semantics = document.createElement('semantics');
  const annotation = document.createElement('annotation');
  annotation.setAttribute('encoding', 'application/x-tex');
  annotation.textContent = tex;
  semantics.appendChild(annotation);
  math.appendChild(semantics);
  if (display) math.setAttribute('display', 'block');
  return math;
}

/** The `<math>` element the MathML `source` spells; undefined when it spells none. */
function mathmlFormula(document: Document, source: string, display: boolean): Element | undefined {
  const holder = document.createElement('div');
  holder.innerHTML = source;
  const math = holder.getElementsByTagName('math')[0];
  if (math === undefined) return undefined;
  if (display && !math.hasAttribute('display')) math.setAttribute('display', 'block');
  return math;
}

/**
 * Removes what MathJax 2 drew from `script` on a saved page: the element it names `<id>-Frame`
 * (with the block around it, for a displayed formula) and the preview just before it.
 */
function dropRendering(document: Document, script: Element): void {
  const id = script.getAttribute('id');
  const frame = id ? document.getElementById(`${id}-Frame`) : null;
  const drawn = frame === null ? null : displayBlock(frame);
  const before = (drawn ?? script).previousElementSibling;
  if (before !== null && PREVIEW.test(before.className)) before.remove();
  drawn?.remove();
}

/** The block MathJax put a displayed formula's drawing in, else the drawing itself. */
function displayBlock(frame: Element): Element {
  const parent = frame.parentElement;
  return parent !== null && RENDERED_DISPLAY.test(parent.className) ? parent : frame;
}
