import { readFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import type { HttpResponse } from '@mono-agent/net';
import { describe, expect, it } from 'vitest';
import { classifySearxngResponse } from './searxng-provider.js';

// Real bodies of a searx 1.1.0 server (see __fixtures__/searx/README.md for how each was produced).
function recorded(name: string, status = 200): HttpResponse {
  const body = readFileSync(new URL(`./__fixtures__/searx/searx-1.1.0_${name}.json`, import.meta.url));
  return {
    url: 'http://127.0.0.1:8888/search',
    status,
    statusText: '',
    headers: { 'content-type': 'application/json' },
    body: new Uint8Array(body),
    redirects: 0,
    attempts: 1,
    wireBytes: body.length,
  };
}

function failure(response: HttpResponse): WebToolError {
  try {
    classifySearxngResponse(response, 10);
  } catch (error) {
    if (WebToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('classifySearxngResponse on recorded searx answers', () => {
  it('results present → success, bounded by the limit', () => {
    const answer = classifySearxngResponse(recorded('results-local-engines'), 3);
    expect(answer.kind).toBe('results');
    if (answer.kind !== 'results') return;
    expect(answer.results).toHaveLength(3);
    for (const result of answer.results) expect(result.url).toMatch(/^https?:\/\//);
    expect(answer.warnings).toEqual([]);
  });

  it('results with some failed engines → success that keeps the failures as a warning', () => {
    const answer = classifySearxngResponse(recorded('partial-failure'), 10);
    expect(answer.kind).toBe('results');
    expect(answer.warnings).toEqual([
      'some SearXNG engines failed: duckduckgo: HTTP error; fixture-refused: HTTP error',
    ]);
  });

  it('empty results, no unresponsive engines → genuine no results', () => {
    expect(classifySearxngResponse(recorded('empty'), 10)).toEqual({ kind: 'no_results', warnings: [] });
  });

  it('empty with blocked or throttled engines → rate_limited naming each engine and its reason in stable words', () => {
    for (const [name, text] of [
      ['captcha-503', 'fixture-captcha: CAPTCHA'],
      ['http-429', 'fixture-429: too many requests'],
      ['http-403', 'fixture-403: access denied'],
    ] as const) {
      const error = failure(recorded(name));
      expect(error.code, name).toBe('rate_limited');
      expect(error.message).toContain(text);
    }
  });

  it('empty with broken engines → backend_unavailable naming every engine', () => {
    const error = failure(recorded('offline-real-engines'));
    expect(error.code).toBe('backend_unavailable');
    expect(error.message).toBe(
      'SearXNG returned no results because its engines failed: bing: HTTP error; duckduckgo: HTTP error; ' +
        'google: HTTP error; startpage: HTTP error; wikipedia: HTTP error',
    );
    expect(error.details.engines).toHaveLength(5);
    for (const name of ['timeout', 'bad-json', 'connection-refused', 'http-500']) {
      expect(failure(recorded(name)).code, name).toBe('backend_unavailable');
    }
  });

  it('a mixed set with one throttled engine counts as rate_limited', () => {
    const body = JSON.stringify({
      results: [],
      unresponsive_engines: [
        ['duckduckgo', 'CAPTCHA'],
        ['brave', 'Suspended: too many requests'],
        ['wikipedia', 'timeout'],
      ],
    });
    const error = failure({ ...recorded('empty'), body: new TextEncoder().encode(body) });
    expect(error.code).toBe('rate_limited');
    expect(error.message).toContain(
      'brave: too many requests (suspended); duckduckgo: CAPTCHA; wikipedia: timeout',
    );
  });

  it('HTTP 403 means JSON output is off and says how to enable it', () => {
    const error = failure({ ...recorded('empty', 403), body: new TextEncoder().encode('Forbidden') });
    expect(error.code).toBe('configuration_error');
    expect(error.message).toContain('search.formats');
  });

  it('HTTP 429 from the limiter is rate_limited with its retry hints; other statuses are unavailable', () => {
    const limited = failure({ ...recorded('empty', 429), retryAfterMs: 5000, retryAt: 1_000_005_000 });
    expect(limited.code).toBe('rate_limited');
    expect(limited.retryAfterMs).toBe(5000);
    expect(failure(recorded('no-query-400', 400)).code).toBe('backend_unavailable');
    expect(failure({ ...recorded('empty', 308) }).code).toBe('backend_unavailable');
  });

  it('a body that is not a search response object is backend_unavailable', () => {
    expect(failure({ ...recorded('empty'), body: new TextEncoder().encode('<html>') }).code).toBe(
      'backend_unavailable',
    );
    expect(failure({ ...recorded('empty'), body: new TextEncoder().encode('[1,2]') }).code).toBe(
      'backend_unavailable',
    );
  });
});
