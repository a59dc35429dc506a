import type TurndownService from 'turndown';

/**
 * Footnotes as Markdown writes them: a mark `[^1]` in the sentence and a definition `[^1]: …` at the
 * end. Defuddle gives every footnote it recognises one shape (a mark `<sup id="fnref:1"><a
 * href="#fn:1">` and a list of `<li id="fn:1">` ending in a "↩" link back); written as plain links,
 * each mark became a link to the page itself and each note ended in a stray arrow.
 */

/** A footnote's name as Defuddle writes it into ids; anything else is left as a link. */
const NAME = /^[\p{L}\p{N}_.-]{1,30}$/u;

/** The name after `prefix` in `value` (`fn:1` gives `1`), when it is a footnote's name; else undefined. */
function nameAfter(value: string, prefix: string): string | undefined {
  if (!value.startsWith(prefix)) return undefined;
  const name = value.slice(prefix.length);
  return NAME.test(name) ? name : undefined;
}

/** The footnote `#<prefix>:<name>` a same-page link points to, else undefined. */
function linkedNote(node: Node, prefix: string): string | undefined {
  return nameAfter((node as Element).getAttribute?.('href') ?? '', `#${prefix}:`);
}

/** Writes footnote marks, definitions and their back links as described in this module. */
export function addFootnoteRules(service: TurndownService): void {
  service.addRule('footnoteMark', {
    filter: (node) =>
      node.nodeName === 'A' && node.parentNode?.nodeName === 'SUP' && linkedNote(node, 'fn') !== undefined,
    replacement: (_content, node) => `[^${linkedNote(node, 'fn')}]`,
  });
  service.addRule('footnoteBackLink', {
    filter: (node) => node.nodeName === 'A' && linkedNote(node, 'fnref') !== undefined,
    replacement: () => '',
  });
  service.addRule('footnoteDefinition', {
    filter: (node) =>
      node.nodeName === 'LI' && node.parentNode?.nodeName === 'OL' && noteName(node) !== undefined,
    replacement: (content, node) => {
      // A definition's later lines are indented under it, as Markdown continues a footnote.
      const body = content
        .replace(/^\n+|\s+$/g, '')
        .split('\n')
        .map((line, index) => (index === 0 || line.trim() === '' ? line : `    ${line}`))
        .join('\n');
      return `[^${noteName(node)}]: ${body}\n\n`;
    },
  });
}

/** The name of a footnote definition `<li id="fn:<name>">`, else undefined. */
function noteName(node: Node): string | undefined {
  return nameAfter((node as Element).getAttribute?.('id') ?? '', 'fn:');
}
