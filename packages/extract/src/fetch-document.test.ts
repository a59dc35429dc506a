import {
  CHARSET_SAMPLES,
  FIXTURE_PDF_TITLE,
  type FixtureWeb,
  startFixtureWeb,
} from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FetchDocumentOptions, fetchDocument } from './fetch-document.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
beforeEach(() => web.reset());
afterAll(() => web.close());

// The WebFetch deadline: since extraction runs inside it, a worker's cold start on a busy machine counts.
const options: FetchDocumentOptions = { policy: { mode: 'localhost' }, deadlineMs: 45_000 };

async function fetchOk(path: string, extra: Partial<FetchDocumentOptions> = {}) {
  const outcome = await fetchDocument(web.url(path), { ...options, ...extra });
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}

async function fetchFailure(path: string, extra: Partial<FetchDocumentOptions> = {}) {
  const outcome = await fetchDocument(web.url(path), { ...options, ...extra });
  if (outcome.ok) throw new Error(`expected a failure for ${path}`);
  return outcome.error;
}

describe('fetchDocument', { timeout: 60_000 }, () => {
  it('fetches and extracts an article after redirects, reporting the final URL, status and hops', async () => {
    const outcome = await fetchOk('/redirect/2?to=/content/html');
    expect(outcome).toMatchObject({ status: 200, redirects: 2, url: web.url('/content/html') });
    expect(outcome.document).toMatchObject({
      kind: 'html',
      format: 'markdown',
      url: web.url('/content/html'),
    });
    expect(outcome.document.content.length).toBeGreaterThan(200);
    expect(web.requestsTo('/content/html')[0]?.headers.accept).toContain('text/html');
  });

  it.each([
    ['shift_jis', 'header', 'header'],
    ['shift_jis', 'meta', 'meta'],
    ['windows-1251', 'http-equiv', 'meta'],
    ['iso-8859-1', 'meta', 'meta'],
    ['windows-1251', 'none', 'detected'],
    ['utf-8', 'bom-conflict', 'bom'],
  ] as const)('decodes the %s page of variant %s from its %s', async (charset, variant, source) => {
    const outcome = await fetchOk(`/charset/${charset}/${variant}`, { format: 'text' });
    expect(outcome.document.charsetSource).toBe(source);
    expect(outcome.document.replacementCount).toBe(0);
    const firstParagraph = CHARSET_SAMPLES[charset].paragraphs[0] ?? '';
    expect(outcome.document.content).toContain(firstParagraph.slice(0, 20));
  });

  it('decodes a feed declared by its XML declaration', async () => {
    const outcome = await fetchOk('/charset/shift_jis/xml');
    expect(outcome.document).toMatchObject({
      kind: 'feed',
      charset: 'shift_jis',
      charsetSource: 'xml-declaration',
    });
  });

  it('reports an undecodable declared charset', async () => {
    expect((await fetchFailure('/charset/utf-8/bogus')).code).toBe('charset_error');
  });

  it('extracts JSON, RSS, Atom, XML, PDF and text', async () => {
    expect((await fetchOk('/content/json')).document.kind).toBe('json');
    expect((await fetchOk('/content/rss')).document.kind).toBe('feed');
    expect((await fetchOk('/content/atom')).document.kind).toBe('feed');
    expect((await fetchOk('/content/xml')).document.kind).toBe('xml');
    expect((await fetchOk('/content/text')).document.kind).toBe('text');
    const pdf = await fetchOk('/content/pdf');
    expect(pdf.document).toMatchObject({ kind: 'pdf', pageCount: 2, title: FIXTURE_PDF_TITLE });
    expect(pdf.document.content).toContain('[page 2 of 2]');
  });

  it('reports invalid JSON as a parse error', async () => {
    expect((await fetchFailure('/content/json-invalid')).code).toBe('parse_error');
  });

  it('never extracts a non-success response', async () => {
    const error = await fetchFailure(
      '/status/404?body=<html><body>Not here</body></html>&content-type=text/html',
    );
    expect(error.code).toBe('http_status');
    expect(error.details.status).toBe(404);
  });

  it('reports 429 as rate_limited with the retry hints', async () => {
    // A wait longer than net honours ends the retries at once, keeping the test fast.
    const error = await fetchFailure('/status/429?header=Retry-After:30');
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.retryAt).toBeGreaterThan(Date.now());
  });

  it('passes on policy denials, unsupported content and admission', async () => {
    expect((await fetchFailure('/content/html', { policy: { mode: 'none' } })).code).toBe('policy_denied');
    const remove = web.scenario('/image', {
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: 'PNG',
    });
    expect((await fetchFailure('/image')).code).toBe('unsupported_content');
    remove();
    const origins: string[] = [];
    await fetchOk('/content/text', { beforeAttempt: (attempt) => void origins.push(attempt.origin) });
    expect(origins).toEqual([new URL(web.baseUrl).origin]);
  });

  it('never calls the renderer', async () => {
    const renderer = {
      render: () => {
        throw new Error('the renderer must not run');
      },
    };
    expect((await fetchOk('/content/html', { renderer })).document.kind).toBe('html');
  });

  it('reports cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await fetchFailure('/content/html', { signal: controller.signal })).code).toBe('cancelled');
  });
});
