// WebFetch's decoding order and its HTML cascade, driven the way hosts drive it: createWebRuntime
// and the built `mono-agent-web` binary, against the loopback fixture web.
//
// Contract, static extraction step 3: "Decode by BOM, HTTP charset, HTML meta/XML declaration, then
// UTF-8, reporting replacement characters and rejecting unsupported declared charsets."
// Step 4: "Parse HTML with Defuddle, then Readability plus Turndown, then a cleaned-body Turndown
// fallback."
import {
  LEGACY_CHARSETS,
  LEGACY_FORMS,
  LEGACY_TEXTS,
  legacyTextBytes,
  recordedPages,
} from '@mono-agent/fixture-web';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { LOCALHOST_ENV, useFixtureSession } from './support/fixture-session.js';

interface FetchData {
  status: 'ok';
  document: {
    kind: string;
    charset: string;
    charsetSource: string;
    charsetHint?: string;
    declaredCharset?: string;
    replacementCount: number;
    stage: string;
    parserFailures: Array<{ stage: string; reason: string }>;
  };
  slice: { content: string };
}

const fixture = useFixtureSession('web-fetch-charset-cascade');

async function fetchOk(path: string, args: Record<string, unknown> = {}) {
  const result = await fixture.session.run.webFetch({
    url: fixture.web.url(path),
    max_output_chars: 200_000,
    ...args,
  });
  expect(result.isError, result.text.slice(0, 400)).toBe(false);
  return { text: result.text, data: result.data as FetchData };
}

const replacements = (text: string) => text.split('\uFFFD').length - 1;

/**
 * The charset the detector names for each undeclared page: the page's own, except where another
 * charset reads these very bytes the same (Greek windows-1253 as ISO-8859-7, GBK as its superset).
 */
const EXPECTED_HINT: Readonly<Record<string, string>> = {
  'windows-1253': 'iso-8859-7',
  gbk: 'gb18030',
};

