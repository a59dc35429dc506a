import { describe, expect, it } from 'vitest';
import {
  assertResultLimit,
  canonicalLanguageTag,
  MAX_RESULT_LIMIT,
  MIN_RESULT_LIMIT,
} from './search-request.js';

describe('assertResultLimit', () => {
  it('accepts no limit and every integer from the lower to the upper bound', () => {
    expect(() => assertResultLimit(undefined)).not.toThrow();
    for (let limit = MIN_RESULT_LIMIT; limit <= MAX_RESULT_LIMIT; limit += 1) {
      expect(() => assertResultLimit(limit)).not.toThrow();
    }
  });

  it.each([MIN_RESULT_LIMIT - 1, MAX_RESULT_LIMIT + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects %d',
    (limit) => {
      expect(() => assertResultLimit(limit)).toThrow(RangeError);
    },
  );
});

describe('canonicalLanguageTag', () => {
  it.each([
    ['en', 'en'],
    ['EN-us', 'en-US'],
    ['pt_br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    [' de-CH ', 'de-CH'],
  ])('writes %j as %j', (input, output) => {
    expect(canonicalLanguageTag(input)).toBe(output);
  });

  it.each([undefined, '', 'english', 'en;q=0.9', 'en\r\nx: y', 'e'])('refuses %j', (input) => {
    expect(canonicalLanguageTag(input)).toBeUndefined();
  });
});
