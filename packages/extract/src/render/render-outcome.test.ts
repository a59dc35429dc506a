import { describe, expect, it } from 'vitest';
import { BrowserStepFailure } from './browser-step.js';
import { pageContent, readablePage, readWithRetry, stepFailure } from './render-outcome.js';

const target = new URL('http://127.0.0.1:8080/app/page');
const article = '<html><head><title>A page</title></head><body><p>Text of the page.</p></body></html>';

const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('the render outcome', () => {
  it('reads a page of the requested origin, and refuses one of another', () => {
    expect(readablePage(pageContent({ result: [target.href, article] }), target)).toBe(article);
    expect(readablePage({ pageUrl: 'http://127.0.0.1:8080/app/other', html: article }, target)).toBe(article);
    expect(
      codeOf(() => readablePage({ pageUrl: 'http://127.0.0.2:8080/app/page', html: article }, target)),
    ).toBe('policy_denied');
    // The same host on another port is another origin.
    expect(codeOf(() => readablePage({ pageUrl: 'http://127.0.0.1:9090/', html: article }, target))).toBe(
      'policy_denied',
    );
  });

  it('says an error page is a navigation that failed, not a refusal', () => {
    let failure: unknown;
    try {
      readablePage(
        { pageUrl: 'chrome-error://chromewebdata/', html: '<html><body>error</body></html>' },
        target,
      );
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ code: 'backend_unavailable', details: { reason: 'render_failed' } });
    expect((failure as Error).message).toContain('chrome-error:');
  });

  it('finds no page in a read without HTML or of another shape', () => {
    expect(codeOf(() => pageContent({ result: [target.href, ''] }))).toBe('backend_unavailable');
    expect(codeOf(() => pageContent({ result: 'html' }))).toBe('backend_unavailable');
    expect(codeOf(() => pageContent({}))).toBe('backend_unavailable');
  });

  it('tells a step that failed as the page left apart from one that failed where it was', async () => {
    const failed = new BrowserStepFailure('Evaluation error: TypeError: x is null');
    const elsewhere = await stepFailure(failed, target, async () => 'http://127.0.0.2:8080/app/landing');
    expect(elsewhere).toMatchObject({ code: 'policy_denied', details: { rule: 'render-origin' } });
    const here = await stepFailure(failed, target, async () => target.href);
    expect(here).toMatchObject({ code: 'backend_unavailable', details: { reason: 'render_failed' } });
    expect(here.message).toContain('x is null');
    // A tab on no page, or a browser that cannot say, has not left for anywhere.
    for (const where of ['about:blank', undefined]) {
      expect((await stepFailure(failed, target, async () => where)).code).toBe('backend_unavailable');
    }
    const filtered = new BrowserStepFailure("Domain '127.0.0.2' is not in the allowed domains list");
    let asked = false;
    const refused = await stepFailure(filtered, target, async () => {
      asked = true;
      return undefined;
    });
    expect(refused).toMatchObject({ code: 'policy_denied' });
    expect(asked).toBe(false);
  });

  it('reads once more after a pause when the first read found no page, and only then', async () => {
    const page = { pageUrl: target.href, html: article };
    let reads = 0;
    let pauses = 0;
    const flaky = async () => {
      reads += 1;
      if (reads === 1) return pageContent({ result: [target.href, ''] });
      return page;
    };
    const pause = async () => {
      pauses += 1;
    };
    expect(await readWithRetry(flaky, pause)).toBe(page);
    expect([reads, pauses]).toEqual([2, 1]);
    const refused = async () => {
      reads += 1;
      return readablePage({ pageUrl: 'http://127.0.0.2/', html: article }, target) as never;
    };
    reads = 0;
    await expect(readWithRetry(refused, async () => undefined)).rejects.toMatchObject({
      code: 'policy_denied',
    });
    expect(reads).toBe(1);
  });
});
