// Contract: format "markdown" is the default, "Article-shaped Markdown for HTML/RSS, pretty JSON, PDF
// text, or decoded plain text." (local-first-web-research, WebFetch formats). Article-shaped Markdown
// keeps what a page's structure says: a code block is its code (not the toolbar's "Copy" or CSS), a
// formula is TeX rather than loose glyphs, a callout says which kind it is, and a `<noscript>`
// fallback the page escaped is never handed over as literal tags.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEB_CONTENT_BEGIN, WEB_CONTENT_END } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import type { WebRuntime } from '../../src/runtime/runtime-types.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';

const paragraph = (n: number) =>
  `<p>Step ${n} of the harbour crane manual explains how the operator checks the hoist, the brake and the wind gauge before a lift.</p>`;
const page = (title: string, inner: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>${title}</h1>${[1, 2, 3].map(paragraph).join('')}${inner}${[4, 5, 6].map(paragraph).join('')}</article></main></body></html>`;

const PAGES: Record<string, string> = {
  '/code': page(
    'Crane scripts',
    '<div class="highlight"><pre><code class="language-bash"><style>.hl{color:#c00}</style><span class="copy-code" role="button">Copy</span>crane-check --hoist\ncrane-check --brake</code></pre></div>',
  ),
  '/math': page(
    'Crane loads',
    '<p>The load on the jib is <math><mfrac><mi>F</mi><mi>A</mi></mfrac><mo>≤</mo><msup><mi>σ</mi><mn>2</mn></msup></math> at all times.</p>',
  ),
  '/tex-scripts': page(
    'Crane sway',
    '<p>The hook sways with period <script type="math/tex">T = 2\\pi\\sqrt{L/g}</script> for a rope of length <script type="math/tex">L</script>.</p>' +
      '<script type="math/tex; mode=display">\\theta(t) = \\theta_0 \\cos(\\omega t)</script>',
  ),
  '/callout': page(
    'Crane safety',
    '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Never lift above the rated load of the hoist.</p></div>',
  ),
  '/noscript': page(
    'Crane photos',
    // A fallback long enough to be read as the page's content, which the page escaped.
    `<noscript>&lt;img src="/crane.jpg" alt="The crane at dawn"&gt;&lt;p&gt;The photo gallery shows the crane ${Array.from({ length: 45 }, (_, i) => `frame${i}`).join(' ')}.&lt;/p&gt;</noscript>`,
  ),
};

let server: Server;
let origin: string;
let runtime: WebRuntime;

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = PAGES[request.url ?? ''];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  runtime = await createWebRuntime({
    config: resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${port}` },
    }),
  });
});

afterAll(async () => {
  await runtime.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The framed page content of a WebFetch answer. */
function framed(text: string): string {
  const begin = text.indexOf(WEB_CONTENT_BEGIN);
  const end = text.lastIndexOf(WEB_CONTENT_END);
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  return text.slice(begin + WEB_CONTENT_BEGIN.length, end);
}

async function fetchMarkdown(path: string): Promise<string> {
  const run = runtime.startRun();
  try {
    const result = await run.webFetch({ url: `${origin}${path}` });
    expect(result.isError).toBe(false);
    return framed(result.text);
  } finally {
    await run.close();
  }
}

describe('WebFetch Markdown keeps the structure of code, formulas, callouts and fallbacks', () => {
  it('writes a code block holding a copy control and a style as a fenced block of the code alone', async () => {
    const content = await fetchMarkdown('/code');
    expect(content).toContain('```bash\ncrane-check --hoist\ncrane-check --brake\n```');
    expect(content).not.toMatch(/Copy|#c00/);
  });

  it('writes MathML as TeX between $ signs', async () => {
    const content = await fetchMarkdown('/math');
    expect(content).toContain('$\\frac{F}{A} \\leq \\sigma^2$');
  });

  it("writes a formula the page keeps as TeX in MathJax's math/tex scripts between $ signs, in its sentence", async () => {
    const content = await fetchMarkdown('/tex-scripts');
    expect(content).toContain('with period $T = 2\\pi\\sqrt{L/g}$ for a rope of length $L$.');
    expect(content).toContain('$$\n\\theta(t) = \\theta_0 \\cos(\\omega t)\n$$');
  });

  it('writes an admonition as a Markdown alert that keeps its kind', async () => {
    const content = await fetchMarkdown('/callout');
    expect(content).toContain('> [!WARNING]\n> Never lift above the rated load of the hoist.');
  });

  it('never hands over an escaped <noscript> fallback as literal tags', async () => {
    const content = await fetchMarkdown('/noscript');
    expect(content).not.toMatch(/<img|<p>|&lt;/);
    expect(content).toContain('The photo gallery shows the crane frame0');
    expect(content).toContain('Step 6 of the harbour crane manual');
  });
});
