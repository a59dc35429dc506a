import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import {
  filterByDomains,
  hostInDomain,
  MAX_DOMAIN_FILTER_ENTRIES,
  parseDomain,
  parseDomainList,
} from './domain-filter.js';

const result = (url: string) => ({ url, title: url, snippet: '' });

describe('parseDomain', () => {
  it('accepts bare domains, URLs, wildcards and IDNs', () => {
    expect(parseDomain('Example.COM')).toBe('example.com');
    expect(parseDomain('https://docs.example.com/path?q=1')).toBe('docs.example.com');
    expect(parseDomain('*.example.com')).toBe('example.com');
    expect(parseDomain('.example.com')).toBe('example.com');
    expect(parseDomain('bücher.de')).toBe('xn--bcher-kva.de');
  });

  it('rejects what is not a host name', () => {
    for (const input of [
      '',
      'localhost',
      'exa mple.com',
      'https://u:p@example.com',
      'example.com:8080',
      '[::1]',
    ]) {
      expect(() => parseDomain(input), input).toThrowError(WebToolError);
    }
  });
});

describe('parseDomainList', () => {
  it('de-duplicates and enforces the entry bound at and past the limit', () => {
    expect(parseDomainList(['a.com', 'A.com', 'b.org'], 'domains')).toEqual(['a.com', 'b.org']);
    const atLimit = Array.from({ length: MAX_DOMAIN_FILTER_ENTRIES }, (_, index) => `d${index}.com`);
    expect(parseDomainList(atLimit, 'domains')).toHaveLength(MAX_DOMAIN_FILTER_ENTRIES);
    expect(() => parseDomainList([...atLimit, 'one-more.com'], 'domains')).toThrow(/at most 20/);
    expect(parseDomainList(undefined, 'domains')).toEqual([]);
  });
});

describe('filterByDomains', () => {
  const results = [
    result('https://example.com/a'),
    result('https://docs.example.com/b'),
    result('https://notexample.com/c'),
    result('https://ads.example.com/d'),
    result('https://other.org/e'),
  ];

  it('treats a domain as covering its subdomains but not look-alikes', () => {
    expect(hostInDomain('docs.example.com', 'example.com')).toBe(true);
    expect(hostInDomain('notexample.com', 'example.com')).toBe(false);
    expect(hostInDomain('example.com', 'docs.example.com')).toBe(false);
  });

  it('keeps only included domains and lets exclusion win', () => {
    const outcome = filterByDomains(results, {
      domains: ['example.com'],
      excludeDomains: ['ads.example.com'],
    });
    expect(outcome.kept.map((entry) => entry.url)).toEqual([
      'https://example.com/a',
      'https://docs.example.com/b',
    ]);
    expect(outcome.outsideDomains).toBe(2);
    expect(outcome.excluded).toBe(1);
  });

  it('passes everything when no filter is given', () => {
    expect(filterByDomains(results, { domains: [], excludeDomains: [] }).kept).toHaveLength(results.length);
  });
});