describe('"then UTF-8 with every replacement character counted and reported. A charset guess may never change the decoded text."', () => {
  for (const charset of LEGACY_CHARSETS) {
    it(`reads undeclared ${charset} bytes as UTF-8, counts every replacement character, and only hints at ${charset}`, async () => {
      for (const form of LEGACY_FORMS) {
        const bytes = legacyTextBytes(charset, form);
        const { text, data } = await fetchOk(`/legacy-text/${charset}?as=${form}`, { format: 'raw' });
        const asUtf8 = new TextDecoder('utf-8').decode(bytes);
        expect(data.document).toMatchObject({
          charset: 'utf-8',
          charsetSource: 'default',
          replacementCount: replacements(asUtf8),
        });
        expect(data.document.replacementCount).toBeGreaterThan(0);
        // The text is what UTF-8 makes of the bytes, never a guessed charset's reading of them.
        expect(data.slice.content).not.toContain(LEGACY_TEXTS[charset].paragraphs[0]);
        expect(text).toContain(`replacement characters: ${data.document.replacementCount}`);
        // "A detector's opinion may be reported as a hint in the reason line."
        const hint = EXPECTED_HINT[charset] ?? charset;
        expect(data.document.charsetHint, form).toBe(hint);
        expect(text).toContain(
          `reason: the bytes look like ${hint}; neither the server nor the page declared a charset`,
        );
      }
    });
  }

  it('says the same through the built CLI', async () => {
    const run = await runBuiltCli(['fetch', fixture.web.url('/legacy-text/koi8-u'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    const data = jsonOf<FetchData>(run);
    expect(data.document).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'default',
      charsetHint: 'koi8-u',
    });
    expect(data.document.replacementCount).toBeGreaterThan(0);
    expect(data.slice.content).not.toContain('бібліотеку');
  });
});

describe('"BOM, then the HTTP charset, then the HTML meta or XML declaration": conflicting declarations', () => {
  const serve = (path: string, contentType: string, body: Uint8Array) =>
    fixture.web.scenario(path, { headers: { 'content-type': contentType }, body: Buffer.from(body) });
  const ascii = (text: string) => new TextEncoder().encode(text);
  const cyrillic = legacyTextBytes('windows-1251', 'text');

  it('lets the HTTP charset win over the page <meta>, and reports what the bytes look like', async () => {
    serve(
      '/conflict',
      'text/plain; charset=utf-8',
      new Uint8Array([...ascii('<meta charset="windows-1251">'), ...cyrillic]),
    );
    const { text, data } = await fetchOk('/conflict', { format: 'raw' });
    expect(data.document).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'header',
      charsetHint: 'windows-1251',
    });
    expect(text).toContain('reason: the bytes look like windows-1251; the server declared utf-8');
  });

  it('lets a byte order mark win over the HTTP charset', async () => {
    serve(
      '/bom',
      'text/plain; charset=windows-1251',
      new Uint8Array([0xff, 0xfe, ...legacyTextBytes('utf-16le', 'text')]),
    );
    const { data } = await fetchOk('/bom', { format: 'raw' });
    expect(data.document).toMatchObject({ charset: 'utf-16le', charsetSource: 'bom', replacementCount: 0 });
    expect(data.slice.content).toContain(LEGACY_TEXTS['utf-16le'].paragraphs[0]);
  });

  it('reads an XML declaration in UTF-16 without a byte order mark', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Grüße</title><item><title>Straße</title><link>https://example.com/a</link><description>Bücherei</description></item></channel></rss>`;
    const bytes = new Uint8Array(Buffer.from(xml, 'utf16le'));
    serve('/utf16.xml', 'application/rss+xml', bytes);
    const { data } = await fetchOk('/utf16.xml');
    expect(data.document).toMatchObject({
      kind: 'feed',
      charset: 'utf-16le',
      charsetSource: 'xml-declaration',
      replacementCount: 0,
    });
    expect(data.slice.content).toContain('Straße');
  });

  // A copy of a page re-encoded as UTF-8 (a saved page, an archive) keeps the original's <meta>.
  const reencoded = (charset: string) =>
    new TextEncoder().encode(
      `<!doctype html><html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"><title>${LEGACY_TEXTS.gbk.title}</title></head><body><article><h1>${LEGACY_TEXTS.gbk.title}</h1>${LEGACY_TEXTS.gbk.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('')}</article></body></html>`,
    );

  it('reads as UTF-8 a page whose <meta> names a legacy charset its bytes are not in, and says so', async () => {
    serve('/reencoded', 'text/html', reencoded('GB2312'));
    const { text, data } = await fetchOk('/reencoded');
    expect(data.document).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'bytes',
      declaredCharset: 'gbk',
      replacementCount: 0,
    });
    expect(data.slice.content).toContain(LEGACY_TEXTS.gbk.paragraphs[0]);
    expect(text).toContain(
      'reason: the page declared gbk, but its bytes are valid UTF-8 throughout, so the body was decoded as utf-8.',
    );
    const run = await runBuiltCli(['fetch', fixture.web.url('/reencoded'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<FetchData>(run).document).toMatchObject({ charsetSource: 'bytes', declaredCharset: 'gbk' });
  });

  it('reads real legacy bytes by the <meta> that names them, and obeys a header over UTF-8 bytes', async () => {
    serve(
      '/declared-gbk',
      'text/html',
      new Uint8Array([...ascii('<meta charset="GB2312"><article>'), ...legacyTextBytes('gbk', 'text')]),
    );
    const declared = await fetchOk('/declared-gbk');
    expect(declared.data.document).toMatchObject({
      charset: 'gbk',
      charsetSource: 'meta',
      replacementCount: 0,
    });
    expect(declared.data.slice.content).toContain(LEGACY_TEXTS.gbk.paragraphs[0]);
    serve('/header-gbk', 'text/html; charset=gbk', reencoded('GB2312'));
    const header = await fetchOk('/header-gbk');
    expect(header.data.document).toMatchObject({ charset: 'gbk', charsetSource: 'header' });
    expect(header.data.document.declaredCharset).toBeUndefined();
    expect(header.data.slice.content).not.toContain(LEGACY_TEXTS.gbk.paragraphs[0]);
  });

  it('reads legacy bytes by a <meta> that its head sets after more than 1024 bytes of scripts, as a browser does', async () => {
    const scripts = `<script>${'window.consent = window.consent || [];\n'.repeat(40)}</script>`;
    const head = `<!doctype html><html><head><!-- consent notice -->${scripts}<meta charset="GB2312"><title>t</title></head>`;
    expect(head.indexOf('<meta')).toBeGreaterThan(1024);
    serve(
      '/late-meta',
      'text/html',
      new Uint8Array([...ascii(`${head}<body><article>`), ...legacyTextBytes('gbk', 'text')]),
    );
    const { data } = await fetchOk('/late-meta');
    expect(data.document).toMatchObject({ charset: 'gbk', charsetSource: 'meta', replacementCount: 0 });
    expect(data.document.charsetHint).toBeUndefined();
    expect(data.slice.content).toContain(LEGACY_TEXTS.gbk.paragraphs[0]);
    const run = await runBuiltCli(['fetch', fixture.web.url('/late-meta'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf<FetchData>(run).document).toMatchObject({
      charset: 'gbk',
      charsetSource: 'meta',
      replacementCount: 0,
    });
  });

  it.each([
    ['the HTTP header', 'text/html; charset=x-no-such-charset', '<p>x</p>'],
    ['the <meta>', 'text/html', '<meta charset="x-no-such-charset"><p>x</p>'],
    ['the XML declaration', 'application/xml', '<?xml version="1.0" encoding="x-no-such-charset"?><a>x</a>'],
  ])('refuses an unsupported charset declared by %s, naming it', async (_, contentType, body) => {
    serve('/bogus', contentType, ascii(body));
    const result = await fixture.session.run.webFetch({ url: fixture.web.url('/bogus') });
    expect(result).toMatchObject({ isError: true, code: 'charset_error' });
    expect(result.text).toContain('x-no-such-charset');
  });
});

