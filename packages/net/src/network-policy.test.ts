import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { MAX_ALLOW_ENTRIES, parseAllowEntry, parseNetworkPolicy } from './network-policy.js';

function validationError(run: () => unknown): WebToolError {
  try {
    run();
  } catch (error) {
    if (WebToolError.isInstance(error, 'validation_error')) return error;
    throw error;
  }
  throw new Error('expected a validation_error');
}

describe('parseNetworkPolicy', () => {
  it('accepts every mode', () => {
    for (const mode of ['none', 'localhost', 'allowlist', 'all'] as const) {
      expect(parseNetworkPolicy({ mode })).toEqual({ mode });
    }
  });

  it('normalises allow entries', () => {
    const policy = parseNetworkPolicy({
      mode: 'allowlist',
      allow: [
        'Example.COM',
        'api.example.com:8443',
        '127.1',
        '[::1]:8080',
        '::1',
        '10.1.2.3/8',
        'FC00::/7',
        'bücher.de',
      ],
    });
    expect(policy.allow).toEqual([
      'example.com',
      'api.example.com:8443',
      '127.0.0.1',
      '[::1]:8080',
      '::1',
      '10.0.0.0/8',
      'fc00::/7',
      'xn--bcher-kva.de',
    ]);
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it('rejects a bad mode, unknown fields and non-arrays', () => {
    expect(validationError(() => parseNetworkPolicy({ mode: 'public' })).details).toMatchObject({
      field: 'mode',
    });
    expect(validationError(() => parseNetworkPolicy({ mode: 'all', extra: 1 })).details).toMatchObject({
      field: 'extra',
    });
    validationError(() => parseNetworkPolicy({ mode: 'all', allow: 'example.com' }));
    validationError(() => parseNetworkPolicy(null));
    validationError(() => parseNetworkPolicy('all'));
  });

  it('refuses allow entries under mode none', () => {
    validationError(() => parseNetworkPolicy({ mode: 'none', allow: ['example.com'] }));
  });

  it.each([
    'http://example.com',
    'example.com/path',
    '*.example.com',
    'user@example.com',
    'example.com:0',
    'example.com:65536',
    'example.com:',
    '10.0.0.0/33',
    '::1/129',
    'example.com/8',
    '',
    ' ',
    'exa mple.com',
  ])('names the bad entry %j', (entry) => {
    const error = validationError(() => parseNetworkPolicy({ mode: 'allowlist', allow: [entry] }));
    expect(error.details).toMatchObject({ entry: entry.trim() });
  });

  it('keeps IPv4-compatible IPv6 entries apart from IPv4-mapped ones', () => {
    const policy = parseNetworkPolicy({ mode: 'allowlist', allow: ['::127.0.0.1/128', '::127.0.0.1'] });
    expect(policy.allow).toEqual(['::7f00:1/128', '::7f00:1']);
  });

  it('rejects a non-string entry', () => {
    validationError(() => parseAllowEntry(42));
  });

  it(`accepts ${MAX_ALLOW_ENTRIES} entries and refuses one more`, () => {
    const entries = Array.from({ length: MAX_ALLOW_ENTRIES }, (_, index) => `host${index}.example`);
    expect(parseNetworkPolicy({ mode: 'allowlist', allow: entries }).allow).toHaveLength(MAX_ALLOW_ENTRIES);
    const error = validationError(() =>
      parseNetworkPolicy({ mode: 'allowlist', allow: [...entries, 'one-more.example'] }),
    );
    expect(error.details).toMatchObject({ limit: MAX_ALLOW_ENTRIES });
  });
});
