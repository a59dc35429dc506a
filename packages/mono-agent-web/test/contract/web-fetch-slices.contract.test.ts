import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { MAX_FETCH_OUTPUT_CHARS } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';
import { startRuntime } from './support/runtime.js';

// Contract (Read a bounded page slice): "Use start_line (one-based) and max_lines (1–10000, default
// 200 when slicing). Omitting both preserves the normal capped document output. max_output_chars
// still bounds the selected text. The result reports startLine, endLine, totalLines and nextLine,
// plus a continuation hint. A line too large for the budget requires a larger character cap or
// reading the saved output artifact; it is never silently skipped." and "Changing the slice reuses
// extraction without refetching or rerendering."

interface Slice {
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  nextLine?: number;
  truncatedByChars: boolean;
  hint: string;
}
interface Ok {
  status: 'ok';
  httpStatus: number;
  redirects: number;
  cacheHit: boolean;
  slice: Slice;
  artifact?: string;
  truncated: boolean;
}
interface Failure {
  status: 'error';
  code: string;
  message: string;
  artifact?: string;
}

let web: FixtureWeb;
let home: string;
let artifacts: string;
const lines = Array.from({ length: 300 }, (_, index) => `line ${index + 1}`).join('\n');
const env = () => ({ MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_ARTIFACT_DIR: artifacts });
const text = (body: string) => ({ headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-slices-'));
  artifacts = join(home, 'artifacts');
});
beforeEach(() => {
  web.reset();
  web.scenario('/lines', text(lines));
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const fetchCli = async <Result>(path: string, args: string[] = [], extraEnv: Record<string, string> = {}) => {
  const run = await runBuiltCli(['fetch', web.url(path), '--json', ...args], {
    home,
    env: { ...env(), ...extraEnv },
  });
  return { run, result: jsonOf<Result>(run) };
};

describe('line slices through the built CLI', () => {
  it('omitting both start_line and max_lines returns the whole capped document', async () => {
    const { result } = await fetchCli<Ok>('/lines');
    expect(result.slice).toMatchObject({
      startLine: 1,
      endLine: 300,
      totalLines: 300,
      truncatedByChars: false,
    });
    expect(result.slice.nextLine).toBeUndefined();
    expect(result.slice.hint).toBe('[showing lines 1-300 of 300; end of document]');
  });

  it('start_line 201 with max_lines 100 returns exactly those lines and reports the position', async () => {
    const { result } = await fetchCli<Ok>('/lines', ['--start-line', '201', '--max-lines', '100']);
    expect(result.slice).toMatchObject({ startLine: 201, endLine: 300, totalLines: 300 });
    expect(result.slice.content.split('\n')[0]).toBe('line 201');
    expect(result.slice.content.split('\n').at(-1)).toBe('line 300');
  });

  it('start_line alone returns the default 200 lines and a continuation hint', async () => {
    const { result } = await fetchCli<Ok>('/lines', ['--start-line', '51']);
    expect(result.slice).toMatchObject({ startLine: 51, endLine: 250, nextLine: 251 });
    expect(result.slice.hint).toBe('[showing lines 51-250 of 300; continue with start_line=251]');
    const textRun = await runBuiltCli(['fetch', web.url('/lines'), '--start-line', '51'], {
      home,
      env: env(),
    });
    expect(textRun.stdout.split('\n')[0]).toContain('lines: 51-250 of 300 | next line: 251');
    expect(
      textRun.stdout.trimEnd().endsWith('[showing lines 51-250 of 300; continue with start_line=251]'),
    ).toBe(true);
  });

  it('accepts max_lines at its bounds 1 and 10000', async () => {
    expect((await fetchCli<Ok>('/lines', ['--max-lines', '1'])).result.slice).toMatchObject({
      endLine: 1,
      nextLine: 2,
    });
    expect((await fetchCli<Ok>('/lines', ['--max-lines', '10000'])).result.slice).toMatchObject({
      endLine: 300,
    });
  });

  it('a start_line past the end is a validation_error naming the length', async () => {
    const { run, result } = await fetchCli<Failure>('/lines', ['--start-line', '301']);
    expect(run.code).toBe(EXIT_CODES.invalidInput);
    expect(result.message).toContain('past the end of the document, which has 300 lines');
  });

  it('max_output_chars still bounds the selected lines, cutting at a line boundary', async () => {
    const { result } = await fetchCli<Ok>('/lines', ['--max-lines', '100', '--max-output-chars', '30']);
    expect(result.slice).toMatchObject({
      content: 'line 1\nline 2\nline 3\nline 4',
      truncatedByChars: true,
      nextLine: 5,
    });
    expect(result.slice.hint).toContain('(character budget reached); continue with start_line=5');
  });
});

describe('over-long lines: a larger accepted cap, or the saved artifact', () => {
  const longLine = 'x'.repeat(100_000);
  beforeEach(() => {
    web.scenario('/long', text(`short first line\n${longLine}\nlast line`));
  });

  it('a line over the cap fails too_large, naming a cap the schema accepts and the saved artifact', async () => {
    const { run, result } = await fetchCli<Failure>('/long', ['--start-line', '2', '--max-lines', '1']);
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(result.code).toBe('too_large');
    const suggested = Number(/max_output_chars=(\d+)/.exec(result.message)?.[1]);
    expect(suggested).toBe(100_000);
    expect(suggested).toBeLessThanOrEqual(MAX_FETCH_OUTPUT_CHARS);
    expect(result.artifact).toBeDefined();
    expect(result.message).toContain(result.artifact!);
    expect(readFileSync(result.artifact!, 'utf8')).toContain(longLine);
    expect(statSync(result.artifact!).mode & 0o777).toBe(0o600);
    expect(result.artifact!.startsWith(join(artifacts, 'tool-output'))).toBe(true);

    // The suggested cap is accepted and returns the line whole.
    const again = await fetchCli<Ok>('/long', [
      '--start-line',
      '2',
      '--max-lines',
      '1',
      '--max-output-chars',
      String(suggested),
    ]);
    expect(again.run.code).toBe(EXIT_CODES.success);
    expect(again.result.slice.content).toBe(longLine);
  });

  it('the text a model reads names both ways out', async () => {
    const run = await runBuiltCli(['fetch', web.url('/long'), '--start-line', '2'], { home, env: env() });
    expect(run.stdout).toMatch(
      /^WebFetch status: error \| error: too_large\nreason: line 2 alone is 100000 characters/,
    );
    expect(run.stdout).toContain('max_output_chars=100000');
    expect(run.stdout).toMatch(/saved output: .*tool-output/);
  });

  it('without an artifact directory it says so, and still offers the cap', async () => {
    const { result } = await fetchCli<Failure>('/long', ['--start-line', '2'], {
      MONO_AGENT_ARTIFACT_DIR: '',
    });
    expect(result.code).toBe('too_large');
    expect(result.artifact).toBeUndefined();
    expect(result.message).toContain('max_output_chars=100000');
    expect(result.message).toContain(
      'no artifact directory is configured (set artifacts.dir or MONO_AGENT_ARTIFACT_DIR)',
    );
  });

  it('with no slice arguments a long first line returns the capped document, not an error', async () => {
    const minified = JSON.stringify(
      Array.from({ length: 8_000 }, (_, index) => ({ id: index, name: `item ${index}` })),
    );
    web.scenario('/minified.js', { headers: { 'content-type': 'text/plain' }, body: `${minified}\nsecond` });
    const { run, result } = await fetchCli<Ok>('/minified.js');
    expect(run.code).toBe(EXIT_CODES.success);
    expect(result.slice.content).toBe(minified.slice(0, 50_000));
    expect(result.slice).toMatchObject({ startLine: 1, endLine: 1, nextLine: 2, truncatedByChars: true });
    expect(result.slice.hint).toContain(`first 50000 of ${minified.length} characters of line 1`);
    expect(result.slice.hint).toContain(`max_output_chars=${minified.length}`);
    expect(existsSync(result.artifact!)).toBe(true);
  });

  it('a cap past the tool-output budget is accepted: the bloat guard samples it and saves the whole text', async () => {
    const huge = 'y'.repeat(400_000);
    web.scenario('/huge', text(huge));
    const { run, result } = await fetchCli<Ok>('/huge', ['--max-output-chars', '400000']);
    expect(run.code).toBe(EXIT_CODES.success);
    expect(result.truncated).toBe(true);
    expect(readFileSync(result.artifact!, 'utf8')).toContain(huge);
  });
});

describe('the run document cache through MCP (one run per server)', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp({ MONO_AGENT_NETWORK_MODE: 'localhost' }, home);
  });
  afterAll(() => mcp.close());

  it('changing the slice reuses extraction without refetching', async () => {
    const first = await mcp.call('WebFetch', { url: web.url('/lines'), max_lines: 10 });
    const second = await mcp.call('WebFetch', { url: web.url('/lines'), start_line: 11, max_lines: 10 });
    expect(first.isError || second.isError).toBe(false);
    expect(second.text).toContain('lines: 11-20 of 300');
    expect(second.text).toContain('cached: yes');
    expect(web.requestsTo('/lines')).toHaveLength(1);
  });
});

describe('cache hits report the first answer through createWebRuntime', () => {
  it('keeps the status and redirect count of the response the document came from', async () => {
    const session = await startRuntime({ MONO_AGENT_NETWORK_MODE: 'localhost' });
    try {
      const url = web.url('/redirect/2?to=/status/203%3Fbody%3Dhello%26content-type%3Dtext/plain');
      const first = await session.run.webFetch({ url });
      expect(first.data).toMatchObject({ status: 'ok', httpStatus: 203, redirects: 2, cacheHit: false });
      const again = await session.run.webFetch({ url, max_lines: 1 });
      expect(again.data).toMatchObject({
        status: 'ok',
        httpStatus: 203,
        redirects: 2,
        cacheHit: true,
        attempts: 0,
      });
      expect(again.text).toContain('cached: yes');
      expect(session.events.at(-1)).toMatchObject({ cacheHit: true, httpStatus: 203 });
    } finally {
      await session.close();
    }
  });
});
