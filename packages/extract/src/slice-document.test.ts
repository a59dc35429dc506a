import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SLICE_LINES, MAX_SLICE_LINES, sliceDocument } from './slice-document.js';

const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

function failure(run: () => unknown): WebToolError {
  try {
    run();
  } catch (error) {
    if (WebToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('sliceDocument', () => {
  it('returns the whole document when neither start nor line count is given', () => {
    const slice = sliceDocument('a\nb\nc\n');
    expect(slice).toMatchObject({
      content: 'a\nb\nc',
      startLine: 1,
      endLine: 3,
      totalLines: 3,
      nextLine: undefined,
    });
    expect(slice.hint).toBe('[showing lines 1-3 of 3; end of document]');
  });

  it(`defaults to ${DEFAULT_SLICE_LINES} lines when only start_line is given`, () => {
    const slice = sliceDocument(numbered(500), { startLine: 201 });
    expect(slice).toMatchObject({ startLine: 201, endLine: 400, totalLines: 500, nextLine: 401 });
    expect(slice.content.split('\n')[0]).toBe('line 201');
    expect(slice.hint).toBe('[showing lines 201-400 of 500; continue with start_line=401]');
  });

  it(`accepts max_lines ${MAX_SLICE_LINES} and rejects ${MAX_SLICE_LINES + 1} and 0`, () => {
    const document = numbered(MAX_SLICE_LINES + 5);
    const slice = sliceDocument(document, { maxLines: MAX_SLICE_LINES });
    expect(slice).toMatchObject({ startLine: 1, endLine: MAX_SLICE_LINES, nextLine: MAX_SLICE_LINES + 1 });
    expect(failure(() => sliceDocument(document, { maxLines: MAX_SLICE_LINES + 1 })).code).toBe(
      'validation_error',
    );
    expect(failure(() => sliceDocument(document, { maxLines: 0 })).code).toBe('validation_error');
    expect(failure(() => sliceDocument(document, { maxLines: 1.5 })).code).toBe('validation_error');
  });

  it('accepts start_line 1 and the last line, and rejects 0 and a line past the end', () => {
    expect(sliceDocument('a\nb', { startLine: 1, maxLines: 1 }).content).toBe('a');
    expect(sliceDocument('a\nb', { startLine: 2 })).toMatchObject({
      content: 'b',
      endLine: 2,
      nextLine: undefined,
    });
    expect(failure(() => sliceDocument('a\nb', { startLine: 0 })).code).toBe('validation_error');
    const past = failure(() => sliceDocument('a\nb', { startLine: 3 }));
    expect(past.code).toBe('validation_error');
    expect(past.details).toMatchObject({ startLine: 3, totalLines: 2 });
  });

  it('handles an empty document', () => {
    expect(sliceDocument('')).toMatchObject({
      content: '',
      startLine: 1,
      endLine: 0,
      totalLines: 0,
      nextLine: undefined,
    });
  });

  it('stops at whole lines when max_output_chars is reached, at the bound and one past it', () => {
    // "aaaa\nbbbb" is 9 characters.
    expect(sliceDocument('aaaa\nbbbb\ncccc', { maxOutputChars: 9 })).toMatchObject({
      content: 'aaaa\nbbbb',
      endLine: 2,
      nextLine: 3,
      truncatedByChars: true,
    });
    expect(sliceDocument('aaaa\nbbbb\ncccc', { maxOutputChars: 8 })).toMatchObject({
      content: 'aaaa',
      endLine: 1,
      nextLine: 2,
    });
    expect(sliceDocument('aaaa\nbbbb\ncccc', { startLine: 2, maxLines: 2, maxOutputChars: 9 }).hint).toBe(
      '[showing lines 2-3 of 3; end of document]',
    );
  });

  it('fails on a line longer than max_output_chars instead of skipping it', () => {
    expect(sliceDocument('12345\nx', { maxOutputChars: 5, maxLines: 1 }).content).toBe('12345');
    const error = failure(() => sliceDocument('ok\n123456\nx', { startLine: 2, maxOutputChars: 5 }));
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({ line: 2, lineChars: 6, maxOutputChars: 5 });
    expect(error.message).toContain('over max_output_chars 5');
    expect(failure(() => sliceDocument('x', { maxOutputChars: 0 })).code).toBe('validation_error');
  });

  it('returns the capped start of an over-long first line when the whole document is asked for', () => {
    const slice = sliceDocument(`${'a'.repeat(12)}\nbb`, { maxOutputChars: 5 });
    expect(slice).toMatchObject({
      content: 'aaaaa',
      startLine: 1,
      endLine: 1,
      nextLine: 2,
      truncatedByChars: true,
      cutLine: { line: 1, shownChars: 5, lineChars: 12 },
    });
    expect(slice.hint).toContain('first 5 of 12 characters of line 1');
    // At the bound the line fits whole and nothing is cut.
    expect(sliceDocument('aaaaa\nbb', { maxOutputChars: 5 }).cutLine).toBeUndefined();
    // A surrogate pair is never split.
    expect(sliceDocument('ab\u{1F600}cd', { maxOutputChars: 3 }).content).toBe('ab');
  });

  it('treats CRLF as one line break', () => {
    expect(sliceDocument('a\r\nb\r\n')).toMatchObject({ content: 'a\nb', totalLines: 2 });
  });
});
