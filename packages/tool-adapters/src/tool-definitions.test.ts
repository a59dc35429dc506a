import { describe, expect, it } from 'vitest';
import {
  MAX_ALTERNATE_QUERIES,
  MAX_FETCH_LINES,
  parseToolArguments,
  WEB_SEARCH_DESCRIPTION,
  WebFetchInput,
  WebSearchInput,
} from './tool-definitions.js';
import { webFetchJsonSchema, webSearchJsonSchema } from './tool-json-schemas.js';

describe('WebSearch arguments', () => {
  it('accepts a full call and keeps the query exactly', () => {
    const parsed = parseToolArguments(WebSearchInput, {
      query: '"exact phrase" site:example.com',
      alternate_queries: ['a', 'b', 'c'],
      limit: 10,
      domains: ['example.com'],
      exclude_domains: ['ads.example.com'],
      language: 'pt-BR',
      time_range: 'month',
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: { query: '"exact phrase" site:example.com', limit: 10 },
    });
  });

  it.each([
    [{ query: '' }, 'query'],
    [{ query: 'q', limit: 0 }, 'limit'],
    [{ query: 'q', limit: 11 }, 'limit'],
    [{ query: 'q', limit: 2.5 }, 'limit'],
    [{ query: 'q', alternate_queries: Array(MAX_ALTERNATE_QUERIES + 1).fill('x') }, 'alternate_queries'],
    [{ query: 'q', time_range: 'week' }, 'time_range'],
    [{ query: 'q', sort: 'date' }, 'sort'],
  ])('rejects %j naming %s', (input, field) => {
    const parsed = parseToolArguments(WebSearchInput, input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(field);
  });

  it('teaches the research habit', () => {
    expect(WEB_SEARCH_DESCRIPTION).toMatch(/one broad query/i);
    expect(WEB_SEARCH_DESCRIPTION).toMatch(/WebFetch/);
    expect(WEB_SEARCH_DESCRIPTION).toMatch(/do not sleep, retry/i);
  });
});

describe('WebFetch arguments', () => {
  it('accepts the bounds and rejects past them', () => {
    expect(
      parseToolArguments(WebFetchInput, { url: 'https://example.com/', max_lines: MAX_FETCH_LINES }).ok,
    ).toBe(true);
    expect(
      parseToolArguments(WebFetchInput, { url: 'https://example.com/', max_lines: MAX_FETCH_LINES + 1 }).ok,
    ).toBe(false);
    expect(parseToolArguments(WebFetchInput, { url: 'https://example.com/', start_line: 0 }).ok).toBe(false);
  });

  it('allows only the four request headers and http(s) URLs', () => {
    expect(
      parseToolArguments(WebFetchInput, {
        url: 'http://example.com/',
        headers: { 'Accept-Language': 'de', Range: 'bytes=0-9' },
      }).ok,
    ).toBe(true);
    const cookie = parseToolArguments(WebFetchInput, {
      url: 'https://example.com/',
      headers: { Cookie: 'a=b' },
    });
    expect(cookie.ok).toBe(false);
    if (!cookie.ok) expect(cookie.message).toContain('Cookie');
    expect(parseToolArguments(WebFetchInput, { url: 'file:///etc/passwd' }).ok).toBe(false);
    expect(parseToolArguments(WebFetchInput, { url: 'not a url' }).ok).toBe(false);
  });
});

describe('JSON Schemas', () => {
  it('are generated from the valibot schemas with bounds and descriptions', () => {
    const search = webSearchJsonSchema() as {
      properties: Record<
        string,
        { maximum?: number; maxItems?: number; description?: string; enum?: string[] }
      >;
      required: string[];
      additionalProperties: boolean;
    };
    expect(search.required).toEqual(['query']);
    expect(search.additionalProperties).toBe(false);
    expect(search.properties.limit).toMatchObject({ minimum: 1, maximum: 10 });
    expect(search.properties.alternate_queries?.maxItems).toBe(3);
    expect(search.properties.time_range?.enum).toEqual(['day', 'month', 'year']);
    const fetch = webFetchJsonSchema() as {
      properties: Record<string, { maximum?: number }>;
      required: string[];
    };
    expect(fetch.required).toEqual(['url']);
    expect(fetch.properties.max_lines?.maximum).toBe(10_000);
  });
});

describe('argument errors in plain words', () => {
  const jargon = /Expected never|Invalid (type|key|value|length|integer|format)|received undefined/;

  it.each([
    [{}, 'url: is required'],
    [{ url: 'notaurl' }, 'url: must be an absolute URL (got "notaurl")'],
    [{ url: 'ftp://example.com/' }, 'url: must be an http:// or https:// URL (got "ftp://example.com/")'],
    [{ url: 'https://example.com/', max_lines: 0 }, 'max_lines: must be at least 1 (got 0)'],
    [{ url: 'https://example.com/', max_lines: 10_001 }, 'max_lines: must be at most 10000 (got 10001)'],
    [{ url: 'https://example.com/', start_line: 1.5 }, 'start_line: must be a whole number (got 1.5)'],
    [
      { url: 'https://example.com/', format: 'html' },
      'format: must be one of "markdown", "text" or "raw" (got "html")',
    ],
    [
      { url: 'https://example.com/', headers: { Cookie: 'a' } },
      'headers.Cookie: is not allowed in headers; only Accept, Accept-Language, Range and User-Agent may be set',
    ],
    ['text', 'arguments: must be an object with named arguments (got "text")'],
  ])('WebFetch %j: %s', (input, expected) => {
    const parsed = parseToolArguments(WebFetchInput, input);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toBe(`invalid arguments: ${expected}`);
    expect(parsed.message).not.toMatch(jargon);
  });

  it('names an unknown argument with the tool and its arguments, once per field', () => {
    const parsed = parseToolArguments(WebSearchInput, { query: 'q', sort: 'date', language: 'english' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect([...parsed.problems].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'language', message: 'must be a language tag such as en or pt-BR (got "english")' },
      {
        field: 'sort',
        message:
          'is not a WebSearch argument; its arguments are query, alternate_queries, limit, domains, exclude_domains, language and time_range',
      },
    ]);
  });
});
