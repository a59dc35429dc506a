import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPattern } from '../body-pattern.js';
import { findRecordedPage } from '../recorded-pages.js';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { rawRequest } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

const decoders = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync } as const;

describe('/compressed/<encoding>/<subject>', () => {
  it.each(Object.keys(decoders) as (keyof typeof decoders)[])(
    'serves a recorded page as %s',
    async (encoding) => {
      const page = await findRecordedPage('news-article')!.load();
      const raw = await rawRequest(fixture.url(`/compressed/${encoding}/news-article`));
      expect(raw.headers['content-encoding']).toBe(encoding);
      expect(raw.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(raw.headers['content-length']).toBe(String(raw.body.length));
      expect(raw.body.length).toBeLessThan(page.length);
      expect(decoders[encoding](raw.body).equals(page)).toBe(true);

      // fetch decodes it transparently.
      const decoded = await fetch(fixture.url(`/compressed/${encoding}/news-article`));
      expect(Buffer.from(await decoded.arrayBuffer()).equals(page)).toBe(true);
    },
  );

  it.each(Object.keys(decoders) as (keyof typeof decoders)[])(
    'streams n bytes of text as %s',
    async (encoding) => {
      const total = 3 * 1024 * 1024 + 17;
      const raw = await rawRequest(fixture.url(`/compressed/${encoding}/${total}`));
      expect(raw.headers['transfer-encoding']).toBe('chunked');
      expect(raw.headers['x-fixture-decoded-length']).toBe(String(total));
      const plain = decoders[encoding](raw.body);
      expect(plain.length).toBe(total);
      expect(plain.subarray(0, 200).every((byte, offset) => byte === textPattern.at(offset))).toBe(true);
      expect(plain.at(-1)).toBe(textPattern.at(total - 1));
    },
  );

  it('sends a bare deflate stream with raw=1, as misconfigured servers do', async () => {
    const raw = await rawRequest(fixture.url('/compressed/deflate/blog-post?raw=1'));
    expect(raw.headers['content-encoding']).toBe('deflate');
    expect(() => inflateSync(raw.body)).toThrow();
    expect(inflateRawSync(raw.body).equals(await findRecordedPage('blog-post')!.load())).toBe(true);
  });

  it('answers 404 for an unknown page and 400 for an unknown encoding', async () => {
    expect((await rawRequest(fixture.url('/compressed/gzip/no-such-page'))).status).toBe(404);
    expect((await rawRequest(fixture.url('/compressed/zstd/news-article'))).status).toBe(400);
  });
});
