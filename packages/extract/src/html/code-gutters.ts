// Highlighters number a sample's lines in three ways, and each reached the reader as numbers
// instead of code or mixed into it:
//
// - a table of one row, the numbers in one cell and the code in the next (Pygments'
//   `highlighttable`, which Sphinx and MkDocs write for numbered samples, Rouge, Chroma): both cells
//   hold a `<pre>`, and Defuddle (0.19.4) read the block from the first `<pre>` holding a styled
//   `<span>`, which in Pygments' table is the numbers' column: the code was lost;
// - a table inside the `<pre>`, one row per line, a cell for the number and one for the code (the
//   highlight.js line-numbers plugin): each row came out as a paragraph, a blank line between lines;
// - a number inside the `<pre>` at the start of each line, in an element named for it (Pygments'
//   and Chroma's inline numbers): the numbers were read as lines of code.
//
// SyntaxHighlighter sets the first kind of table without a `<pre>`, a line element per line of
// `<code>` tokens, and Defuddle read its lines from the tokens alone, without the spaces between.
// This pass, run before the extractors, leaves each such block as its code alone.

import { cellsOf } from './element-names.js';

/** Class names that mark an element inside a code block as a line's number. */
const LINE_NUMBER_CLASS = /^(?:linenos?|lnt?|line-?num(?:ber)?s?|code-line-number|hljs-ln-n(?:umbers)?)$/i;

/** A line number's text: an integer, spaces around it. */
const LINE_NUMBER = /^\s*\d{1,6}\s*$/;

/**
 * Leaves each numbered code block of `document` as its code (see above): a table of one row whose
 * other cells hold only ascending line numbers, as many as the code has lines, beside the one cell
 * holding the code gives way to that cell's content; a table inside a `<pre>` whose rows each hold
 * a line's code in their last cell after cells that are its number becomes those lines; and an
 * element inside a `<pre>` named as a line number ({@link LINE_NUMBER_CLASS}) whose text is only a
 * number is removed.
 */
export function dropLineNumbers(document: Document): void {
  const body = document.body;
  if (body === null) return;
  const seen = new Set<Element>();
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    if (pre.parentNode === null) continue;
    const table = pre.closest('table');
    if (table !== null && !seen.has(table)) {
      seen.add(table);
      unwrapGutterTable(table);
    }
  }
  for (const table of Array.from(body.querySelectorAll('table'))) {
    if (!seen.has(table) && table.parentNode !== null) writeDrawnLines(table);
  }
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    for (const table of Array.from(pre.querySelectorAll('table'))) {
      if (table.parentNode !== null) writeTableLines(table);
    }
    for (const element of Array.from(pre.querySelectorAll('[class]'))) {
      if (element.parentNode !== null && isLineNumber(element)) element.remove();
    }
  }
}

/** The rows of `table` that belong to it, not to a table inside one of its cells. */
function rowsOf(table: Element): Element[] {
  return Array.from(table.querySelectorAll('tr')).filter((row) => row.closest('table') === table);
}

/** The cells of a table row. */
function cellsIn(row: Element): Element[] {
  return cellsOf(row) as Element[];
}

/**
 * The code cell of a table of one row whose other cells number the code's lines one by one: the one
 * cell of which `numbers` counts none, when `lines` gives it a line or more and `numbers` counts as
 * many in every other cell; else undefined.
 */
function codeBesideNumbers(
  table: Element,
  numbers: (cell: Element) => number,
  lines: (code: Element) => number,
): Element | undefined {
  const rows = rowsOf(table);
  if (rows.length !== 1 || rows[0] === undefined) return undefined;
  const cells = cellsIn(rows[0]);
  const code = cells.filter((cell) => numbers(cell) === 0);
  if (cells.length < 2 || code.length !== 1 || code[0] === undefined) return undefined;
  const count = lines(code[0]);
  return count > 0 && cells.every((cell) => cell === code[0] || numbers(cell) === count)
    ? code[0]
    : undefined;
}

/**
 * Replaces a table of one row, one cell of code (holding a `<pre>`) and the others each a run of
 * ascending line numbers, one per line of the code, with the code cell's content.
 */
