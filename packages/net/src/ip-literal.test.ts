import { isIP as nodeIsIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isIP } from './ip-literal.js';

describe('isIP', () => {
  it('answers as node:net does for addresses, near-addresses and names', () => {
    const inputs = [
      '127.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1..2.3',
      '.',
      '',
      '1234',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      'fe80::1%eth0',
      '2001:db8::1',
      '2001:db8:::1',
      '[::1]',
      ':',
      'example.com',
      'localhost',
      '127.0.0.1.nip.io',
      '1e3',
      '0x7f.0.0.1',
      '١٢٧.0.0.1',
      '127.0.0.1 ',
    ];
    for (const input of inputs) expect([input, isIP(input)]).toEqual([input, nodeIsIP(input)]);
  });
});
