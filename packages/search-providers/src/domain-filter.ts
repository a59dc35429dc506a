import { domainToASCII } from 'node:url';
import { WebToolError } from '@mono-agent/budget-policy';
import type { SearchResult } from './search-result.js';

/** The most entries one of `domains` / `exclude_domains` may hold. */
export const MAX_DOMAIN_FILTER_ENTRIES = 20;

/**
 * Turns a user-supplied domain (`example.com`, `https://Docs.Example.com/path`, `*.example.com`,
 * `.example.com`) into a lower-case ASCII host name. Throws `validation_error` for anything that is
 * not a host name.
 */
export function parseDomain(input: string): string {
  const trimmed = input.trim().replace(/^\*\./, '').replace(/^\./, '');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let host: string;
  try {
    const url = new URL(withScheme);
    if (url.username !== '' || url.password !== '' || url.port !== '') throw new Error('not a bare host');
    host = url.hostname;
  } catch {
    host = '';
  }
  if (host === '' || !host.includes('.') || host.startsWith('[') || /[^a-z0-9.-]/.test(host)) {
    throw new WebToolError({
      code: 'validation_error',
      message: `'${input}' is not a domain name (expected something like example.com)`,
      details: { rule: 'domain' },
    });
  }
  return host.replace(/\.$/, '');
}

/** Parses and de-duplicates a domain list, enforcing {@link MAX_DOMAIN_FILTER_ENTRIES}. */
export function parseDomainList(inputs: readonly string[] | undefined, field: string): string[] {
  if (inputs === undefined) return [];
  if (inputs.length > MAX_DOMAIN_FILTER_ENTRIES) {
    throw new WebToolError({
      code: 'validation_error',
      message: `${field} has ${inputs.length} entries; at most ${MAX_DOMAIN_FILTER_ENTRIES} are allowed`,
      details: { rule: 'max_entries', field, limit: MAX_DOMAIN_FILTER_ENTRIES },
    });
  }
  return [...new Set(inputs.map(parseDomain))];
}

/**
 * A host name in the one form hosts are compared in: lower-case ASCII, an internationalized name in
 * its punycode form (`münchen.de` and `xn--mnchen-3ya.de` are one), no trailing dot. `''` when the
 * text is not a host name.
 */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().replace(/\.+$/, '');
  if (trimmed === '') return '';
  const ascii = /^[\x21-\x7e]*$/.test(trimmed) ? trimmed.toLowerCase() : domainToASCII(trimmed);
  return ascii.replace(/\.+$/, '');
}

/**
 * Whether `host` is `domain` or one of its subdomains (`docs.example.com` is in `example.com`), both
 * compared in the form of {@link normalizeHost}.
 */
export function hostInDomain(host: string, domain: string): boolean {
  const normalizedHost = normalizeHost(host);
  const normalizedDomain = normalizeHost(domain);
  if (normalizedDomain === '') return false;
  return normalizedHost === normalizedDomain || normalizedHost.endsWith(`.${normalizedDomain}`);
}

/** What the domain filters did to one list of results. */
export interface DomainFilterOutcome<Result extends SearchResult> {
  /** The results that passed both filters, in their original order. */
  kept: Result[];
  /** How many results lay outside every `domains` entry. */
  outsideDomains: number;
  /** How many results lay inside an `exclude_domains` entry. */
  excluded: number;
}

/**
 * Keeps results whose host lies within one of `domains` (when any are given) and within none of
 * `excludeDomains`. Exclusion wins over inclusion.
 */
export function filterByDomains<Result extends SearchResult>(
  results: readonly Result[],
  filters: { domains: readonly string[]; excludeDomains: readonly string[] },
): DomainFilterOutcome<Result> {
  const kept: Result[] = [];
  let outsideDomains = 0;
  let excluded = 0;
  for (const result of results) {
    const host = new URL(result.url).hostname;
    if (filters.excludeDomains.some((domain) => hostInDomain(host, domain))) {
      excluded += 1;
    } else if (filters.domains.length > 0 && !filters.domains.some((domain) => hostInDomain(host, domain))) {
      outsideDomains += 1;
    } else {
      kept.push(result);
    }
  }
  return { kept, outsideDomains, excluded };
}