function unwrapGutterTable(table: Element): void {
  const code = codeBesideNumbers(
    table,
    (cell) => numberRun(cell.textContent ?? ''),
    (cell) => {
      const pre = cell.querySelector('pre');
      return pre === null ? 0 : (pre.textContent ?? '').replace(/\n$/, '').split('\n').length;
    },
  );
  if (code !== undefined) table.replaceWith(...Array.from(code.childNodes));
}

/** Line elements: the innermost elements of `root` whose class names a line. */
function lineElements(root: Element): Element[] {
  return Array.from(root.querySelectorAll('.line')).filter((line) => line.querySelector('.line') === null);
}

/** Class names of SyntaxHighlighter's wrapper that are not the code's language. */
const NOT_LANGUAGE = new Set(['syntaxhighlighter', 'nogutter', 'collapsed', 'printing', 'ie']);

/**
 * Replaces a table of one row whose code cell draws each line as an element of its own, without a
 * `<pre>` (SyntaxHighlighter, whose lines are `<div class="line">`s of `<code>` tokens with the
 * spaces between them as text), and whose other cells number those lines one by one, with a
 * `<pre><code>` of the lines. Defuddle read such a block from its tokens alone and lost the spaces
 * between them (`echo$a;`). The language is the wrapper's class beside `syntaxhighlighter`.
 */
function writeDrawnLines(table: Element): void {
  if (table.querySelector('pre') !== null) return;
  const code = codeBesideNumbers(
    table,
    (cell) =>
      numberRun(
        lineElements(cell)
          .map((line) => line.textContent)
          .join(' '),
      ),
    (cell) => lineElements(cell).length,
  );
  if (code === undefined) return;
  const document = table.ownerDocument;
  const pre = document.createElement('pre');
  const block = document.createElement('code');
  block.textContent = lineElements(code)
    .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '))
    .join('\n');
  const wrapper = table.closest('.syntaxhighlighter');
  const language = Array.from(wrapper?.classList ?? []).find((name) => !NOT_LANGUAGE.has(name));
  if (language !== undefined && /^[\w+#-]{1,20}$/.test(language))
    block.setAttribute('class', `language-${language}`);
  pre.append(block);
  table.replaceWith(pre);
}

/** How many integers `text` is, each greater than the one before it; 0 when it is anything else. */
function numberRun(text: string): number {
  const numbers = text.trim().split(/\s+/);
  let last = -1;
  for (const number of numbers) {
    if (!/^\d{1,6}$/.test(number)) return 0;
    const value = Number(number);
    if (value <= last) return 0;
    last = value;
  }
  return numbers.length;
}

/**
 * Replaces a table inside a code block with its lines, one per row, when each row's last cell is the
 * line's code and the cells before it are its number ({@link isGutterCell}).
 */
function writeTableLines(table: Element): void {
  const lines: string[] = [];
  for (const row of rowsOf(table)) {
    const cells = cellsIn(row);
    const code = cells.at(-1);
    if (code === undefined || cells.length < 2) return;
    if (!cells.slice(0, -1).every(isGutterCell)) return;
    lines.push((code.textContent ?? '').replace(/\n$/, ''));
  }
  if (lines.length === 0) return;
  table.replaceWith(table.ownerDocument.createTextNode(`${lines.join('\n')}\n`));
}

/** Names of a cell that holds a line's number, or draws it from an attribute (`hljs-ln-numbers`). */
const GUTTER_NAME = /line-?num|lineno|gutter|(?:^|[\s-])ln(?:$|[\s-])/i;

/**
 * Whether a cell before a line's code is its number: the number as its text, or no text and a
 * name or `data-line-number` attribute (on it or inside it) that says it draws one.
 */
function isGutterCell(cell: Element): boolean {
  const text = cell.textContent ?? '';
  if (LINE_NUMBER.test(text)) return true;
  if (text.trim() !== '') return false;
  if (cell.hasAttribute('data-line-number') || GUTTER_NAME.test(cell.getAttribute('class') ?? ''))
    return true;
  return cell.querySelector('[data-line-number]') !== null;
}

/** Whether an element inside a code block is a line's number: named so, and only a number. */
function isLineNumber(element: Element): boolean {
  const names = (element.getAttribute('class') ?? '').split(/\s+/);
  if (!names.some((name) => LINE_NUMBER_CLASS.test(name))) return false;
  return LINE_NUMBER.test(element.textContent ?? '');
}
