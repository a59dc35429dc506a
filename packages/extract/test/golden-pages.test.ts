import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEHAVIOURS } from './golden-behaviours.js';
import { extractGoldenPage, GOLDEN_FILES, GOLDEN_PAGES_DIRECTORY, goldenPageNames } from './golden-pages.js';

// Each page under test/pages/ is extracted and compared with its expected Markdown and metadata.
// After an intended change, `pnpm tsx packages/extract/scripts/update-golden-pages.ts` rewrites the
// expected files, and the change is reviewed as their diff. The behaviours in golden-behaviours.ts
// are what each page is there for; they hold whatever the rest of the expected file says.

const expected = (name: string, file: string) =>
  readFileSync(join(GOLDEN_PAGES_DIRECTORY, name, file), 'utf8');

describe('golden pages: extraction gives the expected Markdown and metadata', () => {
  it.each(goldenPageNames())('%s', async (name) => {
    const { markdown, metadata } = await extractGoldenPage(name);
    expect(markdown).toBe(expected(name, GOLDEN_FILES.markdown));
    expect(JSON.parse(metadata)).toEqual(JSON.parse(expected(name, GOLDEN_FILES.metadata)));
  });
});

describe('golden pages: the behaviour each page is kept for', () => {
  for (const [name, behaviours] of Object.entries(BEHAVIOURS)) {
    for (const [what, { keeps = [], once = [], drops = [] }] of Object.entries(behaviours)) {
      it(`${name}: ${what}`, () => {
        const markdown = expected(name, GOLDEN_FILES.markdown);
        for (const text of keeps) expect(markdown).toContain(text);
        for (const text of once) expect(markdown.split(text)).toHaveLength(2);
        for (const text of drops) expect(markdown).not.toContain(text);
      });
    }
  }

  it('saved-story: the streamed paragraph stands where its placeholder stood', () => {
    const markdown = expected('saved-story', GOLDEN_FILES.markdown);
    expect(markdown.indexOf('ferry to the island')).toBeGreaterThan(markdown.indexOf('2.4 million euro'));
  });

  it("publisher-byline: the writer from the byline's own element over an author tag that names the site, and the date under the subtitle", () => {
    const metadata = JSON.parse(expected('publisher-byline', GOLDEN_FILES.metadata));
    expect(metadata.author).toBe('Mara Quinn');
    expect(metadata.published).toBe('2025-11-20T16:05:00Z');
    expect(metadata.siteName).toBe('Coastline Daily');
  });

  it("wire-byline: the writers after the byline's Print and Email links, without the site's name they are signed with", () => {
    const metadata = JSON.parse(expected('wire-byline', GOLDEN_FILES.metadata));
    expect(metadata.author).toBe('Ana Lee and Bo Park');
    expect(metadata.siteName).toBe('Harbour Wire');
  });

  it("site-in-title: the headline as the title, without the site's name its <title> adds after a full-width colon", () => {
    const metadata = JSON.parse(expected('site-in-title', GOLDEN_FILES.metadata));
    expect(metadata.title).toBe('港の東水路、11月からしゅんせつ　フェリー座礁受け');
    expect(metadata.siteName).toBe('港町新聞デジタル');
  });

  it('every page named here is in the corpus', () => {
    for (const name of Object.keys(BEHAVIOURS)) expect(goldenPageNames()).toContain(name);
  });
});
