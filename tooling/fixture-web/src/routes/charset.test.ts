import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARSET_SAMPLES, FIXTURE_CHARSETS } from '../charset-pages/charset-documents.js';
import { allCharsetPages, BOGUS_CHARSET } from '../charset-pages/charset-variants.js';
import { type FixtureWeb, startFixtureWeb } from '../start-fixture-web.js';
import { rawRequest } from '../test-support/raw-http.js';

let fixture: FixtureWeb;

beforeAll(async () => {
  fixture = await startFixtureWeb();
});
afterAll(() => fixture.close());

const BOM = [0xef, 0xbb, 0xbf];

describe('/charset/<charset>/<variant>', () => {
  const pages = allCharsetPages();

  it('offers every variant for every charset, and the BOM variants for UTF-8 only', () => {
    expect(pages).toHaveLength(FIXTURE_CHARSETS.length * 6 + 2);
    expect(pages.filter((page) => page.bom).map((page) => page.charset)).toEqual(['utf-8', 'utf-8']);
  });

  it.each(pages.map((page) => [`${page.charset}/${page.variant}`, page] as const))(
    '%s is really encoded in its charset',
    async (_name, page) => {
      const response = await rawRequest(fixture.url(`/charset/${page.charset}/${page.variant}`));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(page.contentType);
      const body = page.bom ? response.body.subarray(3) : response.body;
      if (page.bom) expect([...response.body.subarray(0, 3)]).toEqual(BOM);
      else expect([...response.body.subarray(0, 3)]).not.toEqual(BOM);

      expect(new TextDecoder(page.charset).decode(body)).toBe(page.expectedText);
      for (const paragraph of CHARSET_SAMPLES[page.charset].paragraphs) {
        expect(page.expectedText).toContain(paragraph.replace(/&/g, '&amp;'));
      }
      if (page.charset !== 'utf-8') {
        // Legacy bytes are not UTF-8, so a client that ignores the charset gets mojibake or an error.
        expect(() => new TextDecoder('utf-8', { fatal: true }).decode(body)).toThrow();
      }

      // The same bytes are served by name.
      const byName = await rawRequest(fixture.url(`/pages/${page.charset}-${page.variant}`));
      expect(byName.body.equals(response.body)).toBe(true);
    },
  );

  it('declares the charset only where the variant says', async () => {
    const text = async (path: string) => (await rawRequest(fixture.url(path))).body.toString('latin1');
    expect(await text('/charset/shift_jis/meta')).toContain('<meta charset="Shift_JIS">');
    expect(await text('/charset/windows-1251/http-equiv')).toContain(
      '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
    );
    expect(await text('/charset/iso-8859-1/xml')).toMatch(
      /^<\?xml version="1\.0" encoding="ISO-8859-1"\?>\n<rss/,
    );
    for (const variant of ['header', 'none', 'bogus']) {
      const body = await text(`/charset/shift_jis/${variant}`);
      expect(body).not.toMatch(/charset|encoding=/i);
    }
    const bogus = await rawRequest(fixture.url('/charset/windows-1251/bogus'));
    expect(bogus.headers['content-type']).toBe(`text/html; charset=${BOGUS_CHARSET}`);
    const conflict = await rawRequest(fixture.url('/charset/utf-8/bom-conflict'));
    expect(conflict.headers['content-type']).toBe('text/html; charset=windows-1251');
  });

  it('answers 404 for unknown charsets and for a BOM on a legacy charset', async () => {
    expect((await rawRequest(fixture.url('/charset/koi8-r/meta'))).status).toBe(404);
    expect((await rawRequest(fixture.url('/charset/shift_jis/bom'))).status).toBe(404);
  });
});
