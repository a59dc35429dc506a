import { describe, expect, it } from 'vitest';
import { locateJsonError } from './locate-json-error.js';

describe('locateJsonError', () => {
  it('finds nothing wrong in valid JSON', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0']) {
      expect(locateJsonError(text), text).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it('points at the offending character with line and column', () => {
    const text = '{\n  "tools": {\n    "web": { "coordination": }\n  }\n}';
    expect(locateJsonError(text)).toEqual({
      offset: text.indexOf('}'),
      line: 3,
      column: 30,
      reason: "expected a value, found '}'",
    });
  });

  it('reports trailing commas, missing commas, early ends and trailing garbage', () => {
    expect(locateJsonError('{"a": 1,}')).toMatchObject({ offset: 8, line: 1, column: 9 });
    expect(locateJsonError('{"a": 1 "b": 2}')).toMatchObject({ offset: 8 });
    expect(locateJsonError('{"a": 1')).toMatchObject({ offset: 7, reason: expect.stringContaining('ends') });
    expect(locateJsonError('')).toMatchObject({ offset: 0, line: 1, column: 1 });
    expect(locateJsonError('[1, 2] x')).toMatchObject({
      offset: 7,
      reason: "unexpected 'x' after the JSON value",
    });
    expect(locateJsonError("{'a': 1}")).toMatchObject({ offset: 1 });
    expect(locateJsonError('[01]')).toMatchObject({ offset: 2 });
    expect(locateJsonError('{"a": tru}')).toMatchObject({ offset: 6 });
  });

  it('reports string errors without quoting the text', () => {
    const location = locateJsonError('{"key": "sk-secret\nvalue"}');
    expect(location).toMatchObject({
      line: 1,
      column: 19,
      reason: 'control character U+000a inside a string',
    });
    expect(JSON.stringify(location)).not.toContain('secret');
    expect(locateJsonError('["\\x"]')).toMatchObject({ offset: 3, reason: 'invalid escape in a string' });
    expect(locateJsonError('["\\u12"]')).toMatchObject({ reason: 'invalid \\u escape' });
    expect(locateJsonError('["open')).toMatchObject({ reason: 'unterminated string' });
  });

  it('still answers for absurdly deep nesting', () => {
    expect(locateJsonError(`${'['.repeat(200_000)}x`)).toBeDefined();
  });
});
