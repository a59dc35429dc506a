import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHARSET_SAMPLES, type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import {
  MAX_FETCH_LINES,
  MAX_FETCH_OUTPUT_CHARS,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';
import { type RuntimeSession, startRuntime } from './support/runtime.js';

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

let web: FixtureWeb;
let home: string;
let session: RuntimeSession;
const env = { MONO_AGENT_NETWORK_MODE: 'localhost' };

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-extraction-'));
  session = await startRuntime(env);
});
beforeEach(() => web.reset());
afterAll(async () => {
  await session.close();
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const fetchData = async (args: Record<string, unknown>) => {
  const result = await session.run.webFetch(args);
  return result;
};

/** A fixture page's content as WebFetch gives it through the runtime and through the built CLI. */
const contentsOf = async (path: string): Promise<string[]> => {
  const runtime = await fetchData({ url: web.url(path) });
  const run = await runBuiltCli(['fetch', web.url(path), '--json'], { home, env });
  expect(run.code).toBe(EXIT_CODES.success);
  return [(runtime.data as Ok).slice.content, jsonOf<Ok>(run).slice.content];
};

/** Every `kept` text is in the page's content, through the runtime and the built CLI, and no `left` text is. */
const expectContents = async (path: string, kept: readonly string[], left: readonly string[]) => {
  for (const content of await contentsOf(path)) {
    for (const text of kept) expect(content).toContain(text);
    for (const text of left) expect(content).not.toContain(text);
  }
};

describe('formats: markdown (default), text, raw', () => {
  it('markdown is the default: article Markdown for HTML', async () => {
    const run = await runBuiltCli(['fetch', web.url('/pages/blog-post'), '--json'], { home, env });
    expect(run.code).toBe(EXIT_CODES.success);
    const result = jsonOf<Ok>(run);
    expect(result.document).toMatchObject({ kind: 'html', format: 'markdown' });
    expect(result.slice.content).toMatch(/^#{1,3} /m);
  });

  it('text removes the Markdown decoration', async () => {
    const result = await fetchData({ url: web.url('/pages/blog-post'), format: 'text' });
    const data = result.data as Ok;
    expect(data.document.format).toBe('text');
    expect(data.slice.content).not.toMatch(/^#{1,6} |\]\(https?:/m);
  });

  it('raw is the decoded body, markup included', async () => {
    const result = await fetchData({ url: web.url('/pages/blog-post'), format: 'raw' });
    expect((result.data as Ok).slice.content).toMatch(/<html|<body|<article/i);
  });

  it.each([
    ['/content/json', 'json', /^\{\n {2}"/],
    ['/content/rss', 'feed', /\S/],
    ['/content/atom', 'feed', /\S/],
    ['/content/pdf', 'pdf', /\S/],
    ['/content/text', 'text', /\S/],
  ])('%s is extracted as %s', async (path, kind, shape) => {
    const result = await fetchData({ url: web.url(path) });
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

describe('5. HTML: a services page wrapped in one form, its cards headed by their own headers', () => {
  it('reads every card with its title, pitch and price, without the site’s chrome or the comments (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/services-webforms',
      [
        '# Bookkeeping and payroll for small firms',
        '## Monthly bookkeeping',
        'Every receipt filed, every account reconciled.',
        'From 95 pounds a month',
        '## Payroll and pensions',
        'From 4 pounds per employee per run.',
        '## Year-end accounts and tax returns',
        'Included with monthly bookkeeping.',
        'How a boatyard cut its month-end',
      ],
      ['Our team', 'Search our guides', 'Marina Stores wrote', 'Monthly tax tips', 'registered in England'],
    );
  });
});

describe('5. HTML: a page is read as what it stands for, not as what its markup loosely says', () => {
  it("reads an application's landing page with its testimonials, though its data names a price offer (runtime and built CLI)", async () => {
    // The nested Offer once made this a product page, whose customer reviews are left out.
    await expectContents(
      '/pages/app-landing',
      [
        '## A rota that plans itself',
        '## Cover when someone calls in sick',
        '## What our customers say',
        'It takes an hour now, and nobody has been double-booked',
        'Staff sort out most changes between themselves',
        'Four euros per member of staff per month',
      ],
      ['Log in', 'Privacy'],
    );
  });

  it('reads every recipe of a category that an undated og:type calls an article, not its introduction alone (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/recipe-category',
      [
        'everything on one tin, one hot oven',
        'add the quick-cooking things for the last ten minutes only',
        'Harissa chicken with chickpeas',
        'the tomatoes burst into a sauce around them',
        'Whole roast chicken with lemons and olives',
      ],
      ['Popular now', 'Banana bread'],
    );
  });
});

describe('5. HTML: what the page shows, not what it hides or what surrounds its story', () => {
  it('reads the version of a notice the page shows, without the two languages it hides (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/language-versions',
      ['leaves the north pier every ninety minutes', 'sent to everyone who has signed up for text alerts'],
      ['Winterfahrplan', 'Inselfähre', 'quatre-vingt-dix'],
    );
  });

  it("reads a story in the one <article> holding the page's <h1> without the site's teasers (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/undeclared-story',
      ['every ninety minutes instead of every hour', 'Bicycles and foot passengers do not need to book'],
      ['More from the harbour', 'Most read', 'cycle lane', 'Quay Street'],
    );
  });

  it('links the video and the recording a story embeds instead of dropping them with its frames (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/embedded-recording',
      [
        '[YouTube video: Harbour choir, winter concert 2025](https://www.youtube.com/watch?v=Qh7Yd2-kP0w)',
        '[Spotify recording: Ines Varga on the evening call](https://open.spotify.com/episode/7pLw3Xk2Qq9ZrT1aBcDeFg)',
        '[Post on X](https://x.com/harbourmaster/status/1864012345678901234)',
      ],
      ['ads.example.net'],
    );
  });

  it('reads a short note, not the sign-up form beside it that Readability takes for its block (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/signup-form-note',
      ["Radio North's guest this morning", 'press play below'],
      ['Your email address', 'Receive the monthly letter', 'Sign me up'],
    );
  });

  it("reads a post that declares nothing without its blog's sidebar widgets and related posts (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/blog-sidebar',
      ['Aquadulce Claudia', 'Pinch out the tops'],
      ['Plot 14 in numbers', 'What is growing now', 'You may also like', 'Seed Swap North'],
    );
  });

  it("reads the story, not the consent manager's preference centre whose legal prose outweighs it (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/consent-centre',
      ['Sleeper trains will run', 'no replacement coaches'],
      ['Your privacy choices', 'Strictly necessary cookies'],
    );
  });

  it('reads the story, not the bands of teasers and links that share its hashed class name (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/story-in-grid',
      ['lowest level in thirty years', 'flooded chapel'],
      ['Winter ferry timetable', 'Letters to the editor'],
    );
  });

  it('reads the story, not the next story the page appends after it (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/next-story',
      ['keepers and their families', 'record their memories'],
      ['Harbour wall repairs'],
    );
  });

  it("reads the story without the site's menu and subscription prompts around it (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/wrapped-story',
      ['stay fresh in the glass', 'when the cheese comes out'],
      ['Subscribe now', 'Create an account'],
    );
  });

  it("writes a documentation page's Bootstrap alerts as callouts that keep their kind (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/docs-alerts',
      ['> [!NOTE]\n> The old key stays valid', '> [!DANGER] Do not skip the wait'],
      ['Note:', 'Primary'],
    );
  });

  it('writes each formula of a post saved after MathJax ran once, as TeX from its source (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/saved-mathjax-post',
      [
        'a quadratic in $s$. Its two roots',
        '$$\nx(t) = (A + Bt)\\,e^{-\\omega_0 t}\n$$',
        'the damping ratio $\\zeta = c / 2\\sqrt{km}$',
      ],
      ['m \\ddot{x}', 'MathJax'],
    );
  });

  it('keeps a short dated code block right under the headline (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/headline-code',
      ['start-date: 2026-01-15', 'whole agenda of the weekly review'],
      ['Archive'],
    );
  });

  it('reads the footnotes a page hides until their marks are used, and not the menu its toggle hides (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/hover-footnotes',
      ['kept in the town library', 'the pier dries out for an hour before dawn', 'runs for six weeks'],
      ['Subscribe to the letter'],
    );
  });

  it("reads a Japanese story as its paragraphs, weighing them by their characters, without the page's topic links and ranking (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/japanese-story',
      ['港湾委員会は二十日', '西水路を使う', '半分に満たなかった'],
      ['港湾整備', 'あわせて読みたい', 'アクセスランキング', '駅前再開発'],
    );
  });

  it("reads a repository page as its README, the <article> microdata marks as the page's text, without the file list (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/repository-readme',
      ['predicts the height of the tide', 'pip install tidecalc', 'astronomical tide alone'],
      ['Use Git or check out', 'Add the constants for eleven Baltic stations', '2 branches', 'Watch 12'],
    );
  });
});

