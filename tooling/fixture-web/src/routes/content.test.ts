import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_ENTRIES } from '../content/feeds.js';
import { FIXTURE_PDF_PAGES } from '../content/pdf-document.js';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { rawRequest } from '../test-support/raw-http.js';
import { checkWellFormedXml } from '../test-support/well-formed-xml.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

async function get(kind: string, host: '127.0.0.1' | '127.0.0.2' = '127.0.0.1') {
  const response = await rawRequest(fixture.url(`/content/${kind}`, { host }));
  expect(response.status).toBe(200);
  expect(response.headers['content-length']).toBe(String(response.body.length));
  return {
    contentType: response.headers['content-type'],
    body: response.body,
    text: response.body.toString('utf8'),
  };
}

describe('/content/<kind>', () => {
  it('json parses and links back to the fixture', async () => {
    const { contentType, text } = await get('json');
    expect(contentType).toBe('application/json');
    const document = JSON.parse(text) as { results: { url: string }[]; meta: { note: string } };
    expect(document.results).toHaveLength(FEED_ENTRIES.length);
    expect(document.results[0]?.url).toBe(fixture.url('/pages/news-article'));
    expect(document.meta.note).toContain('日本語');
  });

  it('json-invalid is labelled JSON but does not parse', async () => {
    const { contentType, text } = await get('json-invalid');
    expect(contentType).toBe('application/json');
    expect(text.startsWith('{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('xml is a well-formed sitemap on the requested host', async () => {
    const { contentType, text } = await get('xml', '127.0.0.2');
    expect(contentType).toBe('application/xml; charset=utf-8');
    expect(checkWellFormedXml(text)).toBe('urlset');
    expect(text).toContain(`<loc>http://127.0.0.2:${fixture.port}/pages/blog-post</loc>`);
  });

  it('rss is a well-formed RSS 2.0 feed', async () => {
    const { contentType, text } = await get('rss');
    expect(contentType).toBe('application/rss+xml; charset=utf-8');
    expect(checkWellFormedXml(text)).toBe('rss');
    expect(text).toContain('<rss version="2.0"');
    expect(text.match(/<item>/g)).toHaveLength(FEED_ENTRIES.length);
    expect(text).toContain(`<link>${fixture.url('/pages/news-article')}</link>`);
    expect(text).toContain('<pubDate>Tue, 09 Apr 2024 16:20:00 GMT</pubDate>');
  });

  it('atom is a well-formed Atom feed', async () => {
    const { contentType, text } = await get('atom');
    expect(contentType).toBe('application/atom+xml; charset=utf-8');
    expect(checkWellFormedXml(text)).toBe('feed');
    expect(text).toContain('xmlns="http://www.w3.org/2005/Atom"');
    expect(text.match(/<entry>/g)).toHaveLength(FEED_ENTRIES.length);
    expect(text).toContain('defaults &amp; examples');
  });

  it('pdf is a PDF with two pages of text', async () => {
    const { contentType, body } = await get('pdf');
    expect(contentType).toBe('application/pdf');
    const text = body.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain('/Count 2');
    expect(text).toContain(`(${FIXTURE_PDF_PAGES[1]![2]}) Tj`);
  });

  it('text and html have their types', async () => {
    const text = await get('text');
    expect(text.contentType).toBe('text/plain; charset=utf-8');
    expect(text.text).toContain('Café Zürich');
    const html = await get('html');
    expect(html.contentType).toBe('text/html; charset=utf-8');
    expect(html.text).toMatch(/^<!DOCTYPE html>/);
    expect(html.text).toContain('<article>');
  });

  it('answers 404 for an unknown kind', async () => {
    expect((await rawRequest(fixture.url('/content/yaml'))).status).toBe(404);
    expect((await rawRequest(fixture.url('/content/toString'))).status).toBe(404);
  });
});
