import { fenceAfter } from './markdown-fences.js';

/**
 * Reduces Markdown to readable plain text: heading marks, emphasis, links (inline, nested, with
 * titles over several lines, reference-style and autolinks), images, fences and backslash escapes
 * go; paragraph breaks, list items and table cells stay. The text of a link stays, its target does
 * not. Code blocks keep their lines as written (a code block inside a blockquote, such as a
 * callout's, without the quote's markers), and so does what the page itself wrote: escaped
 * characters come back as the page had them.
 */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  let prose: string[] = [];
  const flushProse = () => {
    if (prose.length > 0) lines.push(stripInline(prose.map(stripBlock).join('\n')));
    prose = [];
  };
  let fence: string | undefined;
  // How many blockquotes the open code block sits in (a callout's code): its lines lose their markers.
  let fenceDepth = 0;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      const inner = insideQuotes(line, fenceDepth);
      if (inner !== undefined) {
        fence = fenceAfter(inner, fence);
        if (fence !== undefined) lines.push(inner);
        continue;
      }
      // A line outside the blockquote ends it, and the code block in it.
      fence = undefined;
    }
    const markers = QUOTE_MARKERS.exec(line)?.[0] ?? '';
    const opened = fenceAfter(line.slice(markers.length), undefined);
    if (opened === undefined) {
      prose.push(line);
      continue;
    }
    flushProse();
    fence = opened;
    fenceDepth = markers.split('>').length - 1;
  }
  flushProse();
  return lines
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The blockquote markers a line starts with: `> `, `>`, `> > `. */
const QUOTE_MARKERS = /^(?: {0,3}> ?)+/;

/** `line` without the markers of `depth` blockquotes; undefined when it is not inside that many. */
function insideQuotes(line: string, depth: number): string | undefined {
  let rest = line;
  for (let level = 0; level < depth; level++) {
    const marker = /^ {0,3}> ?/.exec(rest);
    if (marker === null) return undefined;
    rest = rest.slice(marker[0].length);
  }
  return rest;
}

function stripBlock(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}(?:\s+|$)/, '')
    .replace(/\s+#+\s*$/, (closing) => (/^\s{0,3}#/.test(line) ? '' : closing))
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*([-*_]\s*){3,}$/, '')
    .replace(/^\s{0,3}=+\s*$/, '')
    .replace(/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/, '')
    .replace(REFERENCE_DEFINITION, '');
}

// Escaped characters are parked as a private-use pair (a mark, then the character moved into the
// private-use area) so that emphasis and link rules cannot see them.
const ESCAPE_MARK = '\uE000';
const PARK_OFFSET = 0xe100;
const park = (_match: string, character: string) =>
  `${ESCAPE_MARK}${String.fromCharCode(PARK_OFFSET + character.charCodeAt(0))}`;
const unpark = (_match: string, parked: string) => String.fromCharCode(parked.charCodeAt(0) - PARK_OFFSET);

/** Any ASCII punctuation after a backslash: CommonMark's escapes. */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;

/**
 * A link's destination and optional title: `<…>`, or a run without spaces whose parentheses
 * balance (one level deep), then a title in quotes or parentheses that may span lines.
 */
const TARGET = String.raw`\s*(?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*`;
const IMAGE = new RegExp(String.raw`!\[[^\[\]]*\](?:\(${TARGET}\)|\[[^\[\]]*\])?`, 'g');
/** An innermost link: inline (`[text](target "title")`) or by reference (`[text][name]`, `[text][]`). */
const LINK = new RegExp(String.raw`\[([^\[\]]*)\](?:\(${TARGET}\)|\[[^\[\]]*\])`, 'g');
/** A link reference definition: `[name]: target "title"`. */
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*\S+(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*$/;
/** An autolink, URI or e-mail: the text shows its address without the brackets. */
const AUTOLINK = /<\s*([A-Za-z][A-Za-z0-9+.-]{1,31}\s*:[^\s<>]*|[^\s@<>]+@[^\s@<>]+)\s*>/g;

function stripInline(text: string): string {
  let stripped = text
    .replace(ESCAPED, park)
    // Images carry no readable text beyond their alt, which usually repeats a caption.
    .replace(IMAGE, '');
  // Innermost first, so a link inside a link's text gives up its text too.
  for (let previous = ''; previous !== stripped; ) {
    previous = stripped;
    stripped = stripped.replace(LINK, '$1');
  }
  return stripped
    .replace(AUTOLINK, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/gm, '$1$2')
    .replace(/(^|[^\w])_(?=\S)(.+?)(?<=\S)_(?!\w)/gm, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/(`+)(?!`)(.+?)(?<!`)\1(?!`)/g, '$2')
    .replace(/\uE000([\uE100-\uE17F])/g, unpark);
}
