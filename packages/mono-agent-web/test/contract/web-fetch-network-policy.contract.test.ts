import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';
import { startRuntime } from './support/runtime.js';

// Contract (Sandbox and validation): "network.mode: "none" blocks every web request. localhost
// admits local SearXNG or Ollama but blocks public keyless search and public fetches. an allowlist
// must include ... every public destination the agent is authorized to search or fetch. all permits
// public egress"; (WebFetch) "Follow at most five redirects, re-checking sandbox network policy at
// every hop." and "policy denials are returned as structured tool failures". A refusal names net's
// reason and the setting (network.mode / network.allow) that would admit the destination.

interface Denial {
  status: string;
  code: string;
  message: string;
  policy: { rule: string; host: string; port: number; range?: string; reason: string };
  allowWith: string[];
}

let web: FixtureWeb;
let home: string;

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-policy-'));
});
beforeEach(() => web.reset());
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const fetchJson = async (url: string, env: Record<string, string>) => {
  const run = await runBuiltCli(['fetch', url, '--json'], { home, env });
  return { run, result: jsonOf<Denial>(run) };
};

describe('policy refusals through the built CLI', () => {
  it('mode none: blocks every request and names network.mode as the way out', async () => {
    const { run, result } = await fetchJson(web.url('/echo'), { MONO_AGENT_NETWORK_MODE: 'none' });
    expect(run.code).toBe(EXIT_CODES.policyDenied);
    expect(result).toMatchObject({ code: 'policy_denied', policy: { rule: 'none' } });
    expect(result.message).toContain('network.mode is none');
    expect(result.allowWith.join(' ')).toContain('network.mode');
    expect(web.requests).toHaveLength(0);
  });

  it('mode localhost: a public host is refused, and network.allow or mode all would admit it', async () => {
    const { run, result } = await fetchJson('https://example.com/page', {
      MONO_AGENT_NETWORK_MODE: 'localhost',
    });
    expect(run.code).toBe(EXIT_CODES.policyDenied);
    expect(result.policy).toMatchObject({ rule: 'localhost', host: 'example.com', port: 443 });
    expect(result.message).toBe(
      'network.mode is localhost, which admits only loopback destinations, so example.com:443 was refused',
    );
    expect(result.allowWith).toEqual([
      'network.allow: ["example.com:443"]',
      'network.mode: "all" (public destinations)',
    ]);
  });

  it('allowlist: a destination not listed is refused, naming the network.allow entry to add', async () => {
    const { run, result } = await fetchJson(web.url('/echo', { host: '127.0.0.2' }), {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
    });
    expect(run.code).toBe(EXIT_CODES.policyDenied);
    expect(result.policy).toMatchObject({ rule: 'allowlist', host: '127.0.0.2', port: web.port });
    expect(result.message).toBe(`127.0.0.2:${web.port} is not in network.allow (network.mode is allowlist)`);
    expect(result.allowWith).toEqual([`add "127.0.0.2:${web.port}" (or "127.0.0.2") to network.allow`]);
    expect(web.requests).toHaveLength(0);
  });

  it('mode all: loopback is refused as a loopback address', async () => {
    const { run, result } = await fetchJson(web.url('/echo'), { MONO_AGENT_NETWORK_MODE: 'all' });
    expect(run.code).toBe(EXIT_CODES.policyDenied);
    expect(result.policy).toMatchObject({ rule: 'special-address', range: 'loopback' });
    expect(result.message).toBe(
      `127.0.0.1:${web.port} is a loopback address; network.mode all admits only public addresses`,
    );
    expect(result.allowWith).toEqual([`network.allow: ["127.0.0.1:${web.port}"]`]);
  });

  it.each([
    ['10.1.2.3', 'private', 'a private-network address'],
    ['169.254.169.254', 'linkLocal', 'a link-local address'],
    ['100.64.0.1', 'carrierGradeNat', 'a carrier-grade NAT address'],
  ])('mode all: %s is refused as %s without a connection', async (address, range, words) => {
    const { result } = await fetchJson(`http://${address}/latest`, { MONO_AGENT_NETWORK_MODE: 'all' });
    expect(result.policy).toMatchObject({ rule: 'special-address', range });
    expect(result.message).toContain(words);
  });

  it('mode all with network.allow: the listed loopback destination is admitted (the entry has effect)', async () => {
    const run = await runBuiltCli(['fetch', web.url('/content/text'), '--json'], {
      home,
      env: { MONO_AGENT_NETWORK_MODE: 'all', MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}` },
    });
    expect(run.code, run.stdout).toBe(EXIT_CODES.success);
    expect(web.requestsTo('/content/text')).toHaveLength(1);
  });

  it('re-checks every redirect hop: a hop to a host outside the allowlist is refused before it is sent', async () => {
    const { run, result } = await fetchJson(web.url('/redirect/2?host=127.0.0.2'), {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
    });
    expect(run.code).toBe(EXIT_CODES.policyDenied);
    expect(result.policy).toMatchObject({ rule: 'allowlist', host: '127.0.0.2' });
    expect(web.requests.filter((request) => request.localAddress === '127.0.0.2')).toHaveLength(0);
  });

  it('prints reason and the allowing setting in the text the model reads', async () => {
    const run = await runBuiltCli(['fetch', 'https://example.com/'], {
      home,
      env: { MONO_AGENT_NETWORK_MODE: 'localhost' },
    });
    expect(run.stdout).toBe(
      [
        'WebFetch status: error | error: policy_denied',
        'reason: network.mode is localhost, which admits only loopback destinations, so example.com:443 was refused',
        'allowed by: network.allow: ["example.com:443"]; or network.mode: "all" (public destinations)',
        '',
      ].join('\n'),
    );
  });
});

describe('policy refusals through MCP and createWebRuntime', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp({ MONO_AGENT_NETWORK_MODE: 'none' }, home);
  });
  afterAll(() => mcp.close());

  it('the MCP tool error carries the reason and the setting', async () => {
    const result = await mcp.call('WebFetch', { url: web.url('/echo') });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^WebFetch status: error \| error: policy_denied\nreason: network\.mode is none/,
    );
    expect(result.text).toContain('allowed by: network.mode');
  });

  it('createWebRuntime returns the denial as data and its timing event names only the code', async () => {
    const session = await startRuntime({ MONO_AGENT_NETWORK_MODE: 'localhost' });
    try {
      const result = await session.run.webFetch({ url: 'https://example.com/private/path' });
      expect(result).toMatchObject({ isError: true, code: 'policy_denied' });
      expect(result.data).toMatchObject({ policy: { rule: 'localhost', host: 'example.com' } });
      expect(JSON.stringify(session.events)).not.toMatch(/example\.com|private\/path/);
    } finally {
      await session.close();
    }
  });
});
