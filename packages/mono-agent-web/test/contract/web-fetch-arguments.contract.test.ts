import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';
import { startRuntime } from './support/runtime.js';

// Contract: "WebFetch accepts http:// and https:// URLs"; "raw ... requires render: "never""; "Use
// start_line (one-based) and max_lines (1–10000 ...)"; "Request headers are limited to Accept,
// Accept-Language, Range, and User-Agent. Cookie, authorization, proxy, forwarding, and arbitrary
// custom headers are rejected, as are credentials embedded in a URL." A refused call is a
// validation_error (exit 2), in plain words, and sends nothing.

// Words of the schema library that must never reach a model or an operator.
const JARGON = /Expected never|Invalid (type|key|value|length|integer|format)|received undefined|Expected \(/;

let web: FixtureWeb;
let home: string;
const env = { MONO_AGENT_NETWORK_MODE: 'localhost' };

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-arguments-'));
});
beforeEach(() => web.reset());
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

interface ErrorJson {
  status: string;
  code: string;
  message: string;
  problems?: { field: string; message: string }[];
}

describe('argument errors through the built CLI', () => {
  it.each([
    ['a word that is not a URL', ['notaurl'], /url: must be an absolute URL \(got "notaurl"\)/],
    ['an ftp:// URL', ['ftp://127.0.0.1/file'], /url: must be an http:\/\/ or https:\/\/ URL/],
    ['a file:// URL', ['file:///etc/passwd'], /url: must be an http:\/\/ or https:\/\/ URL/],
    [
      '--max-lines 0 (below the bound)',
      ['URL', '--max-lines', '0'],
      /max_lines: must be at least 1 \(got 0\)/,
    ],
    [
      '--max-lines 10001 (past the bound)',
      ['URL', '--max-lines', '10001'],
      /max_lines: must be at most 10000 \(got 10001\)/,
    ],
    ['--start-line 0', ['URL', '--start-line', '0'], /start_line: must be at least 1 \(got 0\)/],
    ['--max-output-chars 0', ['URL', '--max-output-chars', '0'], /max_output_chars: must be at least 1/],
    [
      '--max-lines that is not a number',
      ['URL', '--max-lines', 'abc'],
      /--max-lines must be a whole number, got 'abc'/,
    ],
    [
      'an unknown --format',
      ['URL', '--format', 'html'],
      /format: must be one of "markdown", "text" or "raw" \(got "html"\)/,
    ],
    [
      'raw with a render mode',
      ['URL', '--format', 'raw', '--render', 'auto'],
      /render: format raw .* needs render "never"/,
    ],
    [
      'an unknown --render',
      ['URL', '--render', 'sometimes'],
      /render: must be one of "never", "auto" or "always"/,
    ],
    ['an unknown option', ['URL', '--cookie', 'a=b'], /unknown option '--cookie' for fetch/],
  ])(
    'refuses %s: validation_error, exit 2, a JSON error object, plain words',
    async (_name, args, pattern) => {
      const argv = args.map((arg) => (arg === 'URL' ? web.url('/echo') : arg));
      const run = await runBuiltCli(['fetch', ...argv, '--json'], { home, env });
      expect(run.code, run.stderr).toBe(EXIT_CODES.invalidInput);
      const error = jsonOf<ErrorJson>(run);
      expect(error).toMatchObject({ status: 'error', code: 'validation_error' });
      expect(error.message).toMatch(pattern);
      expect(error.message).not.toMatch(JARGON);
      expect(web.requests).toHaveLength(0);
    },
  );

  it('prints the reason under the control line without --json, with exit 2', async () => {
    const run = await runBuiltCli(['fetch', 'notaurl'], { home, env });
    expect(run.code).toBe(EXIT_CODES.invalidInput);
    expect(run.stdout).toBe(
      'WebFetch status: error | error: validation_error\nreason: invalid arguments: url: must be an absolute URL (got "notaurl")\n',
    );
  });

  it('names every rejected argument once, each as data', async () => {
    const run = await runBuiltCli(
      ['fetch', web.url('/echo'), '--max-lines', '0', '--format', 'pdf', '--json'],
      {
        home,
        env,
      },
    );
    const error = jsonOf<ErrorJson>(run);
    expect(error.problems?.map((problem) => problem.field).sort()).toEqual(['format', 'max_lines']);
  });
});

