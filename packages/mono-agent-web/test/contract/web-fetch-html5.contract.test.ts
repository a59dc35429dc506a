// Contract: "Parse HTML with Defuddle, then Readability plus Turndown, then a cleaned-body Turndown
// fallback." (local-first-web-research, WebFetch extraction). A page a browser renders with text is
// HTML whether or not it spells out <html>, <head> and <body>: HTML5 makes them optional, and some
// servers send bare fragments as text/html. WebFetch must read such pages as a browser would and
// never report an empty document as a success when the page had text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEB_CONTENT_BEGIN, WEB_CONTENT_END } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import type { WebRuntime } from '../../src/runtime/runtime-types.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';

const PAGES: Record<string, string> = {
  '/implied': [
    '<!doctype html><meta charset="utf-8"><title>Harbour tides</title>',
    '<h1>Harbour tides this week</h1>',
    '<p>High water at the harbour mouth comes at noon on Monday and slips about fifty minutes later each day.</p>',
    '<p>Spring tides on Thursday bring the lowest water of the month, so the slipway is closed to trailers.</p>',
  ].join(''),
  '/fragment':
    '<p>Ferry timetable: boats leave the north quay every forty minutes.</p><ul><li>First boat 06:10</li><li>Last boat 22:50</li></ul>',
  '/words': 'Only bare words, sent as text/html, still make a page.',
  '/no-body':
    '<html><head><title>Notice</title></head><p>The lighthouse museum is closed for repairs until spring.</p></html>',
  '/short': '<!doctype html><title>Hi</title><p>Hello.</p>',
  // A forum theme leaves a stray CDATA opening near the top of every thread's body. A browser ends it
  // at the next ">" and shows the thread; read as a CDATA section it would swallow the whole body.
  '/stray-cdata': [
    '<!doctype html><html><head><title>Which tide gauge?</title></head><body class="forum"><![CDATA[\n\n<div id="jumpToTop"></div>',
    '<main><article class="message"><h4>harbourmaster</h4><p>Which tide gauge do you trust on the north quay, the float or the radar one?</p></article>',
    '<article class="message"><h4>pilot</h4><p>The radar gauge: the float sticks in winter and reads a hand too high at low water.</p></article></main>',
    '</body></html>',
  ].join(''),
  // A landing page spreads its content over sibling sections; Defuddle keeps one block of them.
  '/landing': landingPage(),
  // A service page whose questions open their answers with one click: the answers ship collapsed.
  '/accordion': accordionPage(),
  // A style before <html> makes the parser take the style for the document: the page is rebuilt
  // with its implied elements, and its <html lang> must survive the rebuild.
  '/style-first': [
    '<!doctype html><style>p{margin:0}</style><html lang="de"><head><title>Hafenzeiten</title></head><body>',
    '<main><h1>Hafenzeiten</h1><p>Das Hafenbüro am Nordkai ist montags bis freitags von acht bis sechzehn Uhr geöffnet und samstags bis mittags.</p>',
    '<p>Gastlieger melden sich nach dem Festmachen im Büro und zahlen dort das Liegegeld für die Nacht.</p></main></body></html>',
  ].join(''),
  // An application shell whose loader script in the head writes a "<body" of its own: the body the
  // browser shows is an empty mount point, so the page is a sparse shell, not a page of script text.
  '/head-script-body': [
    '<!doctype html><html><head><title>Harbour app</title><script>',
    `document.write('<body class="ready">');${'var step = 1;'.repeat(300)}`,
    '</script><script src="/app.js"></script></head><body><div id="root"></div></body></html>',
  ].join(''),
};

/** A service page with an accordion of questions whose answer panels are hidden until opened. */
function accordionPage(): string {
  const faq = [
    [
      'Can I moor for one night?',
      'Visitors moor for one night on the pontoon for a flat fee paid at the office.',
    ],
    [
      'Is there fresh water on the quay?',
      'Fresh water taps stand at every third berth and run from April to October.',
    ],
    [
      'Where do I leave rubbish?',
      'Rubbish goes in the sorted bins by the slipway, emptied every Tuesday morning.',
    ],
  ];
  const items = faq
    .map(
      ([question, answer], index) =>
        `<h3><button aria-expanded="false" aria-controls="answer-${index}">${question}</button></h3><div id="answer-${index}" role="region" hidden><p>${answer}</p></div>`,
    )
    .join('');
  return [
    '<!doctype html><html><head><title>Visiting the harbour</title></head><body>',
    '<header><nav><a href="/">Home</a> <button aria-controls="menu">Menu</button><div id="menu" hidden><a href="/fees">Fees</a></div></nav></header>',
    '<main><h1>Visiting the harbour</h1><p>Visitors are welcome all year; the office on the north quay answers questions by radio on channel twelve and in person every day.</p>',
    `<section class="faq"><h2>Questions visitors ask</h2>${items}</section></main>`,
    '<footer><p>Harbour office, north quay</p></footer></body></html>',
  ].join('');
}

