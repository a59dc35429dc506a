import { countWords } from './choose-article.js';
import { fenceAfter } from './markdown-fences.js';

/**
 * Words of blocks given before, one after another, from which they are a second copy of a section
 * and removed. Pages draw some sections twice (a desktop and a mobile layout, a tab strip and an
 * accordion of the same panels, a story and its "print" copy), and the extractors keep both. Blocks
 * that repeat among new ones stay (a meal plan's lunch on three days under each day's own heading, a
 * refrain, "Read more" under every teaser): a copy runs over several blocks, headings included,
 * that nothing new interrupts.
 */
export const REPEATED_SECTION_MIN_WORDS = 250;

/**
 * The share of the article's words a copy must also hold. A page drawn twice repeats a large part
 * of itself; a long plan or schedule that gives an earlier day again under its own heading repeats
 * a small part (a Zyte meal plan: 12 %), and its reader wants it as written.
 */
export const REPEATED_SECTION_MIN_SHARE = 0.15;

interface Block {
  /** The block's lines, as they stand in the Markdown (its blank separator line included). */
  lines: string[];
  /** Fenced code, never compared. */
  code: boolean;
  words: number;
}

/**
 * Removes from an article's Markdown the second copy of a section the page gave twice: a run of
 * blocks (paragraphs, headings, lists, tables) each identical to one given earlier, holding
 * {@link REPEATED_SECTION_MIN_WORDS} words or more and {@link REPEATED_SECTION_MIN_SHARE} of the
 * article's. Fenced code is never compared and ends a run.
 */
export function dropRepeatedSections(markdown: string): string {
  const blocks = splitBlocks(markdown);
  const seen = new Set<string>();
  const repeated = blocks.map((block) => {
    if (block.code || block.words === 0) return false;
    const key = block.lines.join('\n').trim();
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  let totalWords = 0;
  for (const block of blocks) totalWords += block.words;
  const dropped = new Set<number>();
  for (let index = 0; index < blocks.length; ) {
    if (!repeated[index]) {
      index++;
      continue;
    }
    let end = index;
    let runWords = 0;
    for (; end < blocks.length && repeated[end]; end++) runWords += blocks[end]?.words ?? 0;
    if (runWords >= REPEATED_SECTION_MIN_WORDS && runWords >= REPEATED_SECTION_MIN_SHARE * totalWords)
      for (let member = index; member < end; member++) dropped.add(member);
    index = end;
  }
  if (dropped.size === 0) return markdown;
  const kept = blocks
    .filter((_, index) => !dropped.has(index))
    .flatMap((block) => block.lines)
    .join('\n');
  // A copy at the end leaves the blank line that stood before it.
  return markdown.endsWith('\n') ? kept : kept.replace(/\n+$/, '');
}

/**
 * The Markdown's blocks: runs of lines up to a blank line (which belongs to the block before it).
 * A fenced code block is one block whatever blank lines it holds.
 */
function splitBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let fence: string | undefined;
  let code = false;
  const close = () => {
    if (lines.length === 0) return;
    blocks.push({ lines, code, words: code ? 0 : countWords(lines.join(' ')) });
    lines = [];
    code = false;
  };
  for (const line of markdown.split('\n')) {
    const after = fenceAfter(line, fence);
    if (fence === undefined && after !== undefined) {
      // A fence opens a block of its own.
      close();
      code = true;
    }
    const inCode = fence !== undefined || after !== undefined;
    fence = after;
    lines.push(line);
    if (!inCode && line.trim() === '') close();
  }
  close();
  return blocks;
}
