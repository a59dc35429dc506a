import {
  CHARSET_SAMPLES,
  FIXTURE_PDF_TITLE,
  type FixtureWeb,
  startFixtureWeb,
} from '@mono-agent/fixture-web';
import { httpRequest } from '@mono-agent/net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FetchDocumentOptions, fetchDocument } from './fetch-document.js';
import { inlineExtraction } from './pool/extraction-pool.js';
import type { ExtractionPool, ExtractionRun } from './pool/pool-options.js';

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
    ['utf-8', 'bom-conflict', 'bom'],
  ] as const)('decodes the %s page of variant %s from its %s', async (charset, variant, source) => {
    const outcome = await fetchOk(`/charset/${charset}/${variant}`, { format: 'text' });
    expect(outcome.document.charsetSource).toBe(source);
    expect(outcome.document.replacementCount).toBe(0);
    const firstParagraph = CHARSET_SAMPLES[charset].paragraphs[0] ?? '';
    expect(outcome.document.content).toContain(firstParagraph.slice(0, 20));
  });

  it('reads the undeclared windows-1251 page as UTF-8, counting its replacement characters and naming the charset only as a hint', async () => {
    const outcome = await fetchOk('/charset/windows-1251/none', { format: 'text' });
    expect(outcome.document).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'default',
      charsetHint: 'windows-1251',
    });
    expect(outcome.document.replacementCount).toBeGreaterThan(0);
    const firstParagraph = CHARSET_SAMPLES['windows-1251'].paragraphs[0] ?? '';
    expect(outcome.document.content).not.toContain(firstParagraph.slice(0, 20));
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

  it('does not call the renderer unless a render mode asks for it', async () => {
    const renderer = {
      render: () => {
        throw new Error('the renderer must not run');
      },
    };
    expect((await fetchOk('/content/html', { renderer })).document.kind).toBe('html');
    expect((await fetchOk('/app/client-rendered', { renderer, render: 'never' })).rendered).toBe(false);
  });

  describe('render seam (the real renderer is tested in render/agent-browser-renderer.test.ts)', () => {
    const rendered =
      '<html><head><title>App</title></head><body><article><h1>Done</h1><p>' +
      'Rendered words here. '.repeat(20) +
      '</p></article></body></html>';
    const recording = () => {
      const calls: string[] = [];
      const renderer = {
        async render(url: string) {
          calls.push(url);
          return { url, html: rendered, durationMs: 1 };
        },
      };
      return { calls, renderer };
    };

    it('auto renders a sparse shell and reports why, admitted like an attempt', async () => {
      const { calls, renderer } = recording();
      const attempts: number[] = [];
      const outcome = await fetchOk('/app/client-rendered', {
        renderer,
        render: 'auto',
        beforeAttempt: (attempt) => void attempts.push(attempt.attempt),
      });
      expect(calls).toEqual([web.url('/app/client-rendered')]);
      expect(outcome).toMatchObject({ rendered: true, renderReason: 'sparse_shell', attempts: 2 });
      expect(attempts).toEqual([1, 2]);
      expect(outcome.document.content).toContain('Rendered words here.');
    });

    it('auto leaves articles, JSON, feeds, PDF, text and HTTP errors to static extraction', async () => {
      const { calls, renderer } = recording();
      for (const path of [
        '/content/html',
        '/content/json',
        '/content/rss',
        '/content/pdf',
        '/content/text',
      ]) {
        expect((await fetchOk(path, { renderer, render: 'auto' })).rendered).toBe(false);
      }
      expect(
        (
          await fetchFailure('/status/500?content-type=text/html&body=%3Cdiv%20id=root%3E%3C/div%3E', {
            renderer,
            render: 'auto',
          })
        ).code,
      ).toBe('http_status');
      expect(calls).toEqual([]);
    });

    it('always skips the static fetch; a render failure is the failure', async () => {
      const { calls, renderer } = recording();
      expect((await fetchOk('/content/html', { renderer, render: 'always' })).renderReason).toBe('requested');
      expect(calls).toHaveLength(1);
      expect(web.requests).toEqual([]);
      const failing = {
        render: async () => {
          throw new (await import('@mono-agent/budget-policy')).WebToolError({
            code: 'timeout',
            message: 'late',
          });
        },
      };
      expect((await fetchFailure('/app/client-rendered', { renderer: failing, render: 'auto' })).code).toBe(
        'timeout',
      );
      expect((await fetchFailure('/content/html', { render: 'always' })).code).toBe('configuration_error');
    });

    it('a page that is still a shell after rendering is a failure, not the shell', async () => {
      const renderer = {
        render: async (url: string) => ({
          url,
          html: '<html><body><div id="root">Loading...</div><script src="/a.js"></script></body></html>',
          durationMs: 1,
        }),
      };
      expect((await fetchFailure('/app/client-rendered', { renderer, render: 'auto' })).code).toBe(
        'backend_unavailable',
      );
    });
  });

  it('hands the default transport’s body to the extraction pool, and a host transport’s only when told', async () => {
    const runs: (ExtractionRun | undefined)[] = [];
    const extraction: ExtractionPool = {
      extract: (extractOptions, run) => {
        runs.push(run);
        return inlineExtraction.extract(extractOptions);
      },
      close: async () => {},
    };
    await fetchOk('/content/html', { extraction });
    await fetchOk('/content/html', { extraction, request: httpRequest });
    await fetchOk('/content/html', { extraction, request: httpRequest, handOverBody: true });
    expect(runs.map((run) => run?.transferBody)).toEqual([true, false, true]);
  });

  it('reports cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await fetchFailure('/content/html', { signal: controller.signal })).code).toBe('cancelled');
  });
});
