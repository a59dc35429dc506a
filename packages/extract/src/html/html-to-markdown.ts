import type TurndownService from 'turndown';
import { loadLinkedom, loadTurndown } from '../lazy-modules.js';
import { addCalloutRule } from './callouts.js';
import { cellsOf, PARAGRAPH_BLOCKS } from './element-names.js';
import { joinEmphasisRuns } from './emphasis-runs.js';
import { addFootnoteRules } from './footnote-marks.js';
import { type HeadingLinks, relinkHeadings } from './heading-links.js';
import { addBlockShapeRules } from './markdown-blocks.js';
import { escapeLinkLikeText } from './markdown-safety.js';
import { addMathRule } from './mathml-latex.js';
import { addRaisedTextRule } from './raised-text.js';
import { safeAbsoluteUrl } from './safe-link.js';

/**
 * Elements whose content is never readable text. A `<form>` is not one of them: its controls are,
 * but forum engines wrap a thread's posts in one, and ASP.NET pages their whole body.
 */
const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'button',
  'input',
  'select',
  'textarea',
  'svg',
  'canvas',
]);

/** Elements that make a table cell hold more than a line of text: such a table is page layout. */
const BLOCK_IN_CELL = [
  'P',
  'DIV',
  'UL',
  'OL',
  'DL',
  'PRE',
  'BLOCKQUOTE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'SECTION',
  'ARTICLE',
];

/** Alt text that is only an image's file name (`IMG_2041.jpg`, `hero-banner-2018-01`): nothing to read. */
const FILE_NAME_ALT = /^[\w.-]*\.(?:jpe?g|png|gif|webp|avif|svg)$|^(?=\S*[-_])\S{16,}$/i;

