import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { rawRequest } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

interface IndexEntry {
  name: string;
  path: string;
  contentType: string;
}

describe('/pages', () => {
  it('lists every recorded page, and each answers with its content type', async () => {
    const index = (await (await fetch(fixture.url('/pages'))).json()) as IndexEntry[];
    expect(index.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['news-article', 'blog-post', 'docs-page', 'shift_jis-meta', 'utf-8-bom']),
    );
    for (const entry of index) {
      const response = await rawRequest(fixture.url(entry.path));
      expect(response.status, entry.path).toBe(200);
      expect(response.headers['content-type']).toBe(entry.contentType);
      expect(response.body.length).toBeGreaterThan(500);
    }
  });

  it.each(['news-article', 'blog-post', 'docs-page'])('%s is a complete article page', async (name) => {
    const response = await rawRequest(fixture.url(`/pages/${name}`));
    const html = response.body.toString('utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<h1[^>]*>/);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('answers 404 for an unknown name, and HEAD with the length but no body', async () => {
    expect((await rawRequest(fixture.url('/pages/nope'))).status).toBe(404);
    const head = await rawRequest(fixture.url('/pages/docs-page'), { method: 'HEAD' });
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
    expect(head.body.length).toBe(0);
  });

  it('serves an index page linking to the pages', async () => {
    const html = await (await fetch(fixture.url('/'))).text();
    expect(html).toContain('<a href="/pages/news-article">');
    expect(html).toContain('<a href="/content/rss">');
  });

  it('answers unknown paths with a JSON 404', async () => {
    const response = await fetch(fixture.url('/no/such/path'));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not found', path: '/no/such/path' });
    expect(fixture.requestsTo('/no/such/path')[0]?.route).toBe('not-found');
  });
});
