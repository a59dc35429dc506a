import { CHARSET_SAMPLES } from '@mono-agent/fixture-web';
import {
  MAX_FETCH_LINES,
  MAX_FETCH_OUTPUT_CHARS,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { LOCALHOST_ENV, useFixtureSession } from './support/fixture-session.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';

// Contract (WebFetch): the formats table, the six static extraction steps, and "Non-success HTTP
// responses, unsupported content, and policy denials are returned as structured tool failures".

interface Ok {
  status: 'ok';
  redirects: number;
  document: {
    kind: string;
    format: string;
    charset: string;
    charsetSource: string;
    replacementCount: number;
  };
  slice: { content: string };
}

const fixture = useFixtureSession('web-fetch-extraction');

const fetchData = async (args: Record<string, unknown>) => {
  const result = await fixture.session.run.webFetch(args);
  return result;
};

describe('formats: markdown (default), text, raw', () => {
  it('markdown is the default: article Markdown for HTML', async () => {
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/blog-post'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code).toBe(EXIT_CODES.success);
    const result = jsonOf<Ok>(run);
    expect(result.document).toMatchObject({ kind: 'html', format: 'markdown' });
    expect(result.slice.content).toMatch(/^#{1,3} /m);
  });

  it('text removes the Markdown decoration', async () => {
    const result = await fetchData({ url: fixture.web.url('/pages/blog-post'), format: 'text' });
    const data = result.data as Ok;
    expect(data.document.format).toBe('text');
    expect(data.slice.content).not.toMatch(/^#{1,6} |\]\(https?:/m);
  });

  it('raw is the decoded body, markup included', async () => {
    const result = await fetchData({ url: fixture.web.url('/pages/blog-post'), format: 'raw' });
    expect((result.data as Ok).slice.content).toMatch(/<html|<body|<article/i);
  });

  it.each([
    ['/content/json', 'json', /^\{\n {2}"/],
    ['/content/rss', 'feed', /\S/],
    ['/content/atom', 'feed', /\S/],
    ['/content/pdf', 'pdf', /\S/],
    ['/content/text', 'text', /\S/],
  ])('%s is extracted as %s', async (path, kind, shape) => {
    const result = await fetchData({ url: fixture.web.url(path) });
    expect(result.isError, result.text).toBe(false);
    const data = result.data as Ok;
    expect(data.document.kind).toBe(kind);
    expect(data.slice.content).toMatch(shape);
  });
});

// What each recorded page is for (forum signatures, customer reviews, a saved story's streamed part,
// plans drawn twice, fade-ins, folded FAQs, a discussion's series) is asserted on the extraction
// itself by the golden corpus (packages/extract/test/pages/, golden-pages.test.ts). The one test
// below reads a page through the built surfaces, to show WebFetch gives what that corpus expects.

describe('1. redirects: at most five, the policy re-checked at every hop', () => {
  it('follows five redirects', async () => {
    const result = await fetchData({ url: fixture.web.url('/redirect/5') });
    expect(result.isError, result.text).toBe(false);
    expect(result.data).toMatchObject({ redirects: 5 });
  });

  it('refuses the sixth', async () => {
    const result = await fetchData({ url: fixture.web.url('/redirect/6') });
    expect(result).toMatchObject({ isError: true, code: 'redirect_refused' });
    expect(fixture.web.requestsTo('/echo')).toHaveLength(0);
  });
});

describe('2. transport bound 20 MiB, structured parsing bound 8 MiB', () => {
  it('refuses a declared body one byte past 20 MiB as too_large', async () => {
    const result = await fetchData({
      url: fixture.web.url(`/bytes/${20 * 1024 * 1024 + 1}?content-type=text/plain`),
    });
    expect(result).toMatchObject({ isError: true, code: 'too_large' });
  });

  it('refuses a decompression bomb as too_large', async () => {
    const result = await fetchData({ url: fixture.web.url('/bomb/gzip') });
    expect(result).toMatchObject({ isError: true, code: 'too_large' });
  });

  it('parses JSON of exactly 8 MiB and refuses one byte more', async () => {
    const json = (bytes: number) => {
      const prefix = '{"a":"';
      return `${prefix}${'x'.repeat(bytes - prefix.length - 2)}"}`;
    };
    const limit = 8 * 1024 * 1024;
    fixture.web.scenario('/at-bound.json', {
      headers: { 'content-type': 'application/json' },
      body: json(limit),
    });
    fixture.web.scenario('/past-bound.json', {
      headers: { 'content-type': 'application/json' },
      body: json(limit + 1),
    });
    expect((await fetchData({ url: fixture.web.url('/at-bound.json'), max_lines: 1 })).isError).toBe(false);
    expect(await fetchData({ url: fixture.web.url('/past-bound.json') })).toMatchObject({
      isError: true,
      code: 'too_large',
    });
  }, 60_000);
});

describe('3. decoding: BOM, HTTP charset, meta/XML declaration, then UTF-8', () => {
  it.each([
    ['header', 'header'],
    ['meta', 'meta'],
    ['http-equiv', 'meta'],
  ])('reads the windows-1251 page declared by %s', async (variant, source) => {
    const result = await fetchData({ url: fixture.web.url(`/charset/windows-1251/${variant}`) });
    expect(result.isError, result.text).toBe(false);
    const data = result.data as Ok;
    expect(data.document).toMatchObject({
      charset: 'windows-1251',
      charsetSource: source,
      replacementCount: 0,
    });
    expect((data.document as { title?: string }).title).toBe(CHARSET_SAMPLES['windows-1251'].title);
  });

  it('lets the BOM win over a conflicting HTTP charset', async () => {
    const result = await fetchData({ url: fixture.web.url('/charset/utf-8/bom-conflict') });
    expect((result.data as Ok).document).toMatchObject({ charset: 'utf-8', charsetSource: 'bom' });
  });

  it('reports replacement characters of undecodable UTF-8', async () => {
    fixture.web.scenario('/broken-utf8', {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xfe, 0x20, 0x6f, 0x6b]),
    });
    const result = await fetchData({ url: fixture.web.url('/broken-utf8') });
    expect((result.data as Ok).document.replacementCount).toBe(2);
    expect(result.text).toContain('replacement characters: 2');
  });

  it('rejects an unsupported declared charset', async () => {
    const result = await fetchData({ url: fixture.web.url('/charset/utf-8/bogus') });
    expect(result).toMatchObject({ isError: true, code: 'charset_error' });
  });
});

describe('4. links, 6. the output cap and the untrusted frame', () => {
  it('makes relative links absolute HTTP(S) links', async () => {
    fixture.web.scenario('/links', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html><head><title>Links</title></head><body><article><h1>Links</h1><p>Read <a href="/docs/guide">the guide</a> and <a href="javascript:alert(1)">this</a> for a start, with enough words to be an article body.</p></article></body></html>',
    });
    const result = await fetchData({ url: fixture.web.url('/links') });
    const content = (result.data as Ok).slice.content;
    expect(content).toContain(`(${fixture.web.url('/docs/guide')})`);
    expect(content).not.toContain('javascript:');
  });

  it("keeps the link of each entry's title on a list of writings, absolute (runtime and built CLI)", async () => {
    // "Relative links become safe absolute HTTP(S) links": a section front's teasers are headings
    // that link to their stories (the golden page `section-front`), and a reader opens an entry by
    // its link.
    const url = fixture.web.url('/pages/section-front');
    const title = 'A comet last seen in 1952 is back, and it is brighter than predicted';
    const result = await fetchData({ url });
    expect((result.data as Ok).slice.content).toContain(
      `## [${title}](${fixture.web.url('/science/comet-returns')})`,
    );
    const run = await runBuiltCli(['fetch', url], { home: fixture.home, env: LOCALHOST_ENV });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(run.stdout).toContain(
      `[Why the harbour's tide gauge has been reading high since March](${fixture.web.url('/science/tide-gauge')})`,
    );
  });

  it('wraps the content in the untrusted frame with the slice outside it, capped at 50000 characters by default', async () => {
    fixture.web.scenario('/many', {
      headers: { 'content-type': 'text/plain' },
      body: Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join('\n'),
    });
    const result = await fetchData({ url: fixture.web.url('/many') });
    const [control, ...rest] = result.text.split('\n');
    expect(control).toMatch(/^WebFetch status: ok \| kind: text/);
    expect(rest[0]).toBe(WEB_CONTENT_BEGIN);
    expect(result.text.split(WEB_CONTENT_END)).toHaveLength(2);
    expect((result.data as Ok).slice.content.length).toBeLessThanOrEqual(50_000);
    expect((result.data as { slice: { truncatedByChars: boolean } }).slice.truncatedByChars).toBe(true);
    expect(result.text.trimEnd()).toMatch(/\(character budget reached\); continue with start_line=\d+\]$/);
  });
});

describe('structured failures', () => {
  it('a non-success status is http_status with the status, never extracted', async () => {
    const result = await fetchData({
      url: fixture.web.url('/status/410?body=%3Ch1%3EGone%3C/h1%3E&content-type=text/html'),
    });
    expect(result).toMatchObject({ isError: true, code: 'http_status' });
    // The body is never extracted; the reason line is the tool's own words.
    expect(result.text).toBe(
      'WebFetch status: error | error: http_status | http status: 410 | attempts: 1\n' +
        'reason: the server has no page at this URL (HTTP 410); check the URL or search for where the page moved',
    );
  });

  it('unsupported content is unsupported_content', async () => {
    const result = await fetchData({ url: fixture.web.url('/bytes/64?content-type=image/png') });
    expect(result).toMatchObject({ isError: true, code: 'unsupported_content' });
  });
});

describe('the schema a host sees over MCP', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp(LOCALHOST_ENV, fixture.home);
  });
  afterAll(() => mcp.close());

  it('publishes the slice bounds and a character cap large enough for any cached document', async () => {
    const { tools } = await mcp.client.listTools();
    const fetchTool = tools.find((tool) => tool.name === 'WebFetch');
    expect(fetchTool?.inputSchema).toMatchObject({
      required: ['url'],
      properties: {
        max_lines: { minimum: 1, maximum: MAX_FETCH_LINES },
        start_line: { minimum: 1 },
        max_output_chars: { minimum: 1, maximum: MAX_FETCH_OUTPUT_CHARS },
        format: { enum: ['markdown', 'text', 'raw'] },
        render: { enum: ['never', 'auto', 'always'] },
      },
    });
    expect(MAX_FETCH_OUTPUT_CHARS).toBe(32 * 1024 * 1024);
  });
});