describe('1. redirects: at most five, the policy re-checked at every hop', () => {
  it('follows five redirects', async () => {
    const result = await fetchData({ url: web.url('/redirect/5') });
    expect(result.isError, result.text).toBe(false);
    expect(result.data).toMatchObject({ redirects: 5 });
  });

  it('refuses the sixth', async () => {
    const result = await fetchData({ url: web.url('/redirect/6') });
    expect(result).toMatchObject({ isError: true, code: 'redirect_refused' });
    expect(web.requestsTo('/echo')).toHaveLength(0);
  });
});

describe('2. transport bound 20 MiB, structured parsing bound 8 MiB', () => {
  it('refuses a declared body one byte past 20 MiB as too_large', async () => {
    const result = await fetchData({
      url: web.url(`/bytes/${20 * 1024 * 1024 + 1}?content-type=text/plain`),
    });
    expect(result).toMatchObject({ isError: true, code: 'too_large' });
  });

  it('refuses a decompression bomb as too_large', async () => {
    const result = await fetchData({ url: web.url('/bomb/gzip') });
    expect(result).toMatchObject({ isError: true, code: 'too_large' });
  });

  it('parses JSON of exactly 8 MiB and refuses one byte more', async () => {
    const json = (bytes: number) => {
      const prefix = '{"a":"';
      return `${prefix}${'x'.repeat(bytes - prefix.length - 2)}"}`;
    };
    const limit = 8 * 1024 * 1024;
    web.scenario('/at-bound.json', { headers: { 'content-type': 'application/json' }, body: json(limit) });
    web.scenario('/past-bound.json', {
      headers: { 'content-type': 'application/json' },
      body: json(limit + 1),
    });
    expect((await fetchData({ url: web.url('/at-bound.json'), max_lines: 1 })).isError).toBe(false);
    expect(await fetchData({ url: web.url('/past-bound.json') })).toMatchObject({
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
    const result = await fetchData({ url: web.url(`/charset/windows-1251/${variant}`) });
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
    const result = await fetchData({ url: web.url('/charset/utf-8/bom-conflict') });
    expect((result.data as Ok).document).toMatchObject({ charset: 'utf-8', charsetSource: 'bom' });
  });

  it('reports replacement characters of undecodable UTF-8', async () => {
    web.scenario('/broken-utf8', {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xfe, 0x20, 0x6f, 0x6b]),
    });
    const result = await fetchData({ url: web.url('/broken-utf8') });
    expect((result.data as Ok).document.replacementCount).toBe(2);
    expect(result.text).toContain('replacement characters: 2');
  });

  it('rejects an unsupported declared charset', async () => {
    const result = await fetchData({ url: web.url('/charset/utf-8/bogus') });
    expect(result).toMatchObject({ isError: true, code: 'charset_error' });
  });
});

