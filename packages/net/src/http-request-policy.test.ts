import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import type { LookupFunction } from './guarded-connector.js';
import { httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';

let web: LoopbackWeb;
let lookups: string[];

beforeAll(async () => {
  web = await startLoopbackWeb();
  web.scenario('/ok', { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' });
});
afterAll(() => web.close());
beforeEach(() => {
  lookups = [];
});

/** A resolver that answers from a table and records every question; unknown names fail. */
function fakeDns(table: Record<string, string[]>): LookupFunction {
  return async (hostname) => {
    lookups.push(hostname);
    const answers = table[hostname];
    if (answers === undefined) throw Object.assign(new Error(`unknown ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function denial(url: string, policy: NetworkPolicy, lookup: LookupFunction = fakeDns({})) {
  const connectionsBefore = web.connectionCount();
  const requestsBefore = web.requests.length;
  let caught: unknown;
  try {
    await httpRequest(url, { policy, lookup, retries: 0, deadlineMs: 5000 });
  } catch (error) {
    caught = error;
  }
  if (!WebToolError.isInstance(caught, 'policy_denied'))
    throw new Error(`expected policy_denied, got ${caught}`);
  expect(web.connectionCount()).toBe(connectionsBefore);
  expect(web.requests.length).toBe(requestsBefore);
  return caught;
}

const text = (body: Uint8Array) => Buffer.from(body).toString('utf8');

describe('mode none', () => {
  it('blocks even loopback literals without a lookup or a connection', async () => {
    const error = await denial(web.url('/ok'), { mode: 'none' });
    expect(error.details).toMatchObject({ rule: 'none' });
    await denial(`http://example.com:${web.port}/ok`, { mode: 'none' });
    expect(lookups).toEqual([]);
  });
});

describe('mode localhost', () => {
  const policy: NetworkPolicy = { mode: 'localhost' };

  it('reaches 127.0.0.1, 127.0.0.2 and the name localhost', async () => {
    for (const host of ['127.0.0.1', '127.0.0.2']) {
      const response = await httpRequest(web.url('/ok', { host }), { policy });
      expect(response.status).toBe(200);
      expect(web.requests.at(-1)?.localAddress).toBe(host);
    }
    const lookup = fakeDns({ localhost: ['127.0.0.1'] });
    const response = await httpRequest(web.url('/ok', { host: 'localhost' }), { policy, lookup });
    expect(text(response.body)).toBe('ok');
    expect(lookups).toEqual(['localhost']);
  });

  it('refuses localhost when it resolves outside loopback', async () => {
    const error = await denial(
      web.url('/ok', { host: 'localhost' }),
      policy,
      fakeDns({ localhost: ['10.0.0.1'] }),
    );
    expect(error.details).toMatchObject({ rule: 'localhost', address: '10.0.0.1' });
  });

  it('refuses public names without resolving them, and public literals without connecting', async () => {
    const lookup = fakeDns({ 'public.example': ['127.0.0.1'] });
    const error = await denial(`http://public.example:${web.port}/ok`, policy, lookup);
    expect(error.details).toMatchObject({ rule: 'localhost', host: 'public.example' });
    expect(lookups).toEqual([]);
    await denial('http://8.8.8.8/', policy);
  });
});

describe('mode all', () => {
  const policy: NetworkPolicy = { mode: 'all' };

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['[::1]', 'loopback'],
    ['[fc00::1]', 'uniqueLocal'],
    ['[fd00::1]', 'uniqueLocal'],
    ['[fe80::1]', 'linkLocal'],
    ['[::ffff:127.0.0.1]', 'ipv4Mapped'],
    ['[::ffff:7f00:1]', 'ipv4Mapped'],
    ['[::127.0.0.1]', 'ipv4Compatible'],
    ['224.0.0.1', 'multicast'],
    ['[ff02::1]', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0x7f.1', 'loopback'],
  ])('denies %s (%s) without a connection', async (host, range) => {
    const error = await denial(`http://${host}:${web.port}/ok`, policy);
    expect(error.details).toMatchObject({ rule: 'special-address', range });
    expect(lookups).toEqual([]);
  });

  it('denies a public-looking name that resolves to loopback; the server sees nothing', async () => {
    const error = await denial(
      `http://public.example:${web.port}/ok`,
      policy,
      fakeDns({ 'public.example': ['127.0.0.1'] }),
    );
    expect(error.details).toMatchObject({
      rule: 'special-address',
      host: 'public.example',
      address: '127.0.0.1',
      range: 'loopback',
    });
    expect(lookups).toEqual(['public.example']);
  });

  it('denies a name when any one of its answers is private', async () => {
    const lookup = fakeDns({ 'mixed.example': ['93.184.216.34', '127.0.0.1'] });
    const error = await denial(`http://mixed.example:${web.port}/ok`, policy, lookup);
    expect(error.details).toMatchObject({ address: '127.0.0.1' });
  });

  it('reaches a private destination only when an allow entry names it', async () => {
    const named: NetworkPolicy = { mode: 'all', allow: [`127.0.0.1:${web.port}`] };
    expect((await httpRequest(web.url('/ok'), { policy: named })).status).toBe(200);
    await denial(web.url('/ok', { host: '127.0.0.2' }), named);
  });
});

describe('mode allowlist', () => {
  it('admits a host entry and connects to the address that was resolved', async () => {
    // The resolver would answer differently the second time; only one lookup may happen.
    let calls = 0;
    const lookup: LookupFunction = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const policy: NetworkPolicy = { mode: 'allowlist', allow: ['pinned.example'] };
    const response = await httpRequest(`http://pinned.example:${web.port}/ok`, { policy, lookup });
    expect(response.status).toBe(200);
    expect(calls).toBe(1);
    expect(web.requests.at(-1)).toMatchObject({ localAddress: '127.0.0.1' });
    expect(web.requests.at(-1)?.headers.host).toBe(`pinned.example:${web.port}`);
  });

  it('admits host:port only on that port', async () => {
    const lookup = fakeDns({ 'api.example': ['127.0.0.1'] });
    const policy: NetworkPolicy = { mode: 'allowlist', allow: [`api.example:${web.port}`] };
    expect((await httpRequest(`http://api.example:${web.port}/ok`, { policy, lookup })).status).toBe(200);
    const error = await denial(`http://api.example:${web.port + 1}/ok`, policy, lookup);
    expect(error.details).toMatchObject({ rule: 'allowlist' });
  });

  it('admits an IP entry and nothing next to it', async () => {
    const policy: NetworkPolicy = { mode: 'allowlist', allow: ['127.0.0.1'] };
    expect((await httpRequest(web.url('/ok'), { policy })).status).toBe(200);
    await denial(web.url('/ok', { host: '127.0.0.2' }), policy);
    await denial(`http://other.example:${web.port}/ok`, policy, fakeDns({ 'other.example': ['127.0.0.2'] }));
  });

  it('admits a CIDR entry for literals and resolved names inside it only', async () => {
    const policy: NetworkPolicy = { mode: 'allowlist', allow: ['127.0.0.2/32'] };
    const lookup = fakeDns({ 'inside.example': ['127.0.0.2'], 'outside.example': ['127.0.0.1'] });
    expect((await httpRequest(web.url('/ok', { host: '127.0.0.2' }), { policy })).status).toBe(200);
    expect((await httpRequest(`http://inside.example:${web.port}/ok`, { policy, lookup })).status).toBe(200);
    await denial(web.url('/ok'), policy);
    const error = await denial(`http://outside.example:${web.port}/ok`, policy, lookup);
    expect(error.details).toMatchObject({ rule: 'allowlist', address: '127.0.0.1' });
  });

  it('refuses names the list does not mention without resolving them', async () => {
    await denial(`http://public.example:${web.port}/ok`, { mode: 'allowlist', allow: ['listed.example'] });
    expect(lookups).toEqual([]);
  });
});

describe('redirect hops', () => {
  it('re-checks every hop: an allowed host redirecting to a denied one fails before the second request', async () => {
    web.scenario('/to-second-loopback', {
      status: 302,
      headers: { location: web.url('/ok', { host: '127.0.0.2' }) },
    });
    const before = web.requests.length;
    const policy: NetworkPolicy = { mode: 'allowlist', allow: ['127.0.0.1'] };
    const error = await httpRequest(web.url('/to-second-loopback'), { policy }).catch(
      (caught: unknown) => caught,
    );
    expect(WebToolError.isInstance(error, 'policy_denied')).toBe(true);
    expect((error as WebToolError).details).toMatchObject({ host: '127.0.0.2' });
    expect(web.requests.slice(before).map((request) => request.localAddress)).toEqual(['127.0.0.1']);
  });

  it('checks the resolved address of a redirect target at connect time', async () => {
    web.scenario('/to-name', { status: 307, headers: { location: `http://sneaky.example:${web.port}/ok` } });
    const before = web.requests.length;
    const policy: NetworkPolicy = { mode: 'all', allow: [`127.0.0.1:${web.port}`] };
    const lookup = fakeDns({ 'sneaky.example': ['127.0.0.2'] });
    const error = await httpRequest(web.url('/to-name'), { policy, lookup }).catch(
      (caught: unknown) => caught,
    );
    expect((error as WebToolError).details).toMatchObject({ host: 'sneaky.example', address: '127.0.0.2' });
    expect(lookups).toEqual(['sneaky.example']);
    expect(web.requests.length - before).toBe(1);
  });
});
