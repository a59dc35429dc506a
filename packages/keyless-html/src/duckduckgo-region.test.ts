import { describe, expect, it } from 'vitest';
import { readFixture } from './__fixtures__/read-fixture.js';
import { DUCKDUCKGO_REGIONS, duckDuckGoRegion } from './duckduckgo-region.js';

describe('duckDuckGoRegion', () => {
  it.each([
    ['en', 'us-en'],
    ['en-US', 'us-en'],
    ['en-GB', 'uk-en'],
    ['en_AU', 'au-en'],
    ['en-DE', 'us-en'],
    ['de', 'de-de'],
    ['de-AT', 'at-de'],
    ['de-CH', 'ch-de'],
    ['fr-CA', 'ca-fr'],
    ['pt-BR', 'br-pt'],
    ['pt', 'pt-pt'],
    ['es-MX', 'mx-es'],
    ['ja', 'jp-jp'],
    ['ja-JP', 'jp-jp'],
    ['ko', 'kr-kr'],
    ['zh', 'cn-zh'],
    ['zh-TW', 'tw-tzh'],
    ['zh-Hant-HK', 'hk-tzh'],
    ['zh-Hant', 'tw-tzh'],
    ['nb', 'no-no'],
    ['sv', 'se-sv'],
    ['sl-SI', 'sl-sl'],
    ['ar-SA', 'xa-ar'],
    ['uk', 'ua-uk'],
    ['cs', 'cz-cs'],
  ])('maps %s to %s', (language, region) => {
    expect(duckDuckGoRegion(language)).toBe(region);
  });

  it.each(['he', 'sw-KE', 'english', '', 'e'])('has no region for %j', (language) => {
    expect(duckDuckGoRegion(language)).toBeUndefined();
  });

  it("matches the kl options of a real result page's form", () => {
    const page = readFixture('lofi_duckduckgo-html-get-foo.html');
    const select = page.slice(page.indexOf('<select name="kl">'), page.indexOf('</select>'));
    const options = [...select.matchAll(/<option value="([a-z]+-[a-z]+)"/g)].map((match) => match[1]);
    expect(new Set(options)).toEqual(DUCKDUCKGO_REGIONS);
  });
});
