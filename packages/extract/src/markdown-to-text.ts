/**
 * Reduces Markdown to readable plain text: heading marks, emphasis, link targets, images, fences
 * and backslash escapes go; paragraph breaks, list items and table cells stay.
 */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      lines.push(line);
      continue;
    }
    lines.push(stripInline(stripBlock(line)));
  }
  return lines
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function stripBlock(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*([-*_]\s*){3,}$/, '')
    .replace(/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/, '');
}

// Escaped characters are parked as a private-use pair (a mark, then the character moved into the
// private-use area) so that emphasis and link rules cannot see them.
const ESCAPE_MARK = '\uE000';
const PARK_OFFSET = 0xe100;
const park = (_match: string, character: string) =>
  `${ESCAPE_MARK}${String.fromCharCode(PARK_OFFSET + character.charCodeAt(0))}`;
const unpark = (_match: string, parked: string) => String.fromCharCode(parked.charCodeAt(0) - PARK_OFFSET);

function stripInline(line: string): string {
  return (
    line
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, park)
      // Images carry no readable text beyond their alt, which usually repeats a caption.
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/!\[[^\]]*\](?!\()/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, '$1$2')
      .replace(/(^|[^\w])_(?=\S)(.+?)(?<=\S)_(?!\w)/g, '$1$2')
      .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
      .replace(/`([^`]+)`/g, '$1')
      .replace(/\uE000([\uE100-\uE17F])/g, unpark)
  );
}
