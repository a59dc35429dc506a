// The research console in a real browser: Debian's Chromium driven by playwright-core, against the
// console started offline (the fixture web and, when installed, the real searx). Each panel is
// screenshotted into apps/demo/.test-results/ for review.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OFFLINE_QUERIES } from '../src/offline-web.js';
import { type RunningDemo, startDemo } from '../src/start-demo.js';

/** Debian's Chromium binary (the /usr/bin/chromium wrapper script adds flags of its own). */
const CHROMIUM = '/usr/lib/chromium/chromium';
const ARTIFACTS = fileURLToPath(new URL('../.test-results/screenshots/', import.meta.url));

let demo: RunningDemo;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: run \`pnpm setup:system\` (Debian's chromium package)`,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  demo = await startDemo({ fixtures: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(demo.url);
  await page.waitForSelector('body[data-ready="true"]');
  // Every test begins with a fresh run, so budgets do not carry over between tests.
  await page.click('#new-run');
  await expect.poll(() => page.textContent('#run-message')).toContain('fresh budget');
  // Nor do cooldowns: a blocked searx in one test would otherwise cool down the next one's.
  await page.click('#reset');
  await expect.poll(() => page.textContent('#reset-message')).toMatch(/^Cleared/);
});

const completed = async (panel: string) => Number((await page.getAttribute(panel, 'data-completed')) ?? '0');

/** Does `action`, then waits until the panel has shown the answer of that call. */
async function andWait(panel: '#search-panel' | '#fetch-panel', action: () => Promise<void>) {
  const before = await completed(panel);
  await action();
  await expect.poll(() => completed(panel), { timeout: 30_000 }).toBe(before + 1);
}

async function search(query: string) {
  await page.fill('#query', query);
  await andWait('#search-panel', () => page.press('#query', 'Enter'));
}

const clickFetch = (selector = '#fetch-button') => andWait('#fetch-panel', () => page.click(selector));

const shot = (name: string, selector: string) =>
  page.locator(selector).screenshot({ path: `${ARTIFACTS}${name}.png` });

