import { describe, expect, it } from 'vitest';
import { createLineDecoder, MAX_LINE_BYTES } from './line-decoder.js';

const collect = (maxLineBytes?: number) => {
  const lines: string[] = [];
  const oversized: number[] = [];
  const decoder = createLineDecoder(
    { line: (text) => lines.push(text), oversized: (bytes) => oversized.push(bytes) },
    maxLineBytes,
  );
  return { decoder, lines, oversized };
};
const bytes = (text: string) => new TextEncoder().encode(text);

describe('createLineDecoder', () => {
  it('splits merged chunks and joins split ones, including a split UTF-8 character', () => {
    const { decoder, lines } = collect();
    const whole = bytes('{"a":1}\n{"b":"é🦀"}\r\n{"c"');
    decoder.push(whole.subarray(0, 14));
    decoder.push(whole.subarray(14, 17));
    decoder.push(whole.subarray(17));
    decoder.push(bytes(':3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":"é🦀"}', '{"c":3}']);
  });

  it('flushes a last line without newline at the end', () => {
    const { decoder, lines } = collect();
    decoder.push(bytes('tail'));
    decoder.end();
    expect(lines).toEqual(['tail']);
  });

  it('accepts a line of exactly MAX_LINE_BYTES and drops one byte more, then recovers', () => {
    const { decoder, lines, oversized } = collect();
    const atBound = 'x'.repeat(MAX_LINE_BYTES);
    decoder.push(bytes(`${atBound}\n`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toHaveLength(MAX_LINE_BYTES);
    decoder.push(bytes(`${atBound.slice(0, 1000)}`));
    decoder.push(bytes(`${atBound}\nnext\n`));
    expect(oversized).toEqual([MAX_LINE_BYTES + 1000]);
    expect(lines.slice(1)).toEqual(['next']);
  });
});
