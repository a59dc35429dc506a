// `site:` as users write it and a relevance gate that knows inflection, through createWebRuntime and the
// built bin against a loopback SearXNG replaying the recorded answer shape.
// Contract: "Quotes and site: operators are never stripped or relaxed"; "include/exclude domain filters
// plus a deterministic query-term/quoted-phrase relevance gate are enforced before a backend can end
// auto mode". Issue: "The relevance gate and domain handling treat site: values the way result hosts
// are compared"; "Query terms match their simple inflected forms … quoted phrases stay exact."
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { contractRuntime, searxAnswer, serveSearx } from './web-search-support.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

type Result = { url: string; title: string; content?: string };

/** Serves `results` as one SearXNG answer and returns the URLs the gate admitted for `query`. */
async function admitted(query: string, results: Result[], language?: string): Promise<string[]> {
  serveSearx(web, searxAnswer(results));
  const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng' } });
  try {
    const outcome = (
      await host.startRun().webSearch({ query, ...(language === undefined ? {} : { language }) })
    ).data as SearchOutcome;
    // "Quotes and site: operators are never stripped or relaxed": the backend got the query as written.
    const sent = web.requestsTo('/search').at(-1);
    expect(sent?.query.get('q')).toBe(query);
    return outcome.results.map((result) => result.url);
  } finally {
    await host.close();
  }
}

const PYTHON_PAGES: Result[] = [
  {
    url: 'https://docs.python.org/3/library/pathlib.html',
    title: 'pathlib — Object-oriented filesystem paths',
  },
  { url: 'https://docs.python.org/2/library/os.path.html', title: 'os.path — pathlib predecessor' },
  { url: 'https://docs.python.org/35/pathlib.html', title: 'pathlib in a look-alike folder' },
  { url: 'https://pypi.org/project/pathlib/', title: 'pathlib on PyPI' },
];

describe('"site:" values are compared the way result hosts are', () => {
  const wholeHost = [
    'https://docs.python.org/3/library/pathlib.html',
    'https://docs.python.org/2/library/os.path.html',
    'https://docs.python.org/35/pathlib.html',
  ];
  const underThree = ['https://docs.python.org/3/library/pathlib.html'];
  const cases: [string, string, string[]][] = [
    ['a bare host', 'pathlib site:docs.python.org', wholeHost],
    ['upper case', 'pathlib site:DOCS.Python.ORG', wholeHost],
    ['a scheme', 'pathlib site:https://docs.python.org', wholeHost],
    ['a scheme and a slash', 'pathlib site:http://docs.python.org/', wholeHost],
    ['a trailing dot', 'pathlib site:docs.python.org.', wholeHost],
    ['a port', 'pathlib site:docs.python.org:443', wholeHost],
    ['the parent domain (subdomains are inside it)', 'pathlib site:python.org', wholeHost],
    ['a path prefix with its trailing slash', 'pathlib site:docs.python.org/3/', underThree],
    ['a path prefix without a trailing slash', 'pathlib site:docs.python.org/3', underThree],
    ['a scheme and a path prefix', 'pathlib site:https://docs.python.org/3/library/', underThree],
    ['an excluded site', 'pathlib -site:docs.python.org', ['https://pypi.org/project/pathlib/']],
  ];
  it.each(cases)('%s: %s', async (_name, query, expected) => {
    expect(await admitted(query, PYTHON_PAGES)).toEqual(expected);
  });

  it('treats the Unicode and punycode forms of a domain as one ("site:münchen.de")', async () => {
    const pages: Result[] = [
      { url: 'https://xn--mnchen-3ya.de/rathaus', title: 'Rathaus München' },
      { url: 'https://www.xn--mnchen-3ya.de/rathaus/oeffnungszeiten', title: 'Rathaus Öffnungszeiten' },
      { url: 'https://muenchen.de/rathaus', title: 'Rathaus' },
    ];
    const inside = [
      'https://xn--mnchen-3ya.de/rathaus',
      'https://www.xn--mnchen-3ya.de/rathaus/oeffnungszeiten',
    ];
    expect(await admitted('rathaus site:münchen.de', pages)).toEqual(inside);
    expect(await admitted('rathaus site:MÜNCHEN.DE.', pages)).toEqual(inside);
    expect(await admitted('rathaus site:xn--mnchen-3ya.de', pages)).toEqual(inside);
    expect(await admitted('rathaus site:https://münchen.de/rathaus/', pages)).toEqual(inside);
  });
});

