import { WebToolError } from '@mono-agent/budget-policy';

/** The most lines one slice may ask for. */
export const MAX_SLICE_LINES = 10_000;
/** The fewest lines one slice may ask for. */
export const MIN_SLICE_LINES = 1;
/** Lines returned when a start line is given without a line count. */
export const DEFAULT_SLICE_LINES = 200;

/** Which part of a document to return. */
export interface SliceOptions {
  /** The first line to return, 1-based. */
  startLine?: number | undefined;
  /** How many lines to return, 1–10000; 200 when only `startLine` is given. */
  maxLines?: number | undefined;
  /** The most characters (UTF-16 code units, newlines included) the slice may hold. */
  maxOutputChars?: number | undefined;
}

/** A bounded run of whole lines from a document. */
export interface DocumentSlice {
  /** The selected lines, joined by `\n`. */
  content: string;
  /** The first line returned, 1-based. */
  startLine: number;
  /** The last line returned, 1-based; `startLine - 1` when no line was returned. */
  endLine: number;
  /** The number of lines in the whole document. */
  totalLines: number;
  /** The line to start the next slice at, when lines remain after this one. */
  nextLine: number | undefined;
  /** Whether the character budget, not the line count or the end, ended the slice. */
  truncatedByChars: boolean;
  /**
   * When the whole document was asked for and its first line alone is over the budget: that line's
   * number and length. The slice then holds the line's first `maxOutputChars` characters.
   */
  cutLine?: { line: number; shownChars: number; lineChars: number } | undefined;
  /** One line telling the reader what they got and how to continue. */
  hint: string;
}

/**
 * Returns whole lines of a document. With neither `startLine` nor `maxLines` the whole document is
 * returned, cut at a line boundary by `maxOutputChars`, or inside the first line when that line alone
 * is over the budget (reported as `cutLine`). When slicing, a line longer than the character budget is
 * a `too_large` error (details: `line`, `lineChars`, `maxOutputChars`), never skipped; bad bounds are
 * `validation_error`s.
 */
export function sliceDocument(content: string, options: SliceOptions = {}): DocumentSlice {
  const { startLine, maxLines, maxOutputChars } = options;
  checkInteger('start_line', startLine, 1, Number.MAX_SAFE_INTEGER);
  checkInteger('max_lines', maxLines, MIN_SLICE_LINES, MAX_SLICE_LINES);
  checkInteger('max_output_chars', maxOutputChars, 1, Number.MAX_SAFE_INTEGER);

  const lines = splitLines(content);
  const totalLines = lines.length;
  const first = startLine ?? 1;
  if (first > Math.max(totalLines, 1)) {
    throw new WebToolError({
      code: 'validation_error',
      message: `start_line ${first} is past the end of the document, which has ${totalLines} lines.`,
      details: { startLine: first, totalLines },
    });
  }
  const wholeDocument = startLine === undefined && maxLines === undefined;
  const lineCount = wholeDocument ? totalLines : (maxLines ?? DEFAULT_SLICE_LINES);
  const budget = maxOutputChars ?? Number.POSITIVE_INFINITY;

  const selected: string[] = [];
  let used = 0;
  let truncatedByChars = false;
  for (let index = first - 1; index < totalLines && selected.length < lineCount; index++) {
    const line = lines[index] ?? '';
    const cost = line.length + (selected.length > 0 ? 1 : 0);
    if (used + cost > budget) {
      if (selected.length === 0) {
        if (wholeDocument) return cutFirstLine(line, budget, totalLines);
        throw new WebToolError({
          code: 'too_large',
          message: `Line ${index + 1} alone is ${line.length} characters, over max_output_chars ${budget}.`,
          details: { line: index + 1, lineChars: line.length, maxOutputChars: budget },
        });
      }
      truncatedByChars = true;
      break;
    }
    selected.push(line);
    used += cost;
  }
  const endLine = first + selected.length - 1;
  const nextLine = endLine < totalLines ? endLine + 1 : undefined;
  return {
    content: selected.join('\n'),
    startLine: first,
    endLine,
    totalLines,
    nextLine,
    truncatedByChars,
    hint: continuationHint(first, endLine, totalLines, nextLine, truncatedByChars),
  };
}

/** The capped whole document when its first line alone is over the budget: that line's prefix. */
function cutFirstLine(line: string, budget: number, totalLines: number): DocumentSlice {
  let shown = line.slice(0, budget);
  // Never end on half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(shown)) shown = shown.slice(0, -1);
  const nextLine = totalLines > 1 ? 2 : undefined;
  const continuation = nextLine === undefined ? 'end of document' : `continue with start_line=${nextLine}`;
  return {
    content: shown,
    startLine: 1,
    endLine: 1,
    totalLines,
    nextLine,
    truncatedByChars: true,
    cutLine: { line: 1, shownChars: shown.length, lineChars: line.length },
    hint: `[showing the first ${shown.length} of ${line.length} characters of line 1 of ${totalLines} (character budget reached); ${continuation}]`,
  };
}

function continuationHint(
  first: number,
  endLine: number,
  totalLines: number,
  nextLine: number | undefined,
  truncatedByChars: boolean,
): string {
  const shown = endLine < first ? `no lines of ${totalLines}` : `lines ${first}-${endLine} of ${totalLines}`;
  if (nextLine === undefined) return `[showing ${shown}; end of document]`;
  const reason = truncatedByChars ? ' (character budget reached)' : '';
  return `[showing ${shown}${reason}; continue with start_line=${nextLine}]`;
}

/** Lines of a text; `\r\n` counts as one break and a final newline does not open an empty line. */
function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function checkInteger(name: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined) return;
  if (Number.isInteger(value) && value >= min && value <= max) return;
  throw new WebToolError({
    code: 'validation_error',
    message: `${name} must be an integer from ${min} to ${max}; got ${String(value).slice(0, 40)}.`,
    details: { field: name, min, max },
  });
}