describe('the research console', () => {
  it('searches from the keyboard and shows the outcome as text and as a table', async () => {
    await page.keyboard.press('Tab'); // the first focusable control after the run panel's button
    await page.focus('#query');
    await page.keyboard.type(OFFLINE_QUERIES.found);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.textContent('#search-codes'), { timeout: 30_000 })
      .toContain('status results');
    // The headline says what happened in words.
    expect(await page.textContent('#search-summary')).toMatch(
      /^Found [3-9] results from searxng\. It spent 1 request\.$/,
    );
    const modelText = (await page.textContent('#search-text')) ?? '';
    expect(modelText).toContain('[BEGIN UNTRUSTED WEB SEARCH RESULTS]');
    expect(modelText).toContain('[END UNTRUSTED WEB SEARCH RESULTS]');
    const rows = await page.locator('#results-table tbody tr').count();
    expect(rows).toBeGreaterThanOrEqual(3);
    expect(await page.textContent('#results-table tbody')).toContain('searxng');
    expect(await page.textContent('#providers')).toContain('searxng accepted');
    expect(await page.textContent('#budget-used')).toBe('1 of 4');
    await shot('search-panel', '#search-panel');
  }, 60_000);

  it('opens a result with WebFetch and shows the Markdown beside the framed text', async () => {
    await search(OFFLINE_QUERIES.found);
    await andWait('#fetch-panel', () => page.locator('#results-table tbody button').first().click());
    await expect.poll(() => page.textContent('#fetch-status'), { timeout: 30_000 }).toContain('ok');
    expect(await page.textContent('#fetch-kind')).toBe('html');
    expect(await page.textContent('#fetch-cache')).toBe('no');
    expect(await page.textContent('#fetch-text')).toContain('[BEGIN UNTRUSTED WEB CONTENT]');
    expect(
      await page.locator('#markdown-preview h3, #markdown-preview h4, #markdown-preview p').count(),
    ).toBeGreaterThan(0);
    await shot('fetch-panel', '#fetch-panel');
  }, 60_000);

  it('pages through a slice without refetching', async () => {
    await page.fill('#fetch-url', `${demo.offline?.fixture.baseUrl}/pages/docs-page`);
    await page.fill('#max-lines', '5');
    await clickFetch();
    await expect.poll(() => page.textContent('#fetch-lines'), { timeout: 30_000 }).toMatch(/^1–5 of \d+$/);
    await clickFetch('#next-lines');
    await expect.poll(() => page.textContent('#fetch-lines')).toMatch(/^6–10 of \d+$/);
    expect(await page.textContent('#fetch-cache')).toBe('yes');
    await clickFetch('#previous-lines');
    await expect.poll(() => page.textContent('#fetch-lines')).toMatch(/^1–5 of \d+$/);
    await shot('fetch-slice', '#fetch-panel');
  }, 60_000);

  it("names a blocked backend's engines and their reasons", async () => {
    await search(OFFLINE_QUERIES.blocked);
    const providers = (await page.textContent('#providers')) ?? '';
    expect(providers).toContain('searxng rate_limited');
    expect(providers).toContain('fixture-429: too many requests');
    expect(providers).toMatch(/fixture-captcha: CAPTCHA/);
    expect(await page.textContent('#search-summary')).toMatch(
      /^No answer: searxng was throttled\. A retry can help after .+\. It spent 1 request\.$/,
    );
    await shot('blocked-backend', '#search-panel');
  }, 60_000);

  it('exhausts the run budget, then a fresh run renews it', async () => {
    // Different wordings, so none is answered from the process cache: each costs one request.
    for (const query of [
      'retrying HTTP requests',
      'HTTP requests backoff',
      'backoff jitter',
      'outages retrying',
    ]) {
      await search(query);
      expect(await page.textContent('#search-codes')).toContain('status results');
    }
    expect(await page.textContent('#budget-remaining')).toBe('0');
    await search('Retry-After backoff');
    expect(await page.textContent('#search-codes')).toContain('search_budget_exhausted');
    expect(await page.textContent('#search-summary')).toBe(
      "Not sent: this run's search budget is used up (4 of 4 requests). Start a fresh run to search again.",
    );
    // No provider was asked, and the page says so instead of pointing at an empty list.
    expect(await page.textContent('#results-table tbody')).not.toContain('see the providers below');
    expect(await page.textContent('#providers')).toBe(
      "No provider was asked: the run's search budget of 4 requests is used up; no request was sent",
    );
    // Suggestions that need a request say so and are not sent.
    for (const button of await page.locator('#suggestions button').all()) {
      expect(await button.isDisabled()).toBe(true);
      expect(await button.textContent()).toContain('0 left: start a fresh run');
    }
    await shot('budget-exhausted', '#run-panel');
    const before = await page.textContent('#run-number');
    await page.click('#new-run');
    await expect.poll(() => page.textContent('#budget-remaining')).toBe('4');
    expect(await page.textContent('#run-number')).not.toBe(before);
    // The search the exhausted run could not send now goes out, on the fresh budget.
    await search('Retry-After backoff');
    expect(await page.textContent('#search-codes')).toContain('status results');
    expect(await page.textContent('#budget-remaining')).toBe('3');
    await shot('fresh-run', '#run-panel');
  }, 120_000);

  it('suggested queries show what they spend and never use up the budget on their own', async () => {
    const buttons = page.locator('#suggestions button');
    expect(await buttons.count()).toBe(2);
    const used = async () => Number((await page.textContent('#budget-used'))?.split(' ')[0]);
    const limit = Number((await page.textContent('#budget-used'))?.split(' of ')[1]);
    // Each click of every suggestion, three rounds: what each spends is at most what it says.
    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 2; index += 1) {
        const label = (await buttons.nth(index).textContent()) ?? '';
        const bound = /spends up to (\d+) requests? of (\d+)/.exec(label);
        expect(bound, label).not.toBeNull();
        expect(Number(bound![1])).toBeLessThan(limit);
        const before = await used();
        await andWait('#search-panel', () => buttons.nth(index).click());
        expect((await used()) - before).toBeLessThanOrEqual(Number(bound![1]));
        expect(await page.textContent('#search-codes')).not.toContain('search_budget_exhausted');
      }
    }
    expect(Number(await page.textContent('#budget-remaining'))).toBeGreaterThan(0);
    await shot('suggestions', '#search-panel');
  }, 120_000);

  it('explains its terms where they appear', async () => {
    await search(OFFLINE_QUERIES.found);
    for (const [term, hint, panel] of [
      ['Fused score', '#score-hint', '#search-panel'],
      ['Provider', '#score-hint', '#search-panel'],
      ['Stage', '#stage-hint', '#fetch-panel'],
      ['Scope', '#scope-hint', '#status-panel'],
      ['Cooldown', '#scope-hint', '#status-panel'],
      ['Budget', '#budget-hint', '#run-panel'],
    ] as const) {
      const note = page.locator(`${panel} ${hint}`);
      expect(await note.isVisible(), hint).toBe(true);
      expect(await note.textContent()).toMatch(new RegExp(`${term}[^:]*: \\w`));
    }
  }, 60_000);

  it('shows host coordination status and resets it', async () => {
    await page.fill('#fetch-url', `${demo.offline?.fixture.baseUrl}/content/json`);
    await clickFetch();
    await expect.poll(() => page.textContent('#fetch-status'), { timeout: 30_000 }).toContain('ok');
    await expect.poll(() => page.textContent('#status-mode'), { timeout: 10_000 }).toBe('process');
    await expect
      .poll(async () => Number(await page.textContent('#status-buckets').then((t) => t?.split(' ')[0])), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await shot('status-panel', '#status-panel');
    await page.click('#reset');
    await expect.poll(() => page.textContent('#reset-message')).toMatch(/^Cleared \d+ scopes?\.$/);
  }, 60_000);

  it('shows a progress indicator on a slow fetch without moving the layout', async () => {
    // Page coordinates, not viewport ones: filling the field may scroll it into view.
    const position = () =>
      page.evaluate(() =>
        ['#search-panel', '#fetch-facts', '#fetch-error', '#markdown-preview', '#fetch-text'].map(
          (selector) => {
            const box = document.querySelector(selector)?.getBoundingClientRect();
            return box === undefined
              ? undefined
              : [box.x + window.scrollX, box.y + window.scrollY, box.width, box.height];
          },
        ),
      );
    await page.fill('#fetch-url', `${demo.offline?.fixture.baseUrl}/delay/1500`);
    const before = await position();
    const done = clickFetch();
    await expect
      .poll(() => page.getAttribute('#fetch-progress', 'class'), { timeout: 1_400 })
      .toContain('visible');
    expect(await position()).toEqual(before);
    await done;
    await expect
      .poll(() => page.getAttribute('#fetch-progress', 'class'), { timeout: 30_000 })
      .not.toContain('visible');
  }, 60_000);

  it('shows fetch errors with their code and reason', async () => {
    await page.fill('#fetch-url', `${demo.offline?.fixture.baseUrl}/status/404`);
    await clickFetch();
    await expect.poll(() => page.textContent('#fetch-status'), { timeout: 30_000 }).toBe('error');
    expect(await page.textContent('#fetch-error')).toMatch(/^http_status/);
    await page.fill('#fetch-url', 'ftp://example.com/file');
    await clickFetch();
    await expect.poll(() => page.textContent('#fetch-error')).toMatch(/^validation_error/);
    await shot('fetch-error', '#fetch-panel');
  }, 60_000);

  it('never runs HTML from a fetched page', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    demo.offline?.fixture.scenario('/hostile', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><title>${hostile}</title></head><body><main><h1>Hostile ${hostile}</h1><p>Text with [a link](javascript:alert(1)) and <b>${hostile.replace(/</g, '&lt;')}</b> more words to make it an article.</p></main></body></html>`,
    });
    await page.fill('#fetch-url', `${demo.offline?.fixture.baseUrl}/hostile`);
    await clickFetch();
    await expect.poll(() => page.textContent('#fetch-status'), { timeout: 30_000 }).toContain('ok');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#markdown-preview img, #markdown-preview script').count()).toBe(0);
    for (const href of await page
      .locator('#markdown-preview a')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))) {
      expect(href).toMatch(/^https?:/);
    }
  }, 60_000);

  it('is readable at 1280x800 and on a narrow window', async () => {
    await search(OFFLINE_QUERIES.found);
    await page.screenshot({ path: `${ARTIFACTS}console-1280x800.png` });
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: `${ARTIFACTS}console-narrow.png`, fullPage: true });
    // At phone width each result is a labelled block, its title on one line of its own.
    await page.setViewportSize({ width: 390, height: 844 });
    const first = await page.evaluate(() => {
      const row = document.querySelector('#results-table tbody tr') as HTMLElement;
      const title = row.querySelector('td[data-label="Title"]') as HTMLElement;
      return { display: getComputedStyle(row).display, titleWidth: title.getBoundingClientRect().width };
    });
    expect(first.display).toBe('block');
    expect(first.titleWidth).toBeGreaterThan(250);
    await shot('search-390', '#search-panel');
  }, 60_000);
});

describe('the coordination panel in host mode', () => {
  let hostDemo: RunningDemo;
  let stateDirectory: string;
  beforeAll(async () => {
    stateDirectory = mkdtempSync(join(tmpdir(), 'console-host-state-'));
    hostDemo = await startDemo({ fixtures: true, hostStateDirectory: join(stateDirectory, 'web-control') });
  }, 90_000);
  afterAll(async () => {
    await hostDemo?.close();
    rmSync(stateDirectory, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await page.close();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(hostDemo.url);
    await page.waitForSelector('body[data-ready="true"]');
  });

  it('shows each scope and its cooldown in a table that fits at 1440 px and reads at 390 px', async () => {
    // In host mode a throttled fetch cools its origin down; a search adds a scope of another kind.
    await search(OFFLINE_QUERIES.found);
    await page.fill('#fetch-url', `${hostDemo.offline?.fixture.baseUrl}/status/429`);
    await clickFetch();
    await expect
      .poll(() => page.locator('#scopes-table tbody tr').count(), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.textContent('#scopes-table tbody'), { timeout: 10_000 })
      .toMatch(/throttled: until .+, (\d+ min )?\d+ s left|throttled: until .+, \d+ min left/);
    const fits = () =>
      page.evaluate(() => {
        const wrap = document.querySelector('#status-panel .table-wrap') as HTMLElement;
        const right = wrap.getBoundingClientRect().right;
        const cells = [...document.querySelectorAll('#scopes-table td')].map(
          (element) => element.getBoundingClientRect().right,
        );
        return {
          overflow: wrap.scrollWidth - wrap.clientWidth,
          page: document.documentElement.scrollWidth - window.innerWidth,
          outside: cells.filter((edge) => edge > right + 0.5).length,
        };
      });
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await fits()).toEqual({ overflow: 0, page: 0, outside: 0 });
    // Every column is shown as a column at this width.
    expect(await page.locator('#scopes-table thead').isVisible()).toBe(true);
    await shot('coordination-1440', '#status-panel');
    await page.screenshot({ path: `${ARTIFACTS}console-1440.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fits()).toEqual({ overflow: 0, page: 0, outside: 0 });
    // Stacked: each value beside its column's name.
    // Read in one go: the panel replaces its rows at every refresh.
    const stacked = await page.evaluate(() => {
      const row = document.querySelector('#scopes-table tbody tr') as HTMLElement;
      return {
        display: getComputedStyle(row).display,
        labels: [...row.querySelectorAll('td')].map((cell) => getComputedStyle(cell, '::before').content),
      };
    });
    expect(stacked).toEqual({
      display: 'block',
      labels: ['"Kind"', '"Scope"', '"Active"', '"Cooldown"', '"Admitted"'],
    });
    await shot('coordination-390', '#status-panel');
    await page.screenshot({ path: `${ARTIFACTS}console-390.png`, fullPage: true });
  }, 60_000);
});

