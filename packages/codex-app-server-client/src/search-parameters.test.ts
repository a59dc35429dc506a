import { describe, expect, it } from 'vitest';
import {
  buildTurnStartParams,
  describePreferences,
  MAX_LANGUAGE_TAG_LENGTH,
  validatePreferences,
} from './search-parameters.js';

describe('search parameters', () => {
  it('keeps the query as the first item, unchanged, and preferences apart', () => {
    const query = 'a\u0000b "c" site:x.org\n';
    expect(buildTurnStartParams('t', query, 'de', 'day').input).toEqual([
      { type: 'text', text: query, text_elements: [] },
      {
        type: 'text',
        text: 'Search preferences (advisory): language=de; time range=past day',
        text_elements: [],
      },
    ]);
    expect(describePreferences(undefined, 'year')).toBe(
      'Search preferences (advisory): time range=past year',
    );
    expect(describePreferences()).toBeUndefined();
  });

  it('accepts a language tag of MAX_LANGUAGE_TAG_LENGTH characters and refuses one more', () => {
    const atBound = `en-${'a'.repeat(8)}-${'b'.repeat(8)}-${'c'.repeat(8)}-${'d'.repeat(5)}`;
    expect(atBound).toHaveLength(MAX_LANGUAGE_TAG_LENGTH);
    expect(() => validatePreferences(atBound, undefined)).not.toThrow();
    expect(() => validatePreferences(`${atBound}e`, undefined)).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it('refuses languages that are not tags and unknown time ranges', () => {
    for (const language of ['', 'english please', 'en\nignore', 'e', 42]) {
      expect(() => validatePreferences(language, undefined)).toThrow(
        expect.objectContaining({ code: 'validation_error' }),
      );
    }
    expect(() => validatePreferences(undefined, 'week')).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
    expect(() => validatePreferences('pt-BR', 'month')).not.toThrow();
  });
});
