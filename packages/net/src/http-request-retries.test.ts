import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import {
  type AttemptInfo,
  type AttemptOutcome,
  type HttpRequestOptions,
  httpRequest,
} from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';
import { MAX_RETRIES, MAX_RETRY_AFTER_WAIT_MS, RETRY_BACKOFF_BASE_MS } from './retry-policy.js';

let web: LoopbackWeb;
let waits: number[];
const policy: NetworkPolicy = { mode: 'localhost' };
const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);

beforeAll(async () => {
  web = await startLoopbackWeb();
});
afterAll(() => web.close());
beforeEach(() => {
  waits = [];
});

/** Options with a fixed clock and a sleep that records its waits instead of sleeping. */
function options(extra: Partial<HttpRequestOptions> = {}): HttpRequestOptions {
  return {
    policy,
    clock: () => NOW,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  };
}

let pathCounter = 0;
/** A fresh path answering with `answers[n]` on the n-th request (the last one repeats). */
function sequence(
  answers: ReadonlyArray<{ status: number; headers?: Record<string, string>; body?: string } | 'drop'>,
) {
  pathCounter += 1;
  const path = `/sequence/${pathCounter}`;
  let served = 0;
  web.scenario(path, (_request, response) => {
    const answer = answers[Math.min(served, answers.length - 1)];
    served += 1;
    if (answer === undefined || answer === 'drop') {
      response.socket?.destroy();
      return;
    }
    response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
  });
  return { url: web.url(path), served: () => served };
}

const ok = { status: 200, body: 'ok' };

describe('retry on status', () => {
  it('waits out a 429 with Retry-After: 1 and succeeds', async () => {
    const target = sequence([{ status: 429, headers: { 'retry-after': '1' } }, ok]);
    const response = await httpRequest(target.url, options());
    expect(response).toMatchObject({ status: 200, attempts: 2 });
    expect(response.retryAfterMs).toBeUndefined();
    expect(waits).toEqual([1000]);
  });

  it('really sleeps through a short Retry-After when no sleep is injected', async () => {
    const target = sequence([{ status: 429, headers: { 'retry-after': '1' } }, ok]);
    const started = Date.now();
    const response = await httpRequest(target.url, { policy });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('does not wait for Retry-After: 60 and reports when to retry', async () => {
    const target = sequence([{ status: 429, headers: { 'retry-after': '60' } }, ok]);
    const response = await httpRequest(target.url, options());
    expect(response).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 60_000, retryAt: NOW + 60_000 });
    expect(waits).toEqual([]);
    expect(target.served()).toBe(1);
  });

  it(`waits for a Retry-After of exactly ${MAX_RETRY_AFTER_WAIT_MS} ms and not one second more`, async () => {
    const seconds = MAX_RETRY_AFTER_WAIT_MS / 1000;
    const atBound = sequence([{ status: 503, headers: { 'retry-after': String(seconds) } }, ok]);
    expect((await httpRequest(atBound.url, options())).status).toBe(200);
    expect(waits).toEqual([MAX_RETRY_AFTER_WAIT_MS]);
    const pastBound = sequence([{ status: 503, headers: { 'retry-after': String(seconds + 1) } }, ok]);
    const response = await httpRequest(pastBound.url, options());
    expect(response).toMatchObject({ status: 503, retryAfterMs: MAX_RETRY_AFTER_WAIT_MS + 1000 });
  });

  it('reads Retry-After as an HTTP date', async () => {
    const soon = new Date(NOW + 3000).toUTCString();
    const later = new Date(NOW + 120_000).toUTCString();
    const near = sequence([{ status: 429, headers: { 'retry-after': soon } }, ok]);
    expect((await httpRequest(near.url, options())).status).toBe(200);
    expect(waits).toEqual([3000]);
    const far = sequence([{ status: 429, headers: { 'retry-after': later } }, ok]);
    expect(await httpRequest(far.url, options())).toMatchObject({
      status: 429,
      retryAfterMs: 120_000,
      retryAt: NOW + 120_000,
    });
  });

  it('retries 503 twice and succeeds on the third attempt', async () => {
    const target = sequence([{ status: 503 }, { status: 503 }, ok]);
    const response = await httpRequest(target.url, options());
    expect(response).toMatchObject({ status: 200, attempts: 3 });
    expect(waits).toEqual([RETRY_BACKOFF_BASE_MS, RETRY_BACKOFF_BASE_MS * 2]);
  });

  it(`returns the 503 after ${MAX_RETRIES} retries`, async () => {
    const target = sequence([{ status: 503 }, { status: 503 }, { status: 503, body: 'down' }, ok]);
    const response = await httpRequest(target.url, options());
    expect(response).toMatchObject({ status: 503, attempts: MAX_RETRIES + 1 });
    expect(Buffer.from(response.body).toString('utf8')).toBe('down');
    expect(target.served()).toBe(MAX_RETRIES + 1);
  });

  it.each([408, 425, 500, 502, 504])('retries %i', async (status) => {
    const target = sequence([{ status }, ok]);
    expect(await httpRequest(target.url, options())).toMatchObject({ status: 200, attempts: 2 });
  });

  it.each([400, 403, 404, 410])('does not retry %i', async (status) => {
    const target = sequence([{ status }, ok]);
    expect(await httpRequest(target.url, options())).toMatchObject({ status, attempts: 1 });
  });

  it('does not retry with retries: 0', async () => {
    const target = sequence([{ status: 503 }, ok]);
    expect(await httpRequest(target.url, options({ retries: 0 }))).toMatchObject({
      status: 503,
      attempts: 1,
    });
  });

  it('does not start a wait that would pass the deadline', async () => {
    const target = sequence([{ status: 429, headers: { 'retry-after': '2' } }, ok]);
    const response = await httpRequest(target.url, options({ deadlineMs: 1500 }));
    expect(response).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 2000 });
    expect(waits).toEqual([]);
  });
});