/** A service's landing page: a hero, feature sections and one `<article>` among them. */
function landingPage(): string {
  const notes = (topic: string, count: number) =>
    Array.from(
      { length: count },
      (_, index) => `${topic} note ${index + 1} says how the harbour office handles it.`,
    ).join(' ');
  const section = (title: string, name: string) =>
    `<section class="${name}"><div class="container"><h2>${title}</h2><p>${notes(title, 3)}</p></div></section>`;
  return [
    '<!doctype html><html><head><title>Harbour office</title><meta property="og:type" content="website"></head><body>',
    '<header><nav><a href="/">Home</a> <a href="/fees">Fees</a></nav></header>',
    `<main><section class="hero"><h1>Moorings on the north quay</h1><p>${notes('Moorings', 2)}</p></section>`,
    section('Winter storage', 'feature-grid'),
    section('Slipway permits', 'feature-grid'),
    `<div class="content"><article><h2>How a berth is booked</h2><p>${notes('Booking', 6)}</p></article></div>`,
    section('Pilotage', 'testimonial'),
    section('Contact the office', 'faq'),
    '</main><footer><p>Harbour office, north quay</p></footer></body></html>',
  ].join('');
}

let server: Server;
let origin: string;
let runtime: WebRuntime;

beforeAll(async () => {
  server = createServer((request, response) => {
    const page = PAGES[request.url ?? ''];
    if (page === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
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

async function fetchPage(path: string, format?: 'markdown' | 'text', render?: 'never') {
  const run = runtime.startRun();
  try {
    return await run.webFetch({
      url: `${origin}${path}`,
      ...(format === undefined ? {} : { format }),
      ...(render === undefined ? {} : { render }),
    });
  } finally {
    await run.close();
  }
}

describe('WebFetch reads HTML5 pages without <html>/<body> as a browser would', () => {
  it('extracts a valid HTML5 page that leaves out the optional html, head and body tags', async () => {
    const result = await fetchPage('/implied');
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^WebFetch status: ok \| kind: html/);
    const content = framed(result.text);
    expect(content).toContain('High water at the harbour mouth comes at noon');
    expect(content).toContain('Spring tides on Thursday bring the lowest water');
    // The title comes from the implied head, and stays out of the body text.
    expect(result.text).toContain('Harbour tides');
  });

  it('extracts a bare fragment, keeping its list', async () => {
    const result = await fetchPage('/fragment');
    expect(result.isError).toBe(false);
    const content = framed(result.text);
    expect(content).toContain('Ferry timetable: boats leave the north quay every forty minutes.');
    expect(content).toMatch(/- First boat 06:10\s+- Last boat 22:50/);
  });

  it('extracts bare words served as text/html', async () => {
    const result = await fetchPage('/words', 'text');
    expect(result.isError).toBe(false);
    expect(framed(result.text)).toContain('Only bare words, sent as text/html, still make a page.');
  });

  it('extracts a page whose <html> has a head but no body', async () => {
    const result = await fetchPage('/no-body');
    expect(result.isError).toBe(false);
    expect(framed(result.text)).toContain('The lighthouse museum is closed for repairs until spring.');
  });

  it('reads the page after a stray CDATA opening, as a browser shows it', async () => {
    const result = await fetchPage('/stray-cdata');
    expect(result.isError).toBe(false);
    const content = framed(result.text);
    expect(content).toContain('Which tide gauge do you trust on the north quay');
    expect(content).toContain('The radar gauge: the float sticks in winter');
  });

  it('falls back to the cleaned body when Defuddle kept one section of a landing page', async () => {
    const result = await fetchPage('/landing');
    expect(result.isError).toBe(false);
    const content = framed(result.text);
    for (const heading of [
      'Moorings on the north quay',
      'Winter storage',
      'How a berth is booked',
      'Contact the office',
    ])
      expect(content).toContain(heading);
    expect(content).toContain('Pilotage note 3');
    // The page's chrome stays out.
    expect(content).not.toContain('Fees');
    expect(content).not.toContain('Harbour office, north quay');
  });

  it("reads the collapsed answers of an accordion, which a reader opens with one click, and not the site's hidden menu", async () => {
    const result = await fetchPage('/accordion');
    expect(result.isError).toBe(false);
    const content = framed(result.text);
    expect(content).toContain('Can I moor for one night?');
    for (const answer of [
      'flat fee paid at the office',
      'run from April to October',
      'emptied every Tuesday morning',
    ])
      expect(content).toContain(answer);
    expect(content).not.toContain('Fees');
  });

  it('keeps the <html lang> of a page it rebuilds with the implied elements, in the header line and the structured result', async () => {
    const result = await fetchPage('/style-first');
    expect(result.isError).toBe(false);
    expect(framed(result.text)).toMatch(/^Language: de$/m);
    expect((result.data as { document: { language?: string } }).document.language).toBe('de');
    expect(framed(result.text)).toContain('Das Hafenbüro am Nordkai');
  });

  it('takes a shell whose head script writes "<body" for the sparse shell it is, and recommends a render', async () => {
    const result = await fetchPage('/head-script-body', undefined, 'never');
    expect(result.isError).toBe(false);
    expect(result.text.split('\n')[0]).toMatch(/\| rendered: no \| browser recommended: \w+/);
  });

  it('never answers ok with an empty document when the page had text, however short', async () => {
    const result = await fetchPage('/short');
    expect(result.isError).toBe(false);
    expect(framed(result.text)).toContain('Hello.');
  });
});
