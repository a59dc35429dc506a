import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-text.js';

describe('normalizeText', () => {
  it('collapses runs of any whitespace, non-breaking spaces included, and trims', () => {
    expect(normalizeText('\n  Java,\u00a0...\t\r\n  more  ')).toBe('Java, ... more');
  });

  it('leaves single spaces and other characters alone', () => {
    expect(normalizeText('Foo Tokyo｜Official Website（フートウキョウ公式）')).toBe(
      'Foo Tokyo｜Official Website（フートウキョウ公式）',
    );
    expect(normalizeText('')).toBe('');
  });
});
