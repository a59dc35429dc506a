// The relevance gate and the output bound, through createWebRuntime against a loopback SearXNG.
// Contract: "a deterministic query-term/quoted-phrase relevance gate"; "Quotes and site: operators
// are never stripped or relaxed"; "The ranked result body is at most 64 KiB of UTF-8".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { MAX_SEARCH_BODY_BYTES, SEARCH_RESULTS_BEGIN, SEARCH_RESULTS_END } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contractRuntime, searxAnswer, serveSearx } from './web-search-support.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

async function searchOne(query: string, result: { url: string; title: string; content?: string }) {
  serveSearx(web, searxAnswer([result]));
  const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
  const outcome = (await host.startRun().webSearch({ query })).data as SearchOutcome;
  await host.close();
  return outcome;
}

describe('the relevance gate keeps relevant results whatever their script or URL', () => {
  const cases: [string, string, { url: string; title: string; content?: string }][] = [
    [
      'a bare % in the URL path',
      'foo juice',
      { url: 'https://example.com/100%-pure-foo-juice', title: 'Foo juice' },
    ],
    [
      'a broken escape in the URL path',
      'foo juice',
      { url: 'https://example.com/foo%E0%A4%A-juice', title: 'Juice' },
    ],
    [
      'a quoted Japanese phrase',
      '"東京タワー" 高さ',
      { url: 'https://example.jp/tower', title: '東京タワーの高さは333メートル' },
    ],
    [
      'a quoted Chinese phrase',
      '"北京烤鸭"',
      { url: 'https://example.cn/duck', title: '正宗北京烤鸭的做法' },
    ],
    [
      'Thai without spaces',
      'กรุงเทพ อาหาร',
      { url: 'https://example.co.th/food', title: 'อาหารริมทางในกรุงเทพ' },
    ],
    [
      'a quoted Korean phrase with a particle',
      '"서울 맛집"',
      { url: 'https://example.kr/a', title: '서울 맛집을 소개합니다' },
    ],
    ['Arabic', 'متحف القاهرة', { url: 'https://example.eg/museum', title: 'زيارة متحف القاهرة المصري' }],
    ['accents folded either way', 'café crème', { url: 'https://example.fr/c', title: 'Cafe creme maison' }],
    [
      'punctuation and emoji',
      '🍕 pizza-dough recipe!',
      { url: 'https://example.it/p', title: 'Pizza dough: the best recipe 🍕' },
    ],
    [
      'a phrase written with curly quotes',
      '“connection pool” undici',
      { url: 'https://undici.nodejs.org/', title: 'Undici connection pool' },
    ],
    [
      'an internationalized domain',
      'münchen wetter',
      { url: 'https://xn--mnchen-3ya.de/wetter', title: 'Aktuell' },
    ],
  ];
  for (const [name, query, result] of cases) {
    it(`accepts ${name}`, async () => {
      const outcome = await searchOne(query, result);
      expect(outcome.status, JSON.stringify(outcome.filtered)).toBe('results');
      expect(outcome.results).toHaveLength(1);
    });
  }

  it('still refuses what does not match, in the same scripts', async () => {
    expect(
      (await searchOne('"東京タワー"', { url: 'https://example.jp/a', title: '大阪城の歴史' })).status,
    ).toBe('no_results');
    expect(
      (await searchOne('"connection pool"', { url: 'https://e.com/', title: 'pool connection' })).status,
    ).toBe('no_results');
    expect(
      (await searchOne('foo -juice', { url: 'https://e.com/100%-foo-juice', title: 'Foo' })).status,
    ).toBe('no_results');
  });
});

describe('"The ranked result body is at most 64 KiB of UTF-8"', () => {
  it('results that exist but do not fit are not called "No results."', async () => {
    const url = `https://example.com/${'fixture-result/'.repeat(5_000)}`;
    serveSearx(web, searxAnswer([{ url, title: 'fixture result' }]));
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
    const result = await host.startRun().webSearch({ query: 'fixture result' });
    expect(result.text).toMatch(/^WebSearch status: results/);
    expect(result.text).not.toContain('No results.');
    expect(result.text).toContain('The result found did not fit the output bound');
    const body = result.text.slice(
      result.text.indexOf(SEARCH_RESULTS_BEGIN),
      result.text.indexOf(SEARCH_RESULTS_END),
    );
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(
      MAX_SEARCH_BODY_BYTES + SEARCH_RESULTS_BEGIN.length + 1,
    );
    await host.close();
  });
});