describe('argument errors through the MCP server', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp(env, home);
  });
  afterAll(() => mcp.close());

  it.each([
    [{}, /url: is required/],
    [{ url: 'notaurl' }, /url: must be an absolute URL/],
    [{ url: 'ftp://127.0.0.1/x' }, /url: must be an http:\/\/ or https:\/\/ URL/],
    [
      { url: 'https://example.com/', foo: 1 },
      /foo: is not a WebFetch argument; its arguments are url, format, render/,
    ],
    [{ url: 'https://example.com/', max_lines: '5' }, /max_lines: must be a number \(got "5"\)/],
    [{ url: 'https://example.com/', max_lines: 2.5 }, /max_lines: must be a whole number \(got 2.5\)/],
    [{ url: 'https://example.com/', format: 'raw', render: 'always' }, /render: format raw/],
    [
      { url: 'https://example.com/', headers: { Cookie: 'a=b' } },
      /headers.Cookie: is not allowed in headers; only Accept, Accept-Language, Range and User-Agent may be set/,
    ],
    [
      { url: 'https://example.com/', headers: { Authorization: 'Bearer x' } },
      /headers.Authorization: is not allowed/,
    ],
    [
      { url: 'https://example.com/', headers: { 'X-Forwarded-For': '1.2.3.4' } },
      /headers.X-Forwarded-For: is not allowed/,
    ],
    [
      { url: 'https://example.com/', headers: { 'Proxy-Authorization': 'x' } },
      /headers.Proxy-Authorization: is not allowed/,
    ],
  ])('answers %j as an isError validation_error in plain words', async (args, pattern) => {
    const result = await mcp.call('WebFetch', args);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^WebFetch status: error \| error: validation_error\nreason: invalid arguments: /,
    );
    expect(result.text).toMatch(pattern);
    expect(result.text).not.toMatch(JARGON);
  });

  it('refuses credentials embedded in the URL before any request', async () => {
    const url = web.url('/echo').replace('http://', 'http://user:secret@');
    const result = await mcp.call('WebFetch', { url });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('error: validation_error');
    expect(result.text).not.toContain('secret');
    expect(web.requests).toHaveLength(0);
  });

  it('sends the allowed headers as given', async () => {
    const result = await mcp.call('WebFetch', {
      url: web.url('/echo'),
      format: 'raw',
      headers: { 'Accept-Language': 'pt-BR', 'User-Agent': 'contract-test/1' },
    });
    expect(result.isError, result.text).toBe(false);
    const [request] = web.requestsTo('/echo');
    expect(request?.headers['accept-language']).toBe('pt-BR');
    expect(request?.headers['user-agent']).toBe('contract-test/1');
  });
});

describe('argument errors through createWebRuntime', () => {
  it('returns validation_error with the problems as data and leaves the run usable', async () => {
    const session = await startRuntime(env);
    try {
      const bad = await session.run.webFetch({ url: 'notaurl', max_lines: 0 });
      expect(bad).toMatchObject({ isError: true, code: 'validation_error' });
      expect(bad.data).toMatchObject({
        status: 'error',
        code: 'validation_error',
        problems: [
          { field: 'url', message: 'must be an absolute URL (got "notaurl")' },
          { field: 'max_lines', message: 'must be at least 1 (got 0)' },
        ],
      });
      expect(session.events.at(-1)).toMatchObject({
        tool: 'WebFetch',
        status: 'error',
        errorCode: 'validation_error',
      });
      expect(web.requests).toHaveLength(0);
      const good = await session.run.webFetch({ url: web.url('/content/text') });
      expect(good.isError).toBe(false);
    } finally {
      await session.close();
    }
  });
});
