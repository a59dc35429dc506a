import { markupPieces } from './markup-pieces.js';

/**
 * A cell start tag where no row is open: right after a table's or a row group's start tag, or right
 * after a row's end tag. A page without one has no row to open.
 */
const CELL_WITHOUT_ROW = /<\/tr\s*>\s*<t[dh][\s/>]|<(?:table|tbody|thead|tfoot)\b[^>]*>\s*<t[dh][\s/>]/i;

/** Elements whose content is not markup: a `<td>` inside them is text. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'plaintext']);

/** Where a table stands while its markup is read: whether a row is open in it. */
interface OpenTable {
  rowOpen: boolean;
}

/**
 * Writes the `<tr>` a browser's parser opens before a table cell that no row holds. A browser puts
 * a `<td>` or `<th>` met in a table or a row group outside any row into a new row, which the next
 * `</tr>` (or row group, or the table's end) closes: a template that writes each row's cells and
 * `</tr>` but leaves out `<tr>` shows a table of rows. The HTML parser the DOM stages use
 * (htmlparser2, under linkedom) puts such cells straight into the row group, so the table was read
 * as one row holding every cell. Each cell start tag met in a table where no row is open gets a
 * `<tr>` before it; a page without such a cell is returned as is. Tables inside cells are followed
 * one by one; the content of scripts, styles and other raw-text elements is left alone.
 */
export function openImpliedRows(html: string): string {
  if (!CELL_WITHOUT_ROW.test(html)) return html;
  const tables: OpenTable[] = [];
  const parts: string[] = [];
  let copied = 0;
  for (const piece of markupPieces(html, RAW_TEXT)) {
    if (piece.kind !== 'tag') continue;
    const closing = html[piece.start + 1] === '/';
    const name = closing ? tagName(html, piece.start + 2) : piece.name;
    const table = tables.at(-1);
    if (name === 'table') {
      if (closing) tables.pop();
      else tables.push({ rowOpen: false });
    } else if (table === undefined) {
      // A cell outside any table is left to the parser.
    } else if (name === 'tr') {
      table.rowOpen = !closing;
    } else if (name === 'tbody' || name === 'thead' || name === 'tfoot') {
      table.rowOpen = false;
    } else if ((name === 'td' || name === 'th') && !closing && !table.rowOpen) {
      parts.push(html.slice(copied, piece.start), '<tr>');
      copied = piece.start;
      table.rowOpen = true;
    }
  }
  if (copied === 0) return html;
  parts.push(html.slice(copied));
  return parts.join('');
}

const TAG_NAME = /[a-zA-Z][a-zA-Z0-9:-]*/y;

/** The lower-case name of the tag whose name starts at `from`; empty when none does. */
function tagName(html: string, from: number): string {
  TAG_NAME.lastIndex = from;
  return TAG_NAME.exec(html)?.[0].toLowerCase() ?? '';
}
