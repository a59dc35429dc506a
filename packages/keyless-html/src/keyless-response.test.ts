import { describe, expect, it } from 'vitest';
import { readHeader } from './keyless-response.js';

describe('readHeader', () => {
  it('reads a record with lower-case names', () => {
    expect(readHeader({ location: '/sp/captcha' }, 'Location')).toBe('/sp/captcha');
  });

  it('reads a record whose names are not lower case', () => {
    expect(readHeader({ Location: '/sp/captcha' }, 'location')).toBe('/sp/captcha');
  });

  it('joins repeated values of a record', () => {
    expect(readHeader({ 'retry-after': ['5', '10'] }, 'retry-after')).toBe('5, 10');
  });

  it('reads a Fetch API Headers object', () => {
    expect(readHeader(new Headers({ Location: 'https://example.com/' }), 'location')).toBe(
      'https://example.com/',
    );
  });

  it('gives undefined for an absent header in either shape', () => {
    expect(readHeader({}, 'location')).toBeUndefined();
    expect(readHeader({ location: undefined }, 'location')).toBeUndefined();
    expect(readHeader(new Headers(), 'location')).toBeUndefined();
  });
});
