import type TurndownService from 'turndown';

/** A blank line: where a paragraph or another block ends. */
const BLANK_LINE = /\n[ \t]*\n/;

/** Spaces and line breaks at the start of what a list item holds. */
const LEADING_SPACE = /^\s+/;

/**
 * Words from which a heading holding several blocks is taken for a heading left open around the
 * page's text (`<h2>` never closed before the story's paragraphs) rather than a heading drawn in parts.
 */
export const HEADING_MAX_WORDS = 30;

const countWords = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

/** A block's lines joined with single spaces. */
const oneLine = (block: string) =>
  block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');

/**
 * Headings, list items and emphasis whose Markdown would not say what the page shows. Turndown writes
 * each from the Markdown of what it holds, and what a page puts in them is not always inline text:
 *
 * - a heading holding a block (an icon's wrapper before the title's link, a card's link around a
 *   title) came out as a bare `###` line with its text in a paragraph below it; a heading is one line,
 *   unless its blocks say more than a heading does ({@link HEADING_MAX_WORDS});
 * - a list item holding only what writes nothing (a logo without alt text, a button's icon) came out
 *   as a bare `-` line, a row of them for a strip of partner logos; and one whose first element
 *   writes nothing but a space came out as a bare `-` line with its text on the lines below;
 * - bold or italics around a block (`<strong>` around a picture in a box of its own) came out as a
 *   `**` line before the block and another after it, which Markdown does not read as emphasis.
 *
 * A heading nested in another is written as its text, in the outer heading's line.
 *
 * The rules are added before the others, so that a later one for a narrower case (a footnote's
 * definition, a callout) still takes its element first.
 */
export function addBlockShapeRules(service: TurndownService): void {
  const rules = (service.options as { rules?: Record<string, TurndownService.Rule> }).rules;
  const listItem = rules?.listItem;
  service.addRule('oneLineHeading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const marker = '#'.repeat(Number(node.nodeName.charAt(1)));
      // A heading inside it (a page that nests them) gives its text, not a second marker: page text
      // never starts a line with `#` here, Turndown escapes it.
      const blocks = content
        .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
        .split(BLANK_LINE)
        .map(oneLine)
        .filter((block) => block !== '');
      const [first] = blocks;
      if (first === undefined) return '\n\n';
      // Blocks of more words than a heading says are the page's text, which a heading left open
      // took in: the first is the heading, the others stay blocks after it.
      if (blocks.length > 1 && countWords(blocks.join(' ')) > HEADING_MAX_WORDS) {
        return `\n\n${marker} ${first}\n\n${blocks.slice(1).join('\n\n')}\n\n`;
      }
      return `\n\n${marker} ${blocks.join(' ')}\n\n`;
    },
  });
  if (listItem !== undefined && typeof listItem.replacement === 'function') {
    const written = listItem.replacement;
    service.addRule('filledListItem', {
      filter: 'li',
      // Turndown trims only newlines from the item's start; a space left there by an element that
      // wrote nothing (a picture already read once) put the item's text on the line after a bare
      // marker, where Markdown reads an empty item and, four spaces in, a code block.
      replacement: (content, node, options) =>
        content.trim() === '' ? '' : written(content.replace(LEADING_SPACE, ''), node, options),
    });
  }
  for (const [name, tags, delimiter] of [
    ['inlineEmphasis', ['em', 'i'], 'emDelimiter'],
    ['inlineStrong', ['strong', 'b'], 'strongDelimiter'],
  ] as const) {
    service.addRule(name, {
      filter: [...tags],
      replacement: (content, _node, options) => {
        const text = content.trim();
        if (text === '') return '';
        const before = content.slice(0, content.length - content.trimStart().length);
        const after = content.slice(content.trimEnd().length);
        // Emphasis cannot span paragraphs: around blocks, the blocks are written alone.
        if (BLANK_LINE.test(before) || BLANK_LINE.test(text) || BLANK_LINE.test(after)) return content;
        // A line break at its edge (a `<br>` before its end) goes outside the marks, which must
        // touch the text they hold.
        const mark = options[delimiter] ?? '';
        return `${before}${mark}${text}${mark}${after}`;
      },
    });
  }
}
