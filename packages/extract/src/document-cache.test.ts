import { describe, expect, it } from 'vitest';
import {
  createDocumentCache,
  documentCacheKey,
  MAX_CACHED_DOCUMENTS,
  MAX_CACHED_TEXT_BYTES,
} from './document-cache.js';
import type { ExtractedDocument } from './types.js';

const document = (content: string): ExtractedDocument => ({
  url: 'https://example.org/',
  kind: 'text',
  format: 'markdown',
  content,
  charset: 'utf-8',
  charsetSource: 'default',
  replacementCount: 0,
  stage: 'text',
  parserFailures: [],
});

describe('createDocumentCache', () => {
  it(`holds ${MAX_CACHED_DOCUMENTS} documents and evicts the least recently used for one more`, () => {
    const cache = createDocumentCache();
    for (let index = 0; index < MAX_CACHED_DOCUMENTS; index++) cache.set(`k${index}`, document(`d${index}`));
    expect(cache.size).toBe(MAX_CACHED_DOCUMENTS);
    expect(cache.get('k0')?.content).toBe('d0');
    cache.set('extra', document('extra'));
    expect(cache.size).toBe(MAX_CACHED_DOCUMENTS);
    expect(cache.get('k0')?.content).toBe('d0');
    expect(cache.get('k1')).toBeUndefined();
  });

  it('holds exactly 32 MiB of text and evicts for one byte more', () => {
    const cache = createDocumentCache();
    const half = MAX_CACHED_TEXT_BYTES / 2;
    cache.set('a', document('a'.repeat(half)));
    cache.set('b', document('é'.repeat(half / 2)));
    expect(cache.textBytes).toBe(MAX_CACHED_TEXT_BYTES);
    expect(cache.size).toBe(2);
    cache.set('c', document('c'));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.textBytes).toBe(half + 1);
  });

  it('refuses a document larger than the whole text budget and keeps the rest', () => {
    const cache = createDocumentCache();
    cache.set('small', document('small'));
    expect(cache.set('huge', document('x'.repeat(MAX_CACHED_TEXT_BYTES + 1)))).toBe(false);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')?.content).toBe('small');
  });

  it('accepts lower bounds and rejects higher ones', () => {
    const cache = createDocumentCache({ maxDocuments: 1 });
    cache.set('a', document('a'));
    cache.set('b', document('b'));
    expect([cache.size, cache.get('a')]).toEqual([1, undefined]);
    expect(() => createDocumentCache({ maxDocuments: MAX_CACHED_DOCUMENTS + 1 })).toThrow(/maxDocuments/);
    expect(() => createDocumentCache({ maxTextBytes: MAX_CACHED_TEXT_BYTES + 1 })).toThrow(/maxTextBytes/);
  });

  it('replacing a key frees its old text and clear() empties everything', () => {
    const cache = createDocumentCache();
    cache.set('a', document('1234'));
    cache.set('a', document('12'));
    expect([cache.size, cache.textBytes]).toEqual([1, 2]);
    cache.clear();
    expect([cache.size, cache.textBytes]).toEqual([0, 0]);
  });
});

describe('documentCacheKey', () => {
  const base = { url: 'https://example.org/', format: 'markdown', policy: { mode: 'all' } };

  it('ignores header name case and order, and key order in the policy', () => {
    expect(documentCacheKey({ ...base, headers: { Accept: 'a', 'User-Agent': 'u' } })).toBe(
      documentCacheKey({ ...base, headers: { 'user-agent': 'u', accept: 'a' } }),
    );
    expect(documentCacheKey({ ...base, policy: { mode: 'allowlist', hosts: ['a'] } })).toBe(
      documentCacheKey({ ...base, policy: { hosts: ['a'], mode: 'allowlist' } }),
    );
  });

  it('separates URL, headers, format, policy and settings', () => {
    const key = documentCacheKey(base);
    expect(documentCacheKey({ ...base, url: 'https://example.org/x' })).not.toBe(key);
    expect(documentCacheKey({ ...base, headers: { accept: 'text/html' } })).not.toBe(key);
    expect(documentCacheKey({ ...base, format: 'text' })).not.toBe(key);
    expect(documentCacheKey({ ...base, policy: { mode: 'localhost' } })).not.toBe(key);
    expect(documentCacheKey({ ...base, settings: { render: 'auto' } })).not.toBe(key);
    expect(documentCacheKey({ ...base, policy: { hosts: new Set(['a']) } })).not.toBe(
      documentCacheKey({ ...base, policy: { hosts: new Set(['b']) } }),
    );
  });
});