describe('4. links, 6. the output cap and the untrusted frame', () => {
  it('makes relative links absolute HTTP(S) links', async () => {
    web.scenario('/links', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html><head><title>Links</title></head><body><article><h1>Links</h1><p>Read <a href="/docs/guide">the guide</a> and <a href="javascript:alert(1)">this</a> for a start, with enough words to be an article body.</p></article></body></html>',
    });
    const result = await fetchData({ url: web.url('/links') });
    const content = (result.data as Ok).slice.content;
    expect(content).toContain(`(${web.url('/docs/guide')})`);
    expect(content).not.toContain('javascript:');
  });

  it('wraps the content in the untrusted frame with the slice outside it, capped at 50000 characters by default', async () => {
    web.scenario('/many', {
      headers: { 'content-type': 'text/plain' },
      body: Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join('\n'),
    });
    const result = await fetchData({ url: web.url('/many') });
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
      url: web.url('/status/410?body=%3Ch1%3EGone%3C/h1%3E&content-type=text/html'),
    });
    expect(result).toMatchObject({ isError: true, code: 'http_status' });
    // The body is never extracted; the reason line is the tool's own words.
    expect(result.text).toBe(
      'WebFetch status: error | error: http_status | http status: 410 | attempts: 1\n' +
        'reason: the server has no page at this URL (HTTP 410); check the URL or search for where the page moved',
    );
  });

  it('unsupported content is unsupported_content', async () => {
    const result = await fetchData({ url: web.url('/bytes/64?content-type=image/png') });
    expect(result).toMatchObject({ isError: true, code: 'unsupported_content' });
  });
});

describe('the schema a host sees over MCP', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp(env, home);
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

describe('5. HTML: what a page hides from its reader', () => {
  it('leaves out hidden menus, notices, tooltips and closed dialogs, and keeps a folded FAQ answer (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/hidden-parts',
      [
        '## 1\\. Wash and dry the hull',
        'Mark every soft spot with chalk',
        '### Can I leave the boat in the water?',
        'Only in a sheltered harbour that never freezes',
      ],
      [
        'All guides (mobile)',
        'Printed from harbourworkshop.example',
        'Tip: an awl with a wooden handle',
        'Get the weekly guide',
        'Loading comments',
        '★★★★☆',
      ],
    );
  });
});

describe('5. HTML: widgets and threads read as a reader sees them', () => {
  it("reads the description folded in a product page's accordion, which a reader-view parser takes for a menu (runtime and built CLI)", async () => {
    // The site's menu keeps its orientation marker and stays out.
    await expectContents(
      '/pages/accordion-product',
      [
        '### Description',
        'The Fieldline lantern throws a warm, even light across a four-person tent',
        '| Run time | 3 to 9 hours |',
        'Charge the lantern fully before storing it for the winter',
        '## Built for the trail',
      ],
      ['Lighting]('],
    );
  });

  it("leaves out the rank under each author's name and the details labelled by icons, and keeps every post (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/forum-ranks',
      [
        '#### Lena',
        'Every evening around eight my router drops the Wi-Fi',
        '#### Tomas',
        'move the 2.4 GHz band to 1, 6 or 11',
        'it has not dropped once since',
      ],
      ['Well-known member', 'Network wizard', 'Moderator', 'Jan 14, 2020', '18,902', 'Porto'],
    );
  });
});
