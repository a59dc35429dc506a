import { countWords, trigramAt, words } from './choose-article.js';
import { fenceAfter } from './markdown-fences.js';

/**
 * The share of a quotation's word trigrams that must already stand earlier in the article for the
 * quotation to be a repeat: forum engines put the post a reply answers, whole or cut, at the top of
 * the reply, so a thread of ten replies can hold its first post ten times over.
 */
export const REPEATED_QUOTE_MIN_SHARE = 0.8;

/** A Markdown blockquote line (up to three spaces of indent, as CommonMark allows). */
const QUOTE_LINE = /^ {0,3}>/;

/** The most words a quotation's first line may have to be read as its attribution ("Ann said:"). */
const ATTRIBUTION_MAX_WORDS = 8;

/** Markdown with each link's target left out (`[text](url)` read as `[text]`). */
function withoutLinkTargets(markdown: string): string {
  return markdown.replace(/\]\([^)]*\)/g, ']');
}

/** Whether a quotation's first line names who is quoted: a few words ending in a colon. */
function isAttribution(line: string): boolean {
  const text = line
    .replace(QUOTE_LINE, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();
  return text.endsWith(':') && countWords(text) <= ATTRIBUTION_MAX_WORDS;
}

/**
 * Removes the blockquotes of an article's Markdown whose text the article already gave before them
 * ({@link REPEATED_QUOTE_MIN_SHARE} of their word trigrams, matched without case): a reply quoting
 * the post above it, a pull quote repeating a story's sentence. A quotation of anything new (a
 * source, an error message, the words of a post the page does not show) stays. Lines inside fenced
 * code blocks are never read as quotations.
 */
export function dropRepeatedQuotes(markdown: string): string {
  if (!/^ {0,3}>/m.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  const kept: string[] = [];
  const reader = trigramReader();
  let fence: string | undefined;
  let dropped = false;
  for (let index = 0; index < lines.length; ) {
    const line = lines[index] ?? '';
    if (fence === undefined && QUOTE_LINE.test(line)) {
      const end = quoteEnd(lines, index);
      const quote = lines.slice(index, end);
      const attributed = quote.length > 1 && isAttribution(line);
      if (isRepeatedQuote(quote, attributed, reader.seen)) {
        dropped = true;
        // "Ann said:" stays, so that the reply still says whom it answers.
        if (attributed) kept.push(line);
      } else {
        const block = quote.join('\n');
        kept.push(block);
        reader.read(block);
      }
      index = end;
      continue;
    }
    fence = fenceAfter(line, fence);
    kept.push(line);
    reader.read(line);
    index++;
  }
  return dropped
    ? kept
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : markdown;
}

/** The word trigrams of the text read so far, read across the ends of lines and blocks. */
function trigramReader(): { seen: Set<string>; read: (text: string) => void } {
  const seen = new Set<string>();
  const last: string[] = [];
  const read = (text: string) => {
    for (const word of words(text.toLowerCase())) {
      last.push(word);
      if (last.length > 3) last.shift();
      if (last.length === 3) seen.add(trigramAt(last, 0));
    }
  };
  return { seen, read };
}

/** The index after the last line of the blockquote that starts at `index`. */
function quoteEnd(lines: readonly string[], index: number): number {
  let end = index + 1;
  while (end < lines.length && QUOTE_LINE.test(lines[end] ?? '')) end++;
  return end;
}

/**
 * Whether a blockquote (its lines) repeats what was read before it: at least
 * {@link REPEATED_QUOTE_MIN_SHARE} of its word trigrams are in `seen`.
 */
function isRepeatedQuote(quote: readonly string[], attributed: boolean, seen: ReadonlySet<string>): boolean {
  // What the quotation says: its attribution and the targets of its links are not compared.
  const said = withoutLinkTargets(quote.slice(attributed ? 1 : 0).join('\n'));
  const blockWords = words(said.toLowerCase());
  let shared = 0;
  for (let at = 0; at + 2 < blockWords.length; at++) {
    if (seen.has(trigramAt(blockWords, at))) shared++;
  }
  const trigrams = Math.max(0, blockWords.length - 2);
  // A callout (`> [!WARNING]`) is the page's own text, which a page may well say twice.
  const callout = /^ {0,3}> ?\[!/.test(quote[0] ?? '');
  return !callout && trigrams > 0 && shared >= REPEATED_QUOTE_MIN_SHARE * trigrams;
}
