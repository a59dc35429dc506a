import { fenceAfter } from './markdown-fences.js';

/**
 * The labels a page puts over its table of contents, in English and in the languages of the pages
 * most read beside it: "Table of contents", "In this article", "On this page", "Inhaltsverzeichnis",
 * "Sommaire", "Índice"… Compared with a line's text once its heading marks, emphasis and a final
 * colon are left out, without case.
 */
const CONTENTS_LABELS: ReadonlySet<string> = new Set([
  'table of contents',
  'contents',
  'page contents',
  'article contents',
  'in this article',
  'in this post',
  'in this guide',
  'in this page',
  'on this page',
  'jump to',
  'jump to section',
  'inhaltsverzeichnis',
  'inhalt',
  'sommaire',
  'table des matières',
  'índice',
  'indice',
  'contenido',
  'contenidos',
  'inhoud',
  'inhoudsopgave',
  'spis treści',
]);

/** A line that begins a list item, or a link: what a table of contents is written as. */
const LIST_OR_LINK = /^\s*(?:[-*+]\s|\d{1,3}[.)]\s|\[|\*\*\[|__\[)/;

/** A line's text without its heading marks, the emphasis around it and a final colon. */
function labelText(line: string): string {
  return line
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(\*\*|__|\*|_)(.*)\1$/, '$2')
    .replace(/\s*:$/, '')
    .trim()
    .toLowerCase();
}

/**
 * Removes the label of a table of contents whose list is not in the article: a line that is only
 * "Table of contents", "In this article" or "On this page" (as a heading, in bold or plain; see
 * {@link CONTENTS_LABELS}) followed by anything but a list or a link, or by nothing. The stages
 * drop a page's table of contents as a list of links to its own sections, and leave its label over
 * the first paragraph, where it says the article holds a table that it does not. A label over the
 * list it names stays with it. Lines inside fenced code are never read as labels.
 */
export function dropContentsLabels(markdown: string): string {
  const lines = markdown.split('\n');
  const dropped = orphanLabels(lines);
  if (dropped.size === 0) return markdown;
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (dropped.has(index)) {
      // The label's block goes with one of the blank lines around it.
      if (isBlank(lines[index + 1])) index++;
      continue;
    }
    kept.push(lines[index] ?? '');
  }
  const result = kept.join('\n').replace(/^\n+/, '').trimEnd();
  return markdown.endsWith('\n') ? `${result}\n` : result;
}

/** Whether a line is blank, or past the end. */
function isBlank(line: string | undefined): boolean {
  return (line ?? '').trim() === '';
}

/** The indexes of the label lines that {@link dropContentsLabels} removes. */
function orphanLabels(lines: readonly string[]): Set<number> {
  const found = new Set<number>();
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const inside = fence;
    fence = fenceAfter(line, fence);
    if (inside === undefined && fence === undefined && isOrphanLabel(lines, index)) found.add(index);
  }
  return found;
}

/**
 * Whether line `index` is a label of its own (a blank line, or the start, before it and a blank line
 * after it) followed by anything but a list or a link, or by nothing.
 */
function isOrphanLabel(lines: readonly string[], index: number): boolean {
  if (!CONTENTS_LABELS.has(labelText(lines[index] ?? ''))) return false;
  if (index > 0 && !isBlank(lines[index - 1])) return false;
  let next = index + 1;
  if (next < lines.length && !isBlank(lines[next])) return false;
  while (next < lines.length && isBlank(lines[next])) next++;
  return next >= lines.length || !LIST_OR_LINK.test(lines[next] ?? '');
}
