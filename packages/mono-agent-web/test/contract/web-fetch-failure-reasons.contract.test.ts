// "Every failure has a reason line, `redirect_refused` and `parse_error` included, in words an
// operator can act on." Every failure code WebFetch can end with is provoked here through a real
// surface (createWebRuntime, the MCP server over stdio, the built bin) where the fixture web can
// provoke it; the rest (a timeout needs the 45-second deadline, sign-in and challenge pages a
// browser, host-state faults a broken state file) have their reasons checked beside the code in
// src/runtime/fetch-failure-reason.test.ts, which covers every code of FAILURE_CODES.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FailureCode } from '@mono-agent/budget-policy';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { startMcp } from './support/mcp-stdio.js';
import { type RuntimeSession, startRuntime } from './support/runtime.js';

let web: FixtureWeb;
let home: string;
let session: RuntimeSession;
let closedPort: number;
const env = () => ({
  MONO_AGENT_NETWORK_MODE: 'allowlist',
  MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
});

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-reasons-'));
  session = await startRuntime({ MONO_AGENT_NETWORK_MODE: 'localhost' });
  // A loopback port nothing listens on: bound once, then released.
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  web.scenario('/broken.json', { headers: { 'content-type': 'application/json' }, body: '{"tide": [1, 2,' });
  web.scenario('/broken.xml', {
    headers: { 'content-type': 'application/xml' },
    body: '<tides><tide>1</tides>',
  });
  web.scenario('/picture', { headers: { 'content-type': 'image/png' }, body: '\x89PNG\r\n\x1a\n....' });
  web.scenario('/odd-charset', {
    headers: { 'content-type': 'text/html; charset=x-no-such-charset' },
    body: '<p>hi</p>',
  });
  web.scenario('/long-line', {
    headers: { 'content-type': 'text/plain' },
    body: `${'w'.repeat(5_000)}\nshort\n`,
  });
});
afterAll(async () => {
  await session?.close();
  await web?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The one `reason:` line of a failure's text: present, plain, and more than a restated code. */
function reasonOf(text: string, code: FailureCode): string {
  expect(text).toMatch(new RegExp(`^WebFetch status: error \\| error: ${code}\\b`));
  const lines = text.split('\n').filter((line) => line.startsWith('reason: '));
  expect(lines, text).toHaveLength(1);
  const reason = lines[0]!.slice('reason: '.length);
  expect(reason.length).toBeGreaterThan(30);
  expect(reason).not.toBe(code);
  return reason;
}

interface Case {
  code: FailureCode;
  args: () => Record<string, unknown>;
  /** What the reason must say, so the reader knows what happened and what to do. */
  says: RegExp;
}

const CASES: Case[] = [
  { code: 'validation_error', args: () => ({ url: 'ftp://example.org/' }), says: /url|argument/i },
  { code: 'policy_denied', args: () => ({ url: 'http://10.1.2.3/' }), says: /polic|network|allow/i },
  { code: 'http_status', args: () => ({ url: web.url('/status/404') }), says: /HTTP 404.*URL/ },
  {
    code: 'http_status',
    args: () => ({ url: web.url('/status/503') }),
    says: /HTTP 503.*(later|another source)/,
  },
  { code: 'rate_limited', args: () => ({ url: web.url('/status/429') }), says: /throttl.*retry time/ },
  {
    code: 'redirect_refused',
    args: () => ({ url: web.url('/redirect/9') }),
    says: /more than 5 times.*final address/,
  },
  {
    code: 'redirect_refused',
    args: () => ({ url: web.url('/redirect-to?location=file%3A%2F%2F%2Fetc%2Fpasswd') }),
    says: /redirected to an address WebFetch does not follow.*http\(s\)/,
  },
  {
    code: 'parse_error',
    args: () => ({ url: web.url('/broken.json') }),
    says: /not valid JSON at line 1.*format "raw"/,
  },
  { code: 'parse_error', args: () => ({ url: web.url('/broken.xml') }), says: /not valid XML.*format "raw"/ },
  {
    code: 'unsupported_content',
    args: () => ({ url: web.url('/picture') }),
    says: /cannot read.*HTML or text version/,
  },
  { code: 'charset_error', args: () => ({ url: web.url('/odd-charset') }), says: /charset.*another copy/ },
  {
    code: 'too_large',
    args: () => ({ url: web.url('/long-line'), start_line: 1, max_lines: 1, max_output_chars: 1_000 }),
    says: /max_output_chars/,
  },
  { code: 'backend_unavailable', args: () => ({ url: `http://127.0.0.1:${closedPort}/` }), says: /.+/ },
];

describe('"Every failure has a reason line" (createWebRuntime)', () => {
  for (const [index, { code, args, says }] of CASES.entries()) {
    it(`${code} (case ${index + 1}) says what happened and what to do`, async () => {
      const result = await session.run.webFetch(args());
      expect(result.isError, result.text).toBe(true);
      expect(result.code).toBe(code);
      expect(reasonOf(result.text, code)).toMatch(says);
      // Hosts read the same words in the data.
      expect((result.data as { message?: string }).message).toBe(reasonOf(result.text, code));
    });
  }

  it('cancelled: a call its caller aborts says so and what to do', async () => {
    web.scenario('/slow', { headers: { 'content-type': 'text/plain' }, body: 'late', delayMs: 5_000 });
    const controller = new AbortController();
    const call = session.run.webFetch({ url: web.url('/slow') }, { signal: controller.signal });
    while (web.requestsTo('/slow').length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const result = await call;
    expect(result.code).toBe('cancelled');
    expect(reasonOf(result.text, 'cancelled')).toMatch(/cancelled.*call again/);
  });

  it('configuration_error: a renderer that is not installed', async () => {
    const rendering = await startRuntime({
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: join(home, 'no-such-browser'),
    });
    try {
      const result = await rendering.run.webFetch({ url: web.url('/status/200'), render: 'always' });
      expect(result.code).toBe('configuration_error');
      expect(reasonOf(result.text, 'configuration_error').length).toBeGreaterThan(30);
    } finally {
      await rendering.close();
    }
  });
});

describe('"Every failure has a reason line" on the other surfaces', () => {
  it('over MCP: redirect_refused and parse_error', async () => {
    const mcp = await startMcp(env(), home);
    try {
      const redirect = await mcp.call('WebFetch', { url: web.url('/redirect/9') });
      expect(redirect.isError).toBe(true);
      expect(reasonOf(redirect.text, 'redirect_refused')).toMatch(/redirected more than 5 times/);
      const parse = await mcp.call('WebFetch', { url: web.url('/broken.json') });
      expect(reasonOf(parse.text, 'parse_error')).toMatch(/not valid JSON/);
    } finally {
      await mcp.close();
    }
  });

  it('from the built bin, in its text and in --json', async () => {
    const text = await runBuiltCli(['fetch', web.url('/broken.xml')], { home, env: env() });
    expect(text.code).not.toBe(0);
    expect(reasonOf(text.stdout.trim(), 'parse_error')).toMatch(/not valid XML/);
    const json = await runBuiltCli(['fetch', web.url('/status/410'), '--json'], { home, env: env() });
    expect(jsonOf<{ code: string; message: string }>(json)).toMatchObject({
      code: 'http_status',
      message: expect.stringMatching(/HTTP 410/),
    });
  });
});
