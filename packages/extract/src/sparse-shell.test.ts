import { describe, expect, it } from 'vitest';
import { extract } from './extract.js';
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
});
