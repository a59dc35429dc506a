import { htmlToStreamedText } from '../html/html-streamed-text.js';
import { htmlToMarkdown } from '../html/html-to-markdown.js';
import { markdownToText } from '../html/markdown-to-text.js';
import { measureHtml, withinDomBounds } from '../html-bounds.js';
import type { FeedEntry } from './extract-xml.js';

/** Renders feed entries as a Markdown list: linked title, date, then the summary as plain text. */
export async function feedToMarkdown(
  title: string | undefined,
  entries: FeedEntry[],
  url: string,
): Promise<string> {
  const blocks: string[] = [];
  if (title !== undefined) blocks.push(`# ${oneLine(title)}`);
  if (entries.length === 0) blocks.push('No entries.');
  const items: string[] = [];
  for (const entry of entries) {
    const name = escapeBrackets(oneLine(entry.title ?? entry.link ?? 'Untitled entry'));
    let item = entry.link === undefined ? `- **${name}**` : `- [${name}](${entry.link})`;
    if (entry.date !== undefined) item += ` (${oneLine(entry.date)})`;
    if (entry.summary !== undefined) {
      // Summaries are often HTML (escaped in RSS); reduce them to one plain paragraph. One past the
      // DOM stages' bounds (elements, nesting) is read in the linear streaming pass instead.
      const shape = await measureHtml(entry.summary);
      const summary = oneLine(
        withinDomBounds(shape)
          ? markdownToText(await htmlToMarkdown(entry.summary, url))
          : (await htmlToStreamedText(entry.summary, url)).text,
      );
      if (summary !== '') item += `\n  ${summary}`;
    }
    items.push(item);
  }
  if (items.length > 0) blocks.push(items.join('\n'));
  return blocks.join('\n\n');
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function escapeBrackets(value: string): string {
  return value.replace(/[[\]]/g, '\\$&');
}