describe('the console server', () => {
  it('refuses requests that name another host or come from another origin', async () => {
    const url = new URL(demo.url);
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>, method = 'GET', path = '/api/info') =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(
          { host: url.hostname, port: url.port, path, method, headers },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(method === 'POST' ? '{}' : undefined);
      });
    expect(await status({ host: url.host })).toBe(200);
    expect(await status({ host: 'attacker.example' })).toBe(421);
    expect(
      await status(
        { host: url.host, origin: 'http://attacker.example', 'content-type': 'application/json' },
        'POST',
        '/api/run',
      ),
    ).toBe(403);
    expect(await status({ host: url.host, 'content-type': 'text/plain' }, 'POST', '/api/search')).toBe(415);
  });

  it('wrote a screenshot of every panel', () => {
    const files = readdirSync(ARTIFACTS);
    for (const name of [
      'search-panel',
      'fetch-panel',
      'fetch-slice',
      'blocked-backend',
      'budget-exhausted',
      'status-panel',
      'suggestions',
      'coordination-1440',
      'coordination-390',
      'console-1440',
      'console-390',
    ]) {
      expect(files).toContain(`${name}.png`);
      expect(readFileSync(`${ARTIFACTS}${name}.png`).subarray(1, 4).toString()).toBe('PNG');
    }
  });
});
