import { describe, expect, it } from 'vitest';
import { checkAddress, checkHost } from './check-address.js';
import { classifyAddress } from './classify-address.js';
import type { NetworkPolicy } from './network-policy.js';

const all: NetworkPolicy = { mode: 'all' };

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:7f00:1', 'ipv4Mapped'],
    ['::ffff:a9fe:a9fe', 'ipv4Mapped'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['2002:a9fe:a9fe::1', '6to4'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['4000::1', 'nonGlobal'],
    ['fe80::1%eth0', 'linkLocal'],
  ])('%s is not public (%s)', (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ range, public: false });
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(classifyAddress(address)?.public).toBe(true);
  });

  it('refuses text that is not a canonical address', () => {
    expect(classifyAddress('0177.0.0.1')).toBeUndefined();
    expect(classifyAddress('127.1')).toBeUndefined();
    expect(classifyAddress('example.com')).toBeUndefined();
    expect(classifyAddress('[::1]')?.range).toBe('loopback');
  });
});

describe('checkAddress', () => {
  it('admits public addresses under all and names the special range otherwise', () => {
    expect(checkAddress(all, { host: 'example.com', address: '93.184.216.34', port: 443 })).toEqual({
      allowed: true,
      rule: 'public',
    });
    expect(checkAddress(all, { host: 'public.example', address: '127.0.0.1', port: 80 })).toEqual({
      allowed: false,
      rule: 'special-address',
      range: 'loopback',
    });
  });

  it('under localhost admits loopback for IP literals and the name localhost only', () => {
    const policy: NetworkPolicy = { mode: 'localhost' };
    expect(checkAddress(policy, { host: '127.0.0.5', address: '127.0.0.5', port: 80 }).allowed).toBe(true);
    expect(checkAddress(policy, { host: '::1', address: '::1', port: 80 }).allowed).toBe(true);
    expect(checkAddress(policy, { host: 'localhost', address: '127.0.0.1', port: 80 }).allowed).toBe(true);
    expect(checkAddress(policy, { host: 'localhost', address: '10.0.0.1', port: 80 })).toMatchObject({
      allowed: false,
      rule: 'localhost',
    });
    expect(checkAddress(policy, { host: 'public.example', address: '127.0.0.1', port: 80 }).allowed).toBe(
      false,
    );
    expect(checkAddress(policy, { host: '8.8.8.8', address: '8.8.8.8', port: 80 }).allowed).toBe(false);
    expect(
      checkAddress(policy, { host: '::ffff:127.0.0.1', address: '::ffff:7f00:1', port: 80 }).allowed,
    ).toBe(false);
  });

  it('under none refuses everything', () => {
    expect(checkAddress({ mode: 'none' }, { host: '127.0.0.1', address: '127.0.0.1', port: 80 })).toEqual({
      allowed: false,
      rule: 'none',
    });
  });

  it('matches allowlist entries by host, host:port, IP and CIDR', () => {
    const policy: NetworkPolicy = {
      mode: 'allowlist',
      allow: ['search.example', 'api.example:8443', '192.168.1.10', '10.0.0.0/8', '[fd00::5]:9000'],
    };
    const check = (host: string, address: string, port: number) =>
      checkAddress(policy, { host, address, port });
    expect(check('search.example', '10.9.9.9', 80)).toEqual({ allowed: true, rule: 'allow:search.example' });
    expect(check('Search.Example.', '192.0.2.1', 443).allowed).toBe(true);
    expect(check('other.example', '93.184.216.34', 443)).toEqual({ allowed: false, rule: 'allowlist' });
    expect(check('api.example', '93.184.216.34', 8443)).toEqual({
      allowed: true,
      rule: 'allow:api.example:8443',
    });
    expect(check('api.example', '93.184.216.34', 443).allowed).toBe(false);
    expect(check('192.168.1.10', '192.168.1.10', 80)).toEqual({ allowed: true, rule: 'allow:192.168.1.10' });
    expect(check('192.168.1.11', '192.168.1.11', 80).allowed).toBe(false);
    expect(check('internal.example', '10.200.0.1', 80)).toEqual({ allowed: true, rule: 'allow:10.0.0.0/8' });
    expect(check('internal.example', '11.0.0.1', 80).allowed).toBe(false);
    expect(check('fd00::5', 'fd00::5', 9000)).toEqual({ allowed: true, rule: 'allow:[fd00::5]:9000' });
    expect(check('fd00::5', 'fd00::5', 9001).allowed).toBe(false);
  });

  it('lets allow entries name private destinations under all', () => {
    const policy: NetworkPolicy = { mode: 'all', allow: ['127.0.0.1:8888'] };
    expect(checkAddress(policy, { host: '127.0.0.1', address: '127.0.0.1', port: 8888 }).allowed).toBe(true);
    expect(checkAddress(policy, { host: '127.0.0.1', address: '127.0.0.1', port: 8889 }).allowed).toBe(false);
    expect(checkAddress(policy, { host: 'example.com', address: '93.184.216.34', port: 443 }).allowed).toBe(
      true,
    );
  });

  it('refuses an answer that is not an address', () => {
    expect(checkAddress(all, { host: 'x.example', address: 'not-an-ip', port: 80 })).toEqual({
      allowed: false,
      rule: 'invalid-address',
    });
  });
});

describe('checkHost', () => {
  it('decides IP literals, odd IPv4 spellings included, before any lookup', () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '127.1',
      '0x7f.1',
      '[::ffff:127.0.0.1]',
      '::1',
    ]) {
      expect(checkHost(all, { host, port: 80 })).toMatchObject({ allowed: false, rule: 'special-address' });
    }
    expect(checkHost(all, { host: '8.8.8.8', port: 53 })).toEqual({ allowed: true, rule: 'public' });
  });

  it('leaves names that depend on DNS undecided', () => {
    expect(checkHost(all, { host: 'example.com', port: 443 })).toBeUndefined();
    expect(checkHost({ mode: 'localhost' }, { host: 'localhost', port: 80 })).toBeUndefined();
    expect(
      checkHost({ mode: 'allowlist', allow: ['10.0.0.0/8'] }, { host: 'intranet', port: 80 }),
    ).toBeUndefined();
  });

  it('refuses names the mode can never admit without a lookup', () => {
    expect(checkHost({ mode: 'none' }, { host: 'example.com', port: 443 })).toEqual({
      allowed: false,
      rule: 'none',
    });
    expect(checkHost({ mode: 'localhost' }, { host: 'example.com', port: 443 })).toEqual({
      allowed: false,
      rule: 'localhost',
    });
    expect(checkHost({ mode: 'allowlist', allow: ['a.example'] }, { host: 'b.example', port: 443 })).toEqual({
      allowed: false,
      rule: 'allowlist',
    });
    expect(checkHost(all, { host: 'exa mple', port: 80 })).toEqual({ allowed: false, rule: 'invalid-host' });
  });
});