describe('retry on transport failure', () => {
  it('retries a dropped connection and succeeds', async () => {
    const target = sequence(['drop', 'drop', ok]);
    expect(await httpRequest(target.url, options())).toMatchObject({ status: 200, attempts: 3 });
    expect(waits).toHaveLength(2);
  });

  it('fails backend_unavailable after the last retry', async () => {
    const target = sequence(['drop']);
    const error = await httpRequest(target.url, options()).catch((caught: unknown) => caught);
    expect(WebToolError.isInstance(error, 'backend_unavailable')).toBe(true);
    expect((error as WebToolError).details).toMatchObject({ attempts: MAX_RETRIES + 1 });
    expect(target.served()).toBe(MAX_RETRIES + 1);
  });

  it('fails backend_unavailable when nothing listens', async () => {
    const closed = await startLoopbackWeb();
    await closed.close();
    const error = await httpRequest(closed.url('/'), options()).catch((caught: unknown) => caught);
    expect(WebToolError.isInstance(error, 'backend_unavailable')).toBe(true);
    expect((error as WebToolError).details).toMatchObject({ cause: 'ECONNREFUSED', attempts: 3 });
  });

  it('does not retry a DNS name that does not exist', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const error = await httpRequest('http://localhost:1/', options({ lookup })).catch(
      (caught: unknown) => caught,
    );
    expect((error as WebToolError).details).toMatchObject({ cause: 'ENOTFOUND', attempts: 1 });
  });
});

describe('admission hooks', () => {
  it('brackets every attempt with the origin and how it ended', async () => {
    const target = sequence([{ status: 429, headers: { 'retry-after': '1' } }, ok]);
    const calls: Array<[string, AttemptInfo, AttemptOutcome?]> = [];
    await httpRequest(
      target.url,
      options({
        beforeAttempt: (info) => {
          calls.push(['before', info]);
        },
        afterAttempt: (info, outcome) => {
          calls.push(['after', info, outcome]);
        },
      }),
    );
    const origin = new URL(target.url).origin;
    expect(calls.map(([phase, info, outcome]) => [phase, info.origin, info.attempt, outcome])).toEqual([
      ['before', origin, 1, undefined],
      ['after', origin, 1, { status: 429, retryAfterMs: 1000 }],
      ['before', origin, 2, undefined],
      ['after', origin, 2, { status: 200 }],
    ]);
  });

  it('lets beforeAttempt refuse, and then sends nothing', async () => {
    const target = sequence([ok]);
    const cooldown = new WebToolError({
      code: 'cooldown',
      message: 'origin cooling down',
      retryAfterMs: 60_000,
    });
    const error = await httpRequest(
      target.url,
      options({
        beforeAttempt: () => {
          throw cooldown;
        },
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toBe(cooldown);
    expect(target.served()).toBe(0);
  });

  it('reports a failed attempt by its code', async () => {
    const target = sequence(['drop']);
    const outcomes: AttemptOutcome[] = [];
    await httpRequest(
      target.url,
      options({ retries: 0, afterAttempt: (_info, outcome) => void outcomes.push(outcome) }),
    ).catch(() => undefined);
    expect(outcomes).toEqual([{ error: 'backend_unavailable' }]);
  });
});
