import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedPages } from '@mono-agent/fixture-web';
import { describe, expect, it } from 'vitest';
import {
  GOLDEN_FILES,
  GOLDEN_PAGES_DIRECTORY,
  goldenPageNames,
  goldenPageUrl,
} from '../../test/golden-pages.js';
import { extract } from '../extract.js';
import type { ExtractionStage, ParserFailure } from '../types.js';
import { PASSED_OVER } from './cascade-record.js';
import { extractHtml } from './extract-html.js';

// "Parse HTML with Defuddle, then Readability plus Turndown, then a cleaned-body Turndown fallback."
// The record says which stage produced the text and why each earlier one was passed over.

/** The HTML cascade in its order; a page-description answer comes after the cleaned body found no text. */
const CASCADE: readonly ExtractionStage[] = ['defuddle', 'readability', 'cleaned-body', 'page-description'];

/** Every stage before the winner is listed once, in the cascade's order, and no later stage is. */
function expectTruthfulRecord(record: { stage: ExtractionStage; parserFailures: ParserFailure[] }) {
  const winner = CASCADE.indexOf(record.stage);
  expect(winner, record.stage).toBeGreaterThanOrEqual(0);
  expect(record.parserFailures.map((failure) => failure.stage)).toEqual(CASCADE.slice(0, winner));
  for (const failure of record.parserFailures) expect(failure.reason).not.toBe('');
}

const sentences = (topic: string, count: number) =>
  Array.from(
    { length: count },
    (_, index) =>
      `${topic} sentence ${index} explains one more detail of the subject at some length, so that the paragraph reads like real prose.`,
  ).join(' ');

