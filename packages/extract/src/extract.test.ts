import { readFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { countReplacements } from './decode/decode-body.js';
import { extract } from './extract.js';
import { MAX_STRUCTURED_PARSE_BYTES } from './structured-limit.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const url = 'https://example.org/articles/one.html';
const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;
const article = (extra = '') => `<!doctype html><html><head><title>Bridge news</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>The bridge reopens</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('\n')}${extra}</article>
<footer>Copyright footer text</footer></body></html>`;

async function rejection(promise: Promise<unknown>): Promise<WebToolError> {
  try {
    await promise;
  } catch (error) {
    if (WebToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('extract: HTML', () => {
  it('extracts the article as Markdown with its title and stage', async () => {
    const document = await extract({ body: article(), url, contentType: 'text/html; charset=utf-8' });
    expect(document).toMatchObject({
      kind: 'html',
      format: 'markdown',
      title: 'Bridge news',
      charset: 'utf-8',
    });
    expect(['defuddle', 'readability']).toContain(document.stage);
    expect(document.content).toContain('Paragraph 6 explains how the harbour bridge');
    expect(document.content).not.toContain('Copyright footer');
  });

  it('makes relative links absolute and drops unsafe targets but keeps their text', async () => {
    const links =
      '<p>See <a href="../docs/guide.html">the guide</a>, <a href="javascript:alert(1)">click me</a>, ' +
      '<a href="data:text/html,evil">data link</a>, <a href="java\tscript:alert(1)">tabbed</a>, ' +
      '<a href="//cdn.example.net/x">cdn</a> and <a href="https://user:pw@example.com/">creds</a> for the whole story of the bridge rebuild.</p>' +
      '<p><img src="/img/bridge.png" alt="Steel arch at dusk"><img src="data:image/png;base64,AAAA" alt="inline"></p>';
    const { content } = await extract({ body: article(links), url, contentType: 'text/html' });
    expect(content).toContain('[the guide](https://example.org/docs/guide.html)');
    expect(content).toContain('[cdn](https://cdn.example.net/x)');
    expect(content).toContain('click me');
    expect(content).toContain('data link');
    expect(content).toContain('tabbed');
    expect(content).toContain('creds');
    // Images are read as their alt text; their URLs, safe or not, never reach the model.
    expect(content).toContain('Steel arch at dusk');
    expect(content).not.toMatch(/javascript:|data:|user:pw|\t|bridge\.png/);
  });

  it('gives readable text without Markdown decoration in text format', async () => {
    const extra =
      '<h2>Details</h2><p>Some <strong>bold</strong> and <em>italic</em> words and <a href="/x">a link</a> in the bridge story.</p>';
    const { content, format } = await extract({
      body: article(extra),
      url,
      contentType: 'text/html',
      format: 'text',
    });
    expect(format).toBe('text');
    expect(content).toContain('Details\n\nSome bold and italic words and a link in the bridge story.');
    expect(content).not.toMatch(/[#*[\]]|https?:/);
  });

  it('returns the decoded body unchanged in raw format', async () => {
    const html = article();
    const document = await extract({
      body: new TextEncoder().encode(html),
      url,
      contentType: 'text/html',
      format: 'raw',
    });
    expect(document).toMatchObject({ kind: 'html', stage: 'raw', content: html });
  });

  it('does not let a loading shell win, and falls back to the cleaned body', async () => {
    const shell =
      '<html><head><title>App</title></head><body><nav>Menu</nav><div id="root">Loading...</div><footer>f</footer></body></html>';
    const document = await extract({ body: shell, url, contentType: 'text/html' });
    expect(document.stage).toBe('cleaned-body');
    expect(document.content).toBe('Loading...');
    expect(document.parserFailures.map((failure) => failure.stage)).toContain('defuddle');
  });

  it("keeps a shell sparse when its content is the page's description of itself", async () => {
    const shell =
      '<html><head><title>Thread</title><meta name="description" content="A long summary of a thread that only its application script shows, which runs well past the two hundred characters a sparse extraction may hold, so that the signal has to come from the body and not from the head of the page."></head><body><div id="root"></div><script>boot()</script></body></html>';
    const document = await extract({ body: shell, url, contentType: 'text/html', format: 'text' });
    expect(document.stage).toBe('page-description');
    expect(document.content.length).toBeGreaterThan(200);
    expect(document.sparseShell).toMatchObject({ textChars: 0, sparse: true });
  });

  it('dates a page that states no date by the day its address files it under, and a stated date wins', async () => {
    const filed = 'https://news.example.org/local/2024/03/05/the-bridge-reopens/';
    const undated = await extract({ body: article(), url: filed, contentType: 'text/html' });
    expect(undated.published).toBe('2024-03-05');
    const stated = await extract({
      body: article().replace(
        '<title>',
        '<meta property="article:published_time" content="2024-03-04T21:10:00Z"><title>',
      ),
      url: filed,
      contentType: 'text/html',
    });
    expect(stated.published).toBe('2024-03-04T21:10:00Z');
    // A month's archive, a number that is an id, and a date in the query are no day of the page's.
    for (const address of [
      'https://news.example.org/2024/03/',
      'https://news.example.org/story/20240399',
      'https://news.example.org/story?date=2024-03-05',
    ]) {
      expect(
        (await extract({ body: article(), url: address, contentType: 'text/html' })).published,
      ).toBeUndefined();
    }
  });

  it('decodes a Shift_JIS page declared by its meta', async () => {
    const document = await extract({
      body: fixture('shift-jis-meta.html'),
      url,
      contentType: 'text/html',
      format: 'text',
    });
    expect(document).toMatchObject({ charset: 'shift_jis', charsetSource: 'meta', replacementCount: 0 });
    expect(document.content).toContain('吾輩は猫である');
  });
});

describe('extract: JSON', () => {
  it('pretty-prints declared JSON', async () => {
    const document = await extract({
      body: '{"a":[1,2],"b":{"c":"d"}}',
      url,
      contentType: 'application/vnd.api+json',
    });
    expect(document).toMatchObject({
      kind: 'json',
      stage: 'json',
      content: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {\n    "c": "d"\n  }\n}',
    });
  });

  it('reports where invalid JSON breaks', async () => {
    const error = await rejection(
      extract({ body: '{\n  "a": 1,\n  "b": }', url, contentType: 'application/json' }),
    );
    expect(error.code).toBe('parse_error');
    expect(error.details).toMatchObject({ line: 3, column: 8, offset: 19 });
    expect(error.message).toContain('line 3, column 8');
  });

  it(`parses a body of exactly ${MAX_STRUCTURED_PARSE_BYTES} bytes and rejects one byte more`, async () => {
    const atBound = `"${'a'.repeat(MAX_STRUCTURED_PARSE_BYTES - 2)}"`;
    const document = await extract({ body: atBound, url, contentType: 'application/json' });
    expect(document.content.length).toBe(MAX_STRUCTURED_PARSE_BYTES);
    const error = await rejection(extract({ body: `${atBound} `, url, contentType: 'application/json' }));
    expect(error.code).toBe('too_large');
    expect(error.details).toMatchObject({
      bytes: MAX_STRUCTURED_PARSE_BYTES + 1,
      limit: MAX_STRUCTURED_PARSE_BYTES,
    });
  });
});

describe('extract: XML and feeds', () => {
  it('turns an ISO-8859-1 RSS feed into a list of entries', async () => {
    const document = await extract({
      body: fixture('iso-8859-1-feed.xml'),
      url,
      contentType: 'application/rss+xml',
    });
    expect(document).toMatchObject({
      kind: 'feed',
      stage: 'feed',
      title: 'Café du matin',
      charsetSource: 'xml-declaration',
    });
    expect(document.content).toBe(
      '# Café du matin\n\n- [Crème brûlée à la française](https://example.org/posts/creme) (Mon, 02 Jun 2025 08:00:00 GMT)\n  Déjà vu, naïve façade.',
    );
  });

  it('turns an Atom feed served as application/xml into entries', async () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Dev log</title>
<entry><title>Release 2.0</title><link rel="alternate" href="https://example.org/2.0"/><updated>2025-01-02T00:00:00Z</updated><summary>Faster &amp; smaller.</summary></entry>
<entry><title>Bad link</title><link href="javascript:alert(1)"/><updated>2025-01-01T00:00:00Z</updated></entry>
</feed>`;
    const document = await extract({ body: atom, url, contentType: 'application/xml', format: 'text' });
    expect(document.kind).toBe('feed');
    expect(document.content).toBe(
      'Dev log\n\n- Release 2.0 (2025-01-02T00:00:00Z)\n  Faster & smaller.\n- Bad link (2025-01-01T00:00:00Z)',
    );
  });

  it('keeps other XML as validated text', async () => {
    const xml = '<?xml version="1.0"?>\n<config><item key="a">1</item></config>\n';
    const document = await extract({ body: xml, url, contentType: 'text/xml' });
    expect(document).toMatchObject({ kind: 'xml', stage: 'xml', content: xml.trim() });
  });

  it('rejects malformed XML with its position', async () => {
    const error = await rejection(extract({ body: '<a>\n<b></a>', url, contentType: 'application/xml' }));
    expect(error.code).toBe('parse_error');
    expect(error.details).toMatchObject({ kind: 'xml', line: 2 });
  });
});

describe('extract: PDF', () => {
  it('extracts the text of each page behind page markers', async () => {
    const document = await extract({ body: fixture('two-pages.pdf'), url, contentType: 'application/pdf' });
    expect(document).toMatchObject({ kind: 'pdf', stage: 'pdf', pageCount: 2, title: 'Fixture Report' });
    expect(document.content).toBe(
      '[page 1 of 2]\n\nFirst page says hello.\n\n[page 2 of 2]\n\nSecond page says goodbye.',
    );
  });

  it('sniffs an undeclared PDF and leaves the caller bytes intact', async () => {
    const body = fixture('two-pages.pdf');
    const copy = body.slice();
    const document = await extract({ body, url, format: 'text' });
    expect(document.kind).toBe('pdf');
    expect(body).toEqual(copy);
  });

  it('fails clearly on an encrypted PDF', async () => {
    const error = await rejection(
      extract({ body: fixture('encrypted.pdf'), url, contentType: 'application/pdf' }),
    );
    expect(error.code).toBe('parse_error');
    expect(error.details.reason).toBe('encrypted');
  });

  it('fails clearly on a broken PDF', async () => {
    const error = await rejection(
      extract({ body: fixture('broken.pdf'), url, contentType: 'application/pdf' }),
    );
    expect(error.code).toBe('parse_error');
    expect(error.details.kind).toBe('pdf');
  });

  it('has no raw form', async () => {
    const error = await rejection(extract({ body: fixture('two-pages.pdf'), url, format: 'raw' }));
    expect(error.code).toBe('unsupported_content');
  });
});

describe('extract: text and input checks', () => {
  it('returns undeclared windows-1251 text as UTF-8 with its replacement characters, the charset only a hint', async () => {
    const body = fixture('windows-1251.txt');
    const document = await extract({ body, url, contentType: 'text/plain' });
    const asUtf8 = new TextDecoder('utf-8').decode(body);
    expect(document).toMatchObject({
      kind: 'text',
      stage: 'text',
      charset: 'utf-8',
      charsetSource: 'default',
      charsetHint: 'windows-1251',
      content: asUtf8,
      replacementCount: countReplacements(asUtf8),
    });
    expect(document.replacementCount).toBeGreaterThan(0);
    expect(document.content).not.toContain('Съешь же ещё');
  });

  it('reads undeclared UTF-16 text with a BOM as text, not as binary', async () => {
    const body = new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]);
    expect(await extract({ body, url })).toMatchObject({
      kind: 'text',
      content: 'Hi',
      charset: 'utf-16le',
      charsetSource: 'bom',
    });
  });

  it('does not treat undeclared JSON-looking text as JSON', async () => {
    const document = await extract({ body: '{"a":1}', url, contentType: 'text/plain' });
    expect(document).toMatchObject({ kind: 'text', content: '{"a":1}' });
  });

  it('rejects binary content kinds', async () => {
    const error = await rejection(
      extract({ body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0]), url, contentType: 'image/png' }),
    );
    expect(error.code).toBe('unsupported_content');
    const undeclared = await rejection(extract({ body: new Uint8Array([1, 2, 0, 3]), url }));
    expect(undeclared.code).toBe('unsupported_content');
  });

  it('rejects an undecodable declared charset', async () => {
    const error = await rejection(
      extract({ body: new Uint8Array([0x41]), url, contentType: 'text/plain; charset=no-such-charset' }),
    );
    expect(error.code).toBe('charset_error');
  });

  it('validates its options', async () => {
    expect((await rejection(extract({ body: 'x', url: 'ftp://example.org/' }))).code).toBe(
      'validation_error',
    );
    expect((await rejection(extract({ body: 'x', url: 'not a url' }))).code).toBe('validation_error');
    expect((await rejection(extract({ body: 'x', url, format: 'pdf' as never }))).code).toBe(
      'validation_error',
    );
    expect((await rejection(extract({ body: 42 as never, url }))).code).toBe('validation_error');
  });
});