/** The HTML cascade in its order; a page-description answer comes after the cleaned body found no text. */
const CASCADE = ['defuddle', 'readability', 'cleaned-body', 'page-description'];

/** "`stage` and `parserFailures` must say which stage produced the text and why each earlier one was passed over." */
function expectTruthfulRecord(document: FetchData['document']) {
  const winner = CASCADE.indexOf(document.stage);
  expect(winner, document.stage).toBeGreaterThanOrEqual(0);
  expect(document.parserFailures.map((failure) => failure.stage)).toEqual(CASCADE.slice(0, winner));
  for (const failure of document.parserFailures) expect(failure.reason.length).toBeGreaterThan(0);
}

const prose = (topic: string, count: number) =>
  Array.from(
    { length: count },
    (_, index) =>
      `${topic} note ${index + 1} says how the service handles ${topic.toLowerCase()} for every team.`,
  ).join(' ');

describe('"Parse HTML with Defuddle, then Readability plus Turndown, then a cleaned-body Turndown fallback": the record', () => {
  const serveHtml = (path: string, html: string) =>
    fixture.web.scenario(path, { headers: { 'content-type': 'text/html; charset=utf-8' }, body: html });

  it('an article page that keeps Readability’s block says why Defuddle, which ran first, was passed over', async () => {
    const paragraphs = Array.from(
      { length: 6 },
      (_, index) =>
        `<p>${Array.from({ length: 3 }, (_, sentence) => `Harbour ${index} sentence ${sentence} explains one more detail of the works at some length, so that the paragraph reads like real prose.`).join(' ')}</p>`,
    ).join('');
    serveHtml(
      '/story',
      `<!doctype html><html><head><title>Harbour works</title><meta property="og:type" content="article"></head><body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header><main><article><h1>Harbour works begin</h1>${paragraphs}</article></main><footer>Copyright Harbour News</footer></body></html>`,
    );
    const { data } = await fetchOk('/story');
    expectTruthfulRecord(data.document);
    expect(data.document.stage).toBe('readability');
    expect(data.document.parserFailures[0]?.reason).toMatch(
      /^article page: Readability's block is the whole story/,
    );
    expect(data.slice.content).toContain('Harbour 5 sentence 2');
  });

  it('a page whose Defuddle article was usable but kept one section says so when it ends at the cleaned body', async () => {
    const section = (title: string, name: string) =>
      `<section class="${name}"><div class="container"><h2>${title}</h2><p>${prose(title, 3)}</p></div></section>`;
    serveHtml(
      '/landing',
      `<!doctype html><html><head><title>Acme Payroll</title><meta property="og:type" content="website"></head><body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header>
<main><section class="hero"><h1>Payroll for small teams</h1><p>${prose('Payroll', 2)}</p></section>
${section('Time tracking', 'feature-grid')}${section('Benefits', 'feature-grid')}
<div class="content"><article><h2>How Acme runs payroll</h2><p>${prose('Onboarding', 6)}</p></article></div>
${section('Tax filing', 'testimonial')}${section('Support', 'faq')}</main>
<footer><p>Copyright Acme Company</p></footer></body></html>`,
    );
    const { text, data } = await fetchOk('/landing');
    expect(text).toContain('stage: cleaned-body');
    expectTruthfulRecord(data.document);
    expect(data.document.parserFailures[0]?.reason).toMatch(
      /under 50% of the words of the page's main region/,
    );
    for (const heading of ['## Time tracking', '## How Acme runs payroll', '## Support'])
      expect(data.slice.content).toContain(heading);
  });

  it('every recorded page of the fixture web gets a truthful record, through the runtime and the built CLI', async () => {
    const names = recordedPages()
      .filter((page) => page.contentType.startsWith('text/html') && !page.name.includes('bogus'))
      .map((page) => page.name);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const { data } = await fetchOk(`/pages/${name}`);
      if (data.document.kind === 'html') expectTruthfulRecord(data.document);
    }
    const run = await runBuiltCli(['fetch', fixture.web.url('/pages/feature-page'), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expectTruthfulRecord(jsonOf<FetchData>(run).document);
  });
});
