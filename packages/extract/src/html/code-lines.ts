import { PARAGRAPH_BLOCKS } from './element-names.js';

// A highlighter draws a code block line by line: each line is an element of its own inside the
// `<pre>`, often without a newline character between lines, since a block element starts a line
// where it is drawn. Defuddle (0.19.4) reads a block's code from its elements, and two shapes of
// line lose code there:
//
// - A line element (a class naming a line, or a `data-line` attribute) is read through the first
//   element inside it named as code or content (`code-…`, `content-…`), meant for the code column
//   beside a line number. Highlighters also name single tokens so (React's docs mark the steps of
//   a sample `code-step`, CSS modules give `code-diff_keyword__…`), and the line was then that one
//   token: `setAge(a => a + 1);` came out as `a`.
// - Lines drawn as plain `<div>`s or `<p>`s, named nothing Defuddle reads as a line, are joined
//   into one: an API reference's sample response came out as one line of JSON.
//
// This pass, run before the extractors, gives each block the shape its lines are read right in: the
// names of tokens that hold part of a line are taken off (names inside a `<pre>` only choose
// colours), and a newline is written after each line drawn as a plain block.

/** An element Defuddle reads as one line of a code block. */
const LINE_ELEMENT = 'div[class*="line"], span[class*="line"], .ec-line, [data-line-number], [data-line]';

/** An element Defuddle reads as a line's code, when it is inside a line element. */
const LINE_CODE_ELEMENT = '.code:not(.token), .content:not(.token), [class*="code-"], [class*="content-"]';

/** A class name that makes an element match {@link LINE_CODE_ELEMENT}. */
const LINE_CODE_NAME = /^(?:code|content)$|code-|content-/;

/** A line number a line element may hold beside its code. */
const LINE_NUMBER_ELEMENT = '.line-number, .gutter, [class*="line-number"], [class*="gutter"]';

/** Gives the lines of each `<pre>` of `document` the shape they are read right in (see above). */
export function keepCodeLines(document: Document): void {
  const body = document.body;
  if (body === null) return;
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    keepWholeLines(pre);
    breakBlockLines(pre);
  }
}

/**
 * Takes the code names off the tokens of each innermost line element of `pre` whose first named
 * code holds only part of the line's code (the line without its line number).
 */
function keepWholeLines(pre: Element): void {
  for (const line of Array.from(pre.querySelectorAll(LINE_ELEMENT))) {
    if (line.querySelector(LINE_ELEMENT) !== null) continue;
    const named = line.querySelector(LINE_CODE_ELEMENT);
    if (named === null) continue;
    if (squeeze(named.textContent) === lineCode(line)) continue;
    for (const token of Array.from(line.querySelectorAll(LINE_CODE_ELEMENT))) unname(token);
  }
}

/** The code of a line element: its text without its line number, squeezed. */
function lineCode(line: Element): string {
  let text = line.textContent ?? '';
  for (const number of Array.from(line.querySelectorAll(LINE_NUMBER_ELEMENT))) {
    text = text.replace(number.textContent ?? '', '');
  }
  return squeeze(text.replace(/^\s*\d+(?=\s|$)/, ''));
}

/** Removes the class names of `element` that name it as a line's code. */
function unname(element: Element): void {
  const kept = Array.from(element.classList).filter((name) => !LINE_CODE_NAME.test(name));
  if (kept.length === 0) element.removeAttribute('class');
  else element.setAttribute('class', kept.join(' '));
}

/**
 * Writes a newline after each line of `pre` drawn as a plain block: a block element holding text
 * and no other block, neither inside a line element nor holding one, that neither ends in a line break nor is
 * followed by one, and is not a numbered row (a line number and the line's code).
 */
function breakBlockLines(pre: Element): void {
  const document = pre.ownerDocument;
  for (const block of Array.from(pre.querySelectorAll('*'))) {
    if (!PARAGRAPH_BLOCKS.has(block.localName) || !isLeafBlock(block)) continue;
    if (block.closest(LINE_ELEMENT) !== null || block.querySelector(LINE_ELEMENT) !== null) continue;
    if (isNumberedRow(block)) continue;
    if ((block.textContent ?? '') === '' || endsLine(block) || startsLine(block.nextSibling)) continue;
    block.after(document.createTextNode('\n'));
  }
}

function isLeafBlock(element: Element): boolean {
  for (const inner of Array.from(element.querySelectorAll('*'))) {
    if (PARAGRAPH_BLOCKS.has(inner.localName)) return false;
  }
  return true;
}

/** A row of two elements, the first a line number, which Defuddle reads as one line. */
function isNumberedRow(element: Element): boolean {
  return element.children.length === 2 && /^\d+$/.test((element.children[0]?.textContent ?? '').trim());
}

/** Whether `element`'s text ends in a newline or its last node is a `<br>`. */
function endsLine(element: Element): boolean {
  const last = element.lastChild;
  if (last !== null && last.nodeType === 1 && (last as Element).localName === 'br') return true;
  return (element.textContent ?? '').endsWith('\n');
}

/** Whether `node` (what follows a block) starts a new line: a `<br>`, or text opening with one. */
function startsLine(node: ChildNode | null): boolean {
  if (node === null) return false;
  if (node.nodeType === 1) return (node as Element).localName === 'br';
  return node.nodeType === 3 && /^[^\S\n]*\n/.test(node.textContent ?? '');
}

function squeeze(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