/** Class names and attributes that name a code block's language. */
const CODE_LANGUAGE =
  /(?:^|\s)(?:language|lang|highlight-source)-([\w+#.-]{1,30})|(?:^|\s)brush:\s*([\w+#.-]{1,30})/i;

/** A link this converter wrote: escaped text in brackets, then an http(s) target without parentheses. */
const OWN_LINK = /\[((?:[^\\[\]]|\\.)*)\]\(https?:[^()\s]*\)/g;

/** Elements that make a block of their own, and of a link around one. */
const BLOCK_SELECTOR = [...PARAGRAPH_BLOCKS].filter((name) => name !== 'body' && name !== 'html').join(', ');

/** A block's own Markdown marker at the start of a line: heading, quote, list item. */
const BLOCK_MARKER = /^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/;

/**
 * A link's text on one line. A link that wraps blocks (a product card: picture, heading, price)
 * would carry their line breaks, and a blank line inside `[…](…)` ends the link in Markdown, leaving
 * `](https://…)` in the text: the blocks' lines are joined with spaces, without their own markers.
 * A link around one block (a card that is a heading alone) loses the block's marker too.
 */
function inlineLinkText(content: string): string {
  const text = content.trim();
  if (!text.includes('\n')) return text.replace(BLOCK_MARKER, '');
  return text
    .split('\n')
    .map((line) => line.trim().replace(BLOCK_MARKER, ''))
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * Converts an HTML fragment to Markdown. Links are resolved against `baseUrl`; a link whose target
 * is not a safe http(s) URL keeps its text only, and a link without text is dropped. An image
 * becomes `![its alt text]`, without its URL (which tells a reader nothing and costs many tokens),
 * each distinct text once, and not when it is a file name or repeats the figure's caption. Data tables become
 * pipe tables; layout tables, whose cells hold blocks, become their blocks. Code blocks keep their
 * language. A heading without a link whose text `headingLinks` notes gets its link back (see
 * `heading-links.ts`).
 */
export async function htmlToMarkdown(
  html: string,
  baseUrl: string,
  headingLinks?: HeadingLinks,
): Promise<string> {
  const [service, { parseHTML }] = await Promise.all([serviceFor(baseUrl), loadLinkedom()]);
  // Parsed by linkedom, the one DOM of the package, into one wrapper element (what Turndown itself
  // does with a string), so Turndown never needs a DOM of its own.
  const { document } = parseHTML(`<!doctype html><html><body><${ROOT}>${html}</${ROOT}></body></html>`);
  const root = document.querySelector(ROOT);
  if (root !== null) {
    boundWhitespace(root);
    joinEmphasisRuns(root);
  }
  if (root !== null && headingLinks !== undefined) relinkHeadings(root, headingLinks);
  return tidyMarkdown(root === null ? '' : service.turndown(root as unknown as TurndownService.Node));
}

/** The longest run of whitespace a text node keeps for Turndown (indentation in code included). */
export const MAX_WHITESPACE_RUN = 256;

/** The most line breaks in a row Turndown is given; more would only add blank lines the tidy-up drops. */
export const MAX_LINE_BREAKS_IN_A_ROW = 2;

const LONG_WHITESPACE = new RegExp(`\\s{${MAX_WHITESPACE_RUN + 1},}`, 'g');

/**
 * Removes each `<br>` that follows {@link MAX_LINE_BREAKS_IN_A_ROW} others with only whitespace
 * between them. Both extractors read two in a row as a paragraph break and more add nothing, but
 * every element costs each of their selector passes, and Turndown trims its output with a pattern
 * quadratic in a whitespace run that does not end it: 27,000 `<br>`s in a row cost seconds.
 */
export function dropExtraLineBreaks(root: ParentNode): void {
  for (const lineBreak of Array.from(root.querySelectorAll('br'))) {
    let before = 0;
    let sibling = lineBreak.previousSibling;
    while (sibling !== null && before < MAX_LINE_BREAKS_IN_A_ROW) {
      if (sibling.nodeType === 3 && (sibling.textContent ?? '').trim() === '')
        sibling = sibling.previousSibling;
      else if (sibling.nodeName === 'BR') {
        before++;
        sibling = sibling.previousSibling;
      } else break;
    }
    if (before >= MAX_LINE_BREAKS_IN_A_ROW) lineBreak.remove();
  }
}

/**
 * Bounds the whitespace Turndown would write: line breaks in a row ({@link dropExtraLineBreaks})
 * and runs of whitespace in text (non-breaking spaces included) past {@link MAX_WHITESPACE_RUN},
 * for the same quadratic trim.
 */
function boundWhitespace(root: Element): void {
  dropExtraLineBreaks(root);
  // The parser gives each character reference a text node of its own; merged, a run of them is one.
  root.normalize();
  const walker = root.ownerDocument.createTreeWalker(root, 4);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (text.length <= MAX_WHITESPACE_RUN) continue;
    const bounded = text.replace(LONG_WHITESPACE, (run) => run.slice(0, MAX_WHITESPACE_RUN));
    if (bounded !== text) node.textContent = bounded;
  }
}

/** The element the fragment is parsed into (a custom element keeps every child in one place). */
const ROOT = 'x-turndown';

/**
 * What a page prints where an advertisement goes ("Advertisement", "Anzeige", "Publicidade"…), in
 * the languages of the benchmark pages. Never the text of the page.
 */
const AD_LABEL =
  /^(?:advertisement|advertising|advert|ads?|sponsored|anzeige|werbung|publicit\u00e9|publicidade|publicidad|pubblicit\u00e0|iklan|reklama|\u0440\u0435\u043a\u043b\u0430\u043c\u0430)$/i;

/** A photo gallery's counter ("Image 3 of 23", "Photo 2/9", "Slide 1 of 5"). */
const GALLERY_COUNTER =
  /^(?:image|photo|picture|slide|foto|bild|imagen)\s*\d+\s*(?:of|\/|de|di|von|sur)?\s*\d+$/i;

/**
 * Whether a line of Markdown is only an advertisement's label or a gallery's counter, emphasis and
 * trailing punctuation aside. Headings, list items, quotes and table rows are never taken for one:
 * a section may well be called "Advertising".
 */
function isPageLabel(line: string): boolean {
  if (/^\s*(?:[#|>]|[-*+] |\d+[.)] )/.test(line)) return false;
  const text = line
    .trim()
    .replace(/^[*_]+|[*_]+$/g, '')
    .replace(/[\s.:\u2026-]+$/, '');
  return AD_LABEL.test(text) || GALLERY_COUNTER.test(text);
}

/**
 * A line that is only a list marker, `1.` or `+` (a step's number in a box of its own, a plus between
 * two products): page text, since a list item that writes nothing is dropped, which Markdown would
 * read as an empty list item. Turndown escapes such text only when a space follows it in the same
 * text node. The marker's last character gets the escape.
 */
const BARE_LIST_MARKER = /^(\s*(?:\d{1,9}(?=\.)|(?=\+)))([.+])(?=\s*$)/;

/**
 * Collapses runs of blank lines and trailing spaces that Turndown leaves between blocks, and the
 * three spaces it puts after a list marker to one, escapes a line that is only a list marker
 * ({@link BARE_LIST_MARKER}), and drops the paragraphs that are only an advertisement's label or a
 * gallery's counter ({@link isPageLabel}); code blocks are left as they are.
 */
export function tidyMarkdown(markdown: string): string {
  let inFence = false;
  const source = markdown.split('\n');
  const lines = source.map((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) return line;
    const alone = (source[index - 1] ?? '').trim() === '' && (source[index + 1] ?? '').trim() === '';
    if (alone && isPageLabel(line)) return '';
    return line.replace(/^(\s*)([-*+]|\d+\.) {2,}(?=\S)/, '$1$2 ').replace(BARE_LIST_MARKER, '$1\\$2');
  });
  return lines
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function serviceFor(baseUrl: string): Promise<TurndownService> {
  const Turndown = await loadTurndown();
  const service = new Turndown({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
  });
  // Page text keeps Turndown's escapes and also loses every way to spell a link of its own.
  const escapeText = service.escape.bind(service);
  service.escape = (text: string) => escapeLinkLikeText(escapeText(text));
  service.remove((node) => DROPPED_ELEMENTS.has(node.nodeName.toLowerCase()));
  addBlockShapeRules(service);
  addMathRule(service);
  addCalloutRule(service);
  addRaisedTextRule(service);
  service.addRule('safeLink', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const href = safeAbsoluteUrl((node as HTMLElement).getAttribute('href'), baseUrl);
      if (content.trim() === '') return '';
      if (href === undefined) return content;
      // A link holds no link (Markdown keeps only the innermost); nor its title, which repeats the
      // text at best and, free-form, is one more place for syntax to break out of.
      const text = inlineLinkText(content.replace(OWN_LINK, '$1'));
      const link = `[${text}](${href.replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
      // A link around blocks (a card: picture, title, price) is drawn as a block: it stands on its
      // own, so that two cards side by side do not run their words together ("$130.00Virginia").
      return (node as Element).querySelector(BLOCK_SELECTOR) !== null ? `\n\n${link}\n\n` : link;
    },
  });
  // After the link rule, so that a footnote's mark and back link are read as such first.
  addFootnoteRules(service);
  // A gallery repeats one alt text for every picture; it is read once.
  const altsSeen = new Set<string>();
  service.addRule('imageAlt', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = ((node as HTMLElement).getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      if (alt === '' || FILE_NAME_ALT.test(alt) || altsSeen.has(alt.toLowerCase())) return '';
      const caption = captionOf(node);
      // The caption says the alt text (and more): the picture is read there, unless the caption
      // only repeats it and is left out for the picture (see `altCaption`).
      if (caption?.textContent?.replace(/\s+/g, ' ').includes(alt) && !repeatsAlt(caption)) return '';
      altsSeen.add(alt.toLowerCase());
      return `![${escapeLinkLikeText(alt.replace(/[\\[\]]/g, '\\$&'))}]`;
    },
  });
  // A caption that only repeats its image's alt text (Defuddle writes one for every picture it
  // finds alone) describes the picture; the picture says it, not a line of page text.
  service.addRule('altCaption', {
    filter: (node) => node.nodeName === 'FIGCAPTION' && repeatsAlt(node),
    replacement: () => '',
  });
  service.addRule('codeBlock', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => fencedCode(node),
  });
  service.addRule('tableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && isDataTable(node),
    replacement: (content, node) => {
      // A cell is one line: its list's items are set one after another, each after a bullet.
      const cell = content
        .replace(/^[^\S\n]*[-*+][^\S\n]+/gm, '• ')
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      return `${previousElement(node) === undefined ? '|' : ''} ${cell} |`;
    },
  });
  service.addRule('tableRow', {
    filter: (node) => node.nodeName === 'TR' && isDataTable(node),
    replacement: (content, node) => {
      const table = ancestor(node, 'TABLE');
      const rows = table === undefined ? [] : descendants(table, 'TR');
      const columns = Math.max(1, ...rows.map(cellCount));
      const cells = `${content.trim() === '' ? '|' : content}${' |'.repeat(Math.max(0, columns - cellCount(node)))}`;
      return rows[0] === node ? `\n${cells}\n|${' --- |'.repeat(columns)}` : `\n${cells}`;
    },
  });
  service.addRule('tableSection', {
    filter: (node) => ['THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && isDataTable(node),
    replacement: (content) => content,
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' && isDataTable(node),
    replacement: (content, node) => {
      const caption = Array.from(node.childNodes).find((child) => child.nodeName === 'CAPTION');
      const title = (caption?.textContent ?? '').replace(/\s+/g, ' ').trim();
      const rows = content.replace(/\n{2,}/g, '\n').trim();
      return `\n\n${title === '' ? '' : `${service.escape(title)}\n\n`}${rows}\n\n`;
    },
  });
  service.addRule('tableCaption', {
    filter: (node) => node.nodeName === 'CAPTION' && isDataTable(node),
    replacement: () => '',
  });
  return service;
}

/** A `<pre>` as a fenced block, its language read from a `data-lang` attribute or a `language-…` class of the block or its `<code>`. */
function fencedCode(pre: Node): string {
  let language = '';
  for (const element of [pre, ...descendants(pre, 'CODE').slice(0, 1)]) {
    const declared = attribute(element, 'data-lang') || attribute(element, 'data-language');
    const named = CODE_LANGUAGE.exec(attribute(element, 'class'));
    const found = /^[\w+#.-]{1,30}$/.test(declared) ? declared : (named?.[1] ?? named?.[2] ?? '');
    if (found !== '') {
      language = found.toLowerCase();
      break;
    }
  }
  const text = (pre.textContent ?? '').replace(/^\n+|\s+$/g, '');
  if (text.trim() === '') return '';
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
}

// Turndown parses with its own small DOM, which lacks selectors and table accessors: the helpers
// below walk the tree by hand.

/** Whether a `<figcaption>` says no more than the alt text of its figure's one image. */
function repeatsAlt(caption: Node): boolean {
  const figure = ancestor(caption, 'FIGURE');
  const images = figure === undefined ? [] : descendants(figure, 'IMG');
  if (images.length !== 1 || images[0] === undefined) return false;
  const alt = attribute(images[0], 'alt').replace(/\s+/g, ' ').trim();
  return alt !== '' && (caption.textContent ?? '').replace(/\s+/g, ' ').trim() === alt;
}

/** The `<figcaption>` of the figure holding `image`, if any. */
function captionOf(image: Node): Node | undefined {
  const figure = ancestor(image, 'FIGURE');
  return figure === undefined ? undefined : descendants(figure, 'FIGCAPTION')[0];
}

function attribute(node: Node, name: string): string {
  return (node as Element).getAttribute?.(name) ?? '';
}

function ancestor(node: Node, name: string): Node | undefined {
  for (let parent = node.parentNode; parent !== null; parent = parent.parentNode) {
    if (parent.nodeName === name) return parent;
  }
  return undefined;
}

function previousElement(node: Node): Node | undefined {
  for (let sibling = node.previousSibling; sibling !== null; sibling = sibling.previousSibling) {
    if (sibling.nodeType === 1) return sibling;
  }
  return undefined;
}

/** Descendant elements named `name`, not looking inside nested tables. */
function descendants(root: Node, name: string, found: Node[] = []): Node[] {
  for (const child of Array.from(root.childNodes)) {
    if (child.nodeType !== 1) continue;
    if (child.nodeName === name) found.push(child);
    if (child.nodeName !== 'TABLE') descendants(child, name, found);
  }
  return found;
}

function cellCount(row: Node): number {
  return cellsOf(row).length;
}

const dataTableMemo = new WeakMap<Node, boolean>();

/** Whether `node` belongs to a table of data (several columns of inline text), not one used for layout. */
function isDataTable(node: Node): boolean {
  const table = node.nodeName === 'TABLE' ? node : ancestor(node, 'TABLE');
  if (table === undefined) return false;
  const known = dataTableMemo.get(table);
  if (known !== undefined) return known;
  const rows = descendants(table, 'TR');
  const cells = rows.flatMap(cellsOf);
  const blocks = cells.filter((cell) => BLOCK_IN_CELL.some((tag) => descendants(cell, tag).length > 0));
  const data =
    rows.length > 0 &&
    !isColumnsRow(rows, cells) &&
    Math.max(...rows.map(cellCount)) > 1 &&
    !cells.some(hasNestedTable) &&
    (blocks.length === 0 || (headedByRow(rows) && blocks.every(isShortCell)));
  dataTableMemo.set(table, data);
  return data;
}

/**
 * The line breaks from which a cell of a table's only row of text sets a column of lines (names
 * down a page, a list), not one value: an address keeps its street and town on two lines.
 */
export const COLUMN_MIN_LINE_BREAKS = 3;

/**
 * Whether the table is one row of text setting columns side by side (an open letter's signatories
 * in two cells of names): only one row holds text, and a cell of it holds
 * {@link COLUMN_MIN_LINE_BREAKS} line breaks or more. A row of single values (a specification's
 * name and value, a calendar's months) stays a table.
 */
function isColumnsRow(rows: Node[], cells: Node[]): boolean {
  if (rows.filter((row) => (row.textContent ?? '').trim() !== '').length !== 1) return false;
  return cells.some((cell) => descendants(cell, 'BR').length >= COLUMN_MIN_LINE_BREAKS);
}

/**
 * The most words a cell holding a block (a paragraph, a list) may say in a table headed by a row of
 * header cells: a short note set on a line of its own ("15.7 oz." over "(hammock, stuff sack)") is
 * still one value of a column; a cell of whole paragraphs is a table laying out a page.
 */
export const SHORT_CELL_MAX_WORDS = 30;

/** Whether the table's first row is a row of header cells (`<th>`), as a table of data has. */
function headedByRow(rows: Node[]): boolean {
  const first = rows[0];
  if (first === undefined) return false;
  const cells = cellsOf(first);
  return cells.length > 1 && cells.every((cell) => cell.nodeName === 'TH');
}

function isShortCell(cell: Node): boolean {
  return (cell.textContent ?? '').split(/\s+/).filter(Boolean).length <= SHORT_CELL_MAX_WORDS;
}

function hasNestedTable(cell: Node): boolean {
  for (const child of Array.from(cell.childNodes)) {
    if (child.nodeName === 'TABLE' || (child.nodeType === 1 && hasNestedTable(child))) return true;
  }
  return false;
}
