// WebFetch against pages built to hurt an extractor, driven the way hosts drive it: createWebRuntime,
// the MCP server over stdio with the SDK client, and the built `mono-agent-web` binary. The fixture
// web stands in for the public web; nothing else is replaced.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MAX_HTML_DEPTH, MAX_HTML_ELEMENTS, MAX_PDF_PAGES } from '@mono-agent/extract';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import type { WebRun, WebRuntime } from '../../src/runtime/runtime-types.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';

import { BUILT_CLI } from './support/built-cli.js';

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const sourceCli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let web: FixtureWeb;
let runtime: WebRuntime;
let run: WebRun;
let home: string;

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'mono-agent-hostile-'));
  runtime = await createWebRuntime({
    config: resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}` },
    }),
  });
  run = runtime.startRun();
});
afterAll(async () => {
  await run?.close();
  await runtime?.close();
  await web?.close();
  rmSync(home, { recursive: true, force: true });
});

interface FetchData {
  status: string;
  document: {
    kind: string;
    charset: string;
    charsetSource: string;
    stage: string;
    replacementCount: number;
    parserFailures: Array<{ stage: string; reason: string }>;
  };
}

async function fetchOk(path: string, args: Record<string, unknown> = {}) {
  const result = await run.webFetch({ url: web.url(path), max_output_chars: 200_000, ...args });
  expect(result.isError, result.text.slice(0, 400)).toBe(false);
  return { text: result.text, data: result.data as FetchData };
}

async function fetchError(path: string) {
  const result = await run.webFetch({ url: web.url(path) });
  expect(result.isError).toBe(true);
  return { text: result.text, code: result.code };
}

describe('"Strictly parse declared JSON" and return "pretty JSON": the numbers and keys the model reads are the ones sent', () => {
  it('keeps integers past 2^53, 1e400, 1e-400, -0, long decimals, escapes and duplicate keys', async () => {
    const { text } = await fetchOk('/hostile/json-exact');
    for (const token of [
      '"id": 12345678901234567890',
      '"huge": 1e400',
      '"tiny": 1e-400',
      '"negativeZero": -0',
      '"precise": 0.1000000000000000055511151231257827',
      '"dup": "first"',
      '"dup": "second"',
      '"escaped": "\\u00e9\\u2028"',
    ]) {
      expect(text).toContain(token);
    }
  });

  it('still rejects invalid JSON as parse_error with its position', async () => {
    const { code } = await fetchError('/content/json-invalid');
    expect(code).toBe('parse_error');
  });

  it('answers `[` x 1,000,000 and `{"a":` x 500,000 with a parse_error, not a stack overflow', async () => {
    for (const path of ['/hostile/json-open-brackets', '/hostile/json-open-objects']) {
      const { text, code } = await fetchError(path);
      expect(code).toBe('parse_error');
      expect(text).not.toMatch(/RangeError|call stack/);
    }
  });

  it('formats valid JSON nested 100,000 arrays deep, writing the levels past the indented depth on one line', async () => {
    const deep = await fetchOk('/hostile/json-deep?depth=100000', { max_lines: 40 });
    expect(deep.data.document.kind).toBe('json');
    const { text } = await fetchOk('/hostile/json-deep?depth=1000');
    expect(text).toContain('[[[[1]]]]');
  });
});

describe('"Decode by BOM, HTTP charset, HTML meta/XML declaration, then UTF-8, reporting replacement characters": undeclared legacy bytes are reported, never guessed', () => {
  // Undeclared pages in the other legacy charsets: web-fetch-charset-and-cascade.contract.test.ts.
  it('decodes ambiguous undeclared Latin bytes as UTF-8 and reports the replacement characters instead of guessing', async () => {
    // "Déjà vu, naïve": as short as this, Latin-1 and Latin-2 both read as letters.
    const bytes = Buffer.from('D\xe9j\xe0 vu, na\xefve.', 'latin1');
    const remove = web.scenario('/short-latin', { headers: { 'content-type': 'text/plain' }, body: bytes });
    try {
      const { text, data } = await fetchOk('/short-latin');
      expect(data.document).toMatchObject({
        charset: 'utf-8',
        charsetSource: 'default',
        replacementCount: 3,
      });
      expect(text).not.toContain('ď');
    } finally {
      remove();
    }
  });

  it('maps windows-1252 bytes 0x80-0x9F to the characters the standard names (quotes, dashes, euro)', async () => {
    const bytes = Buffer.from([...Buffer.from('a '), 0x93, 0x71, 0x94, 0x20, 0x97, 0x20, 0x80, 0x35]);
    const remove = web.scenario('/declared-1252', {
      headers: { 'content-type': 'text/plain; charset=windows-1252' },
      body: bytes,
    });
    try {
      const { text, data } = await fetchOk('/declared-1252');
      expect(data.document).toMatchObject({ charset: 'windows-1252', charsetSource: 'header' });
      expect(text).toContain('a “q” — €5');
    } finally {
      remove();
    }
  });
});

describe('hostile pages end in a document or a structured failure, never a crash', () => {
  it(`reads 100,000 nested <div>s (past the depth bound of ${MAX_HTML_DEPTH}) with the streamed-text stage`, async () => {
    const { text, data } = await fetchOk('/hostile/deep-nesting?depth=100000');
    expect(data.document.stage).toBe('streamed-text');
    expect(data.document.parserFailures[0]?.reason).toMatch(/nesting depth 100000 is over 128/);
    expect(text).toContain('The only sentence, at the bottom.');
  });

  it(`reads a page at the depth bound with the DOM stages and one level past it with the streamed stage`, async () => {
    // (On a busy machine the DOM stages may still hand over on their time budget; never on depth.)
    const at = await fetchOk(`/hostile/deep-nesting?depth=${MAX_HTML_DEPTH}`);
    expect(at.data.document.parserFailures.map((failure) => failure.reason).join(' ')).not.toMatch(
      /nesting depth/,
    );
    const past = await fetchOk(`/hostile/deep-nesting?depth=${MAX_HTML_DEPTH + 1}`);
    expect(past.data.document.stage).toBe('streamed-text');
    expect(past.data.document.parserFailures[0]?.reason).toBe(
      `skipped: nesting depth ${MAX_HTML_DEPTH + 1} is over ${MAX_HTML_DEPTH}`,
    );
  });

  it(`reads 120,000 sibling <span>s (past ${MAX_HTML_ELEMENTS} elements) with the streamed-text stage`, async () => {
    const { text, data } = await fetchOk('/hostile/siblings?count=120000', { max_lines: 5 });
    expect(data.document.stage).toBe('streamed-text');
    expect(text).toContain('Siblings');
  });

  it('reads pages of unique custom tag names', async () => {
    const { data } = await fetchOk('/hostile/unique-tags?count=20000&seed=7', { max_lines: 5 });
    expect(data.document.kind).toBe('html');
  });

  it('reads an article whose image source sets run to 150,000 characters with the DOM stages, in its own words', async () => {
    // The extractors read source sets with patterns quadratic in a run they cannot split; the
    // page would spend its DOM time budget there and come back from the streamed stage.
    const { text, data } = await fetchOk('/hostile/long-srcset?size=150000');
    expect(data.document.stage).toBe('defuddle');
    expect(data.document.parserFailures).toEqual([]);
    expect(text).toContain('The last paragraph closes the report.');
    expect(text).not.toMatch(/a{64}|PHN2Zy/);
  });

  it('reads a page of 27,000 <br>s in a row with the DOM stages, both sentences kept', async () => {
    // Every element costs each selector pass of the extractors, and Turndown's trim is quadratic in
    // a whitespace run; the page would spend its DOM time budget and come back from the streamed stage.
    const { text, data } = await fetchOk('/hostile/line-breaks?count=27000');
    expect(data.document.stage).not.toBe('streamed-text');
    expect(data.document.parserFailures.map((failure) => failure.reason).join(' ')).not.toMatch(/ran past/);
    expect(text).toContain('The sentence before the breaks.');
    expect(text).toContain('The sentence after the breaks.');
  });

  it('answers an empty body, bare words and a lone doctype served as text/html without an internal error', async () => {
    const bare = await fetchOk('/hostile/bare-text');
    expect(bare.text).toContain('hello');
    for (const path of ['/hostile/empty', '/hostile/doctype-only']) {
      const result = await run.webFetch({ url: web.url(path) });
      expect(result.code).not.toBe('internal_error');
      expect(result.text).not.toMatch(/TypeError/);
    }
  });

  it('refuses a PDF whose content stream is a 1 GiB flate bomb as too_large', async () => {
    const { code } = await fetchError('/hostile/pdf-flate-bomb');
    expect(code).toBe('too_large');
  });

  it(`extracts the first ${MAX_PDF_PAGES} pages of a longer PDF and says which pages were left out`, async () => {
    const { text } = await fetchOk('/hostile/pdf-many-pages?pages=501', { start_line: 1, max_lines: 10_000 });
    expect(text).toContain(`[page ${MAX_PDF_PAGES} of 501]`);
    expect(text).toContain(`[pages 501-501 of 501 not extracted: the page limit is ${MAX_PDF_PAGES}]`);
    expect(text).not.toContain('[page 501 of 501]');
  });

  it('answers XML nested 100,000 elements deep with a document or a parse_error', async () => {
    const result = await run.webFetch({ url: web.url('/hostile/xml-deep') });
    if (result.isError) expect(result.code).toMatch(/parse_error|too_large/);
    else expect(result.text).toMatch(/kind: xml/);
  });
});

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');

describe('over MCP, extraction runs off the server thread', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'hostile-contract-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: tsx,
        args: ['--conditions=@mono-agent/source', sourceCli, 'mcp'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          MONO_AGENT_NETWORK_MODE: 'allowlist',
          MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
        },
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('hostile inputs come back as tool results with failure codes, not JSON-RPC errors', async () => {
    for (const path of ['/hostile/json-open-brackets', '/hostile/pdf-flate-bomb', '/hostile/empty']) {
      const result = await client.callTool({ name: 'WebFetch', arguments: { url: web.url(path) } });
      expect(textOf(result)).toMatch(/^WebFetch status: (ok|error)/);
      expect(textOf(result)).not.toMatch(/internal_error|RangeError|TypeError/);
    }
  });

  it('a small page asked while a hostile page is extracted is answered first', async () => {
    // Warm the workers so that the comparison is between extractions, not module loading.
    await client.callTool({ name: 'WebFetch', arguments: { url: web.url('/pages/blog-post') } });
    const order: string[] = [];
    const hostile = client
      .callTool({
        name: 'WebFetch',
        arguments: { url: web.url('/hostile/unique-tags?count=29000&seed=11'), max_lines: 3 },
      })
      .then(() => order.push('hostile'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const small = client
      .callTool({ name: 'WebFetch', arguments: { url: web.url('/content/text'), max_lines: 3 } })
      .then(() => order.push('small'));
    await Promise.all([hostile, small]);
    expect(order).toEqual(['small', 'hostile']);
  }, 60_000);
});

describe('the built binary runs extraction in its own worker', () => {
  function runBuilt(args: string[]) {
    return new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [BUILT_CLI, ...args],
        {
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            MONO_AGENT_NETWORK_MODE: 'allowlist',
            MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
          },
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
  }

  it('fetches exact JSON and a deeply nested page with the built bin', async () => {
    expect(existsSync(BUILT_CLI), 'run pnpm build first').toBe(true);
    const json = await runBuilt(['fetch', web.url('/hostile/json-exact')]);
    expect(json.code).toBe(0);
    expect(json.stdout).toContain('"id": 12345678901234567890');
    const deep = await runBuilt(['fetch', web.url('/hostile/deep-nesting?depth=20000'), '--json']);
    expect(deep.code).toBe(0);
    expect(JSON.parse(deep.stdout)).toMatchObject({ status: 'ok', document: { stage: 'streamed-text' } });
    const bomb = await runBuilt(['fetch', web.url('/hostile/pdf-flate-bomb'), '--json']);
    expect(JSON.parse(bomb.stdout)).toMatchObject({ status: 'error', code: 'too_large' });
  }, 60_000);
});