describe('"Query terms match their simple inflected forms … quoted phrases stay exact"', () => {
  // [name, query, language, results that must be admitted, results that must be dropped]
  const cases: [string, string, string | undefined, Result[], Result[]][] = [
    [
      'English y/ies',
      'cities europe',
      undefined,
      [{ url: 'https://example.com/largest', title: 'The largest city in Europe' }],
      [{ url: 'https://example.com/cityscape', title: 'Cityscape wallpapers of Europe' }],
    ],
    [
      'English, the other way round',
      'city libraries',
      undefined,
      [{ url: 'https://example.com/libs', title: 'Public library of the city' }],
      [{ url: 'https://example.com/librarian', title: 'City librarianship courses' }],
    ],
    [
      'Russian by its script (Москва/Москве)',
      'Москва погода',
      undefined,
      [{ url: 'https://example.ru/msk', title: 'Погода в Москве на неделю' }],
      [{ url: 'https://example.ru/kzn', title: 'Погода в Казани на неделю' }],
    ],
    [
      'German by the language argument (günstige/günstigsten)',
      'günstige Flüge',
      'de',
      [{ url: 'https://example.de/guenstig', title: 'Die günstigsten Flüge nach Berlin' }],
      [{ url: 'https://example.de/buchen', title: 'Flüge nach Berlin buchen' }],
    ],
    [
      'French by the language argument (cheval/chevaux)',
      'cheval course',
      'fr',
      [{ url: 'https://example.fr/courses', title: 'Les chevaux de course' }],
      [{ url: 'https://example.fr/velo', title: 'La course cycliste' }],
    ],
    [
      'Spanish by the language argument (hablar/hablamos)',
      'hablar inglés',
      'es',
      [{ url: 'https://example.es/hablamos', title: 'Hablamos inglés en casa' }],
      [{ url: 'https://example.es/cursos', title: 'Cursos de inglés' }],
    ],
    [
      'Italian by the language argument (gatto nero/gatti neri)',
      'gatto nero',
      'it',
      [{ url: 'https://example.it/gatti', title: 'Gatti neri e superstizione' }],
      [{ url: 'https://example.it/cani', title: 'Cani neri' }],
    ],
    [
      'a quoted phrase stays exact',
      '"big city" guide',
      undefined,
      [{ url: 'https://example.com/exact', title: 'A big city guide' }],
      [{ url: 'https://example.com/plural', title: 'Big cities guide' }],
    ],
  ];
  it.each(cases)('%s: %s', async (_name, query, language, relevant, irrelevant) => {
    expect(await admitted(query, [...irrelevant, ...relevant], language)).toEqual(
      relevant.map((result) => result.url),
    );
  });
});

describe('the built bin gates the same way', () => {
  it('admits an inflected form and honours a site: path prefix from the CommonJS bundle', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mono-agent-site-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const env = {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
    };
    serveSearx(
      web,
      searxAnswer([
        { url: 'https://example.ru/kzn', title: 'Погода в Казани' },
        { url: 'https://example.ru/msk', title: 'Погода в Москве' },
      ]),
    );
    const russian = jsonOf<SearchOutcome>(
      await runBuiltCli(['search', 'Москва погода', '--json'], { home, env }),
    );
    expect(russian.results.map((result) => result.url)).toEqual(['https://example.ru/msk']);

    serveSearx(web, searxAnswer(PYTHON_PAGES));
    const query = 'pathlib site:https://docs.python.org/3';
    const python = jsonOf<SearchOutcome>(await runBuiltCli(['search', query, '--json'], { home, env }));
    expect(python.results.map((result) => result.url)).toEqual([
      'https://docs.python.org/3/library/pathlib.html',
    ]);
    expect(web.requestsTo('/search').at(-1)?.query.get('q')).toBe(query);
  });
});