describe('the HTML cascade record', () => {
  it('lists Defuddle as passed over, with the rule, when an article page keeps Readability’s whole-story block', async () => {
    const page = `<!doctype html><html><head><title>Harbour works</title><meta property="og:type" content="article"></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<main><article><h1>Harbour works begin</h1>${Array.from({ length: 6 }, (_, index) => `<p>${sentences(`Harbour ${index}`, 3)}</p>`).join('')}</article></main>
<footer>Copyright Harbour News</footer></body></html>`;
    const article = await extractHtml(page, 'https://news.example/harbour');
    expectTruthfulRecord(article);
    expect(article.stage).toBe('readability');
    const words = Number(/\((\d+) words/.exec(article.parserFailures[0]?.reason ?? '')?.[1]);
    expect(article.parserFailures).toEqual([{ stage: 'defuddle', reason: PASSED_OVER.wholeStory(words) }]);
    expect(article.text).toContain('Harbour 5 sentence 2');
  });

  it('makes no Defuddle article of the whole page when Readability’s block is the whole story', async () => {
    const story = `<main><article><h1>Harbour works begin</h1>${Array.from({ length: 6 }, (_, index) => `<p>${sentences(`Harbour ${index}`, 3)}</p>`).join('')}</article></main>`;
    const brief = `<main><article><h1>Harbour brief</h1><p>${sentences('Brief', 2)}</p></article></main>`;
    const page = (body: string) =>
      `<!doctype html><html><head><title>Harbour</title><meta property="og:type" content="article"></head><body><header><nav><a href="/">Home</a></nav></header>${body}</body></html>`;
    // Each Defuddle run reads one document: the whole page holds the site's menu, the block does not.
    const read: boolean[] = [];
    const { loadDefuddle } = await import('../lazy-modules.js');
    const defuddle = await loadDefuddle();
    const run = defuddle.Defuddle;
    defuddle.Defuddle = (document, ...rest) => {
      read.push((document as Document).querySelector('nav') !== null);
      return run(document, ...rest);
    };
    try {
      const whole = await extractHtml(page(story), 'https://news.example/harbour');
      expect(whole.stage).toBe('readability');
      expect(whole.parserFailures[0]?.reason).toMatch(/whole story/);
      expect(read).toEqual([false]);
      read.length = 0;
      // A short block is weighed against Defuddle's article of the whole page, which is then made.
      const short = await extractHtml(page(brief), 'https://news.example/brief');
      expect(short.parserFailures[0]?.reason ?? '').not.toMatch(/whole story/);
      expect(read).toContain(true);
    } finally {
      defuddle.Defuddle = run;
    }
  });

  it('lists Defuddle and Readability as passed over when a spread page ends at the cleaned body', async () => {
    const note = (topic: string, count: number) =>
      Array.from(
        { length: count },
        (_, index) =>
          `${topic} note ${index + 1} says how the service handles ${topic.toLowerCase()} for every team.`,
      ).join(' ');
    const section = (title: string, name: string) =>
      `<section class="${name}"><div class="container"><h2>${title}</h2><p>${note(title, 3)}</p></div></section>`;
    const page = `<!doctype html><html><head><title>Acme Payroll</title><meta property="og:type" content="website"></head><body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header>
<main><section class="hero"><h1>Payroll for small teams</h1><p>${note('Payroll', 2)}</p></section>
${section('Time tracking', 'feature-grid')}${section('Benefits', 'feature-grid')}
<div class="content"><article><h2>How Acme runs payroll</h2><p>${note('Onboarding', 6)}</p></article></div>
${section('Tax filing', 'testimonial')}${section('Support', 'faq')}</main>
<footer><p>Copyright Acme Company</p></footer></body></html>`;
    const article = await extractHtml(page, 'https://acme.example/');
    expect(article.stage).toBe('cleaned-body');
    expect(article.parserFailures).toEqual([
      { stage: 'defuddle', reason: PASSED_OVER.oneSection },
      { stage: 'readability', reason: PASSED_OVER.spreadPage },
    ]);
    expect(article.markdown).toContain('## Time tracking');
  });

  it('lists nothing when Defuddle’s article stands, not even Readability run as a measure on an article page', async () => {
    const page = `<!doctype html><html><head><title>Brief</title><meta property="og:type" content="article"></head><body>
<main><div class="promo"><p>Add this site to your home screen for quick access to every story we publish.</p></div>
<article><h1>Ferry timetable changes</h1><p>${sentences('Ferry', 2)}</p></article></main></body></html>`;
    const article = await extractHtml(page, 'https://news.example/ferry');
    expectTruthfulRecord(article);
    expect(article).toMatchObject({ stage: 'defuddle', parserFailures: [] });
  });

  it('lists both stages when neither finds text and the cleaned body is the answer', async () => {
    const article = await extractHtml(
      '<!doctype html><html><head><title>Menu</title></head><body><nav><a href="/a">A</a></nav><div>Loading</div></body></html>',
      'https://app.example/',
    );
    expect(article.stage).toBe('cleaned-body');
    expect(article.parserFailures.map((failure) => failure.stage)).toEqual(['defuddle', 'readability']);
  });

  it('reads a page marked an article only by an undated og:type as another page when its block is not confirmed', async () => {
    // A recipe category: Readability keeps its 80-word introduction and leaves the recipes out.
    const source = readFileSync(
      new URL('../../test/pages/recipe-category/source.html', import.meta.url),
      'utf8',
    );
    const loose = await extractHtml(source, 'https://kitchen.example/recipes/traybakes');
    expectTruthfulRecord(loose);
    expect(loose).toMatchObject({ stage: 'defuddle', parserFailures: [] });
    expect(loose.text).toContain('one hot oven');
    expect(loose.text).toContain('Harissa chicken with chickpeas');
    // The same page dated as a story, or declared one in JSON-LD, is a story: its block stays.
    const dated = source.replace(
      '<meta property="og:type" content="article">',
      '<meta property="og:type" content="article"><meta property="article:published_time" content="2025-04-02T07:00:00Z">',
    );
    const declared = source.replace(
      '<meta property="og:type" content="article">',
      '<script type="application/ld+json">{"@type":"BlogPosting","headline":"Traybake Recipes"}</script>',
    );
    for (const page of [dated, declared]) {
      const story = await extractHtml(page, 'https://kitchen.example/recipes/traybakes');
      expectTruthfulRecord(story);
      expect(story.stage).toBe('readability');
      expect(story.parserFailures).toEqual([{ stage: 'defuddle', reason: PASSED_OVER.notExtended(80) }]);
      expect(story.text).not.toContain('Harissa chicken');
    }
  });

  it('is truthful on every golden page', async () => {
    for (const name of goldenPageNames()) {
      const source = readFileSync(join(GOLDEN_PAGES_DIRECTORY, name, GOLDEN_FILES.source), 'utf8');
      expectTruthfulRecord(await extractHtml(source, goldenPageUrl(name)));
    }
  });

  it('is truthful on every recorded fixture page', async () => {
    for (const recorded of recordedPages()) {
      if (!recorded.contentType.startsWith('text/html')) continue;
      // A page whose declared charset is refused has no record to check.
      const document = await extract({
        body: new Uint8Array(await recorded.load()),
        url: 'https://fixture.example/page',
        contentType: recorded.contentType,
      }).catch(() => undefined);
      if (document?.kind !== 'html') continue;
      expectTruthfulRecord(document);
    }
  }, 120_000);
});
