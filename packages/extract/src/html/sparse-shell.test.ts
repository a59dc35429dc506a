import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import {
  detectSparseShell,
  inspectShellMarkup,
  SHELL_VISIBLE_TEXT_MAX_CHARS,
  SPARSE_TEXT_MAX_CHARS,
} from './sparse-shell.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`;
const letters = (count: number) =>
  'abcd '
    .repeat(Math.ceil(count / 5))
    .slice(0, count)
    .trim()
    .padEnd(count, 'x');

describe('detectSparseShell', () => {
  it('flags an empty mount point with a loading notice', () => {
    const html = page('<nav>Menu</nav><div id="root">Loading...</div><script src="/main.js"></script>');
    const signal = detectSparseShell(html, 'Loading...');
    expect(signal.markers).toContain('empty-mount-point');
    expect(signal.sparse).toBe(true);
  });

  it('is exposed on extracted HTML documents and absent on other kinds', async () => {
    const shell = await extract({
      body: page('<div id="app"></div><script type="module" src="/assets/index.js"></script>'),
      url: 'https://example.com/',
      contentType: 'text/html',
    });
    expect(shell.sparseShell?.sparse).toBe(true);
    const json = await extract({
      body: '{"a":1}',
      url: 'https://example.com/',
      contentType: 'application/json',
    });
    expect(json.sparseShell).toBeUndefined();
  });

  it('needs application markup: a short plain page is not a shell', () => {
    const signal = detectSparseShell(page('<p>Short note.</p>'), 'Short note.');
    expect(signal.markers).toEqual([]);
    expect(signal.sparse).toBe(false);
  });

  it(`counts text below ${SPARSE_TEXT_MAX_CHARS} characters as sparse, and not at the bound`, () => {
    const html = page('<div id="root"></div><script src="/bundle.js"></script>');
    expect(detectSparseShell(html, letters(SPARSE_TEXT_MAX_CHARS - 1)).sparse).toBe(true);
    expect(detectSparseShell(html, letters(SPARSE_TEXT_MAX_CHARS)).sparse).toBe(false);
  });

  it(`is never a shell with ${SHELL_VISIBLE_TEXT_MAX_CHARS} or more visible characters`, () => {
    const under = page(
      `<div id="root"></div><p>${letters(SHELL_VISIBLE_TEXT_MAX_CHARS - 1)}</p><script src="/a.js"></script>`,
    );
    const at = page(
      `<div id="root"></div><p>${letters(SHELL_VISIBLE_TEXT_MAX_CHARS)}</p><script src="/a.js"></script>`,
    );
    expect(inspectShellMarkup(under).visibleChars).toBe(SHELL_VISIBLE_TEXT_MAX_CHARS - 1);
    expect(detectSparseShell(under, '').sparse).toBe(true);
    expect(detectSparseShell(at, '').sparse).toBe(false);
  });

  it('recognises framework state, noscript notices and script-heavy pages', () => {
    expect(
      inspectShellMarkup(
        page('<div id="__next"><p>x</p></div><script id="__NEXT_DATA__" type="application/json">{}</script>'),
      ).markers,
    ).toContain('framework-state');
    // Discourse's app view: a splash screen, its preload store and an empty main section.
    const discourse = page(
      '<section id="d-splash"><div class="preloader-image"></div></section><div class="hidden" id="data-preloaded"></div><section id="main"></section>',
    );
    expect(inspectShellMarkup(discourse).markers).toEqual(['framework-state']);
    expect(detectSparseShell(discourse, '').sparse).toBe(true);
    expect(
      inspectShellMarkup(page('<noscript>Please enable JavaScript to continue.</noscript><main></main>'))
        .markers,
    ).toEqual(['noscript-requires-javascript']);
    expect(inspectShellMarkup(page(`<p>hi</p><script>${'x'.repeat(5_000)}</script>`)).markers).toEqual([]);
    expect(
      inspectShellMarkup(page(`<p>hi</p><script src="/x.js"></script><script>${'x'.repeat(5_000)}</script>`))
        .markers,
    ).toEqual(['script-heavy']);
  });

  it('does not count JSON-LD as script or text', () => {
    const html = page(
      `<article><p>${letters(300)}</p></article><script type="application/ld+json">${'{"a":1}'.repeat(2_000)}</script>`,
    );
    expect(inspectShellMarkup(html)).toEqual({ visibleChars: 300, markers: [] });
  });

  it('reads markup as a browser would where the old expressions did not', () => {
    // A custom element whose name starts like svg is not an svg block that hides what follows.
    const custom = page(
      `<p>${letters(40)}<svg-icon name="x"></svg-icon></p><p>${letters(60)}</p><svg></svg>`,
    );
    expect(inspectShellMarkup(custom).visibleChars).toBe(101);
    // A < that cannot open a tag is text; the script after it is still a script.
    const comparison = page(`<p>a < b</p><script>${'x'.repeat(500)}</script>`);
    expect(inspectShellMarkup(comparison).visibleChars).toBe(5);
    // End tags are found case-blind even after characters that lowercase to two (İ).
    const dotted = page(`<p>${'İ'.repeat(50)}</p><SCRIPT>${'y'.repeat(300)}</SCRIPT ><p>z</p>`);
    expect(inspectShellMarkup(dotted).visibleChars).toBe(52);
  });

  it('reads the visible text from the body, not from a "<body" that a script in the head writes', () => {
    // The text of the loader's script after its "<body" once counted as visible: no shell was found.
    const loader = `document.write('<body class="ready">');${'var step = 1;'.repeat(300)}`;
    const html = `<!doctype html><html><head><script>${loader}</script></head><body><div id="root"></div></body></html>`;
    expect(detectSparseShell(html, '')).toMatchObject({
      visibleChars: 0,
      markers: ['empty-mount-point'],
      sparse: true,
    });
  });

  it('reads unclosed blocks, stray brackets and endless tags in one pass', () => {
    // Every opening tag without an end tag once made the expressions rescan the rest of the page.
    const unclosed = page(`<style>${'<head>'.repeat(50_000)}</style><p>${letters(20)}</p>`);
    expect(inspectShellMarkup(unclosed)).toEqual({ visibleChars: 20, markers: [] });
    const heads = page(`<p>${letters(10)}</p>${'<head>'.repeat(50_000)}<p>${letters(10)}</p>`);
    expect(inspectShellMarkup(heads).visibleChars).toBe(21);
    const brackets = page('<'.repeat(200_000));
    expect(inspectShellMarkup(brackets).visibleChars).toBe(200_000);
    // The script's opening tag runs on to the page's last `>`: one external script, no end tag.
    const endless = page(`<p>${letters(5)}</p><script src="a.js"${' x'.repeat(100_000)}`);
    expect(inspectShellMarkup(endless).markers).toEqual(['script-heavy']);
    const mounts = page(`${'<div id="root"'.repeat(30_000)}>`);
    expect(inspectShellMarkup(mounts).markers).toEqual([]);
  });
});
