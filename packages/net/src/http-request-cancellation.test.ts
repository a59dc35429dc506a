import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import { httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';

let web: LoopbackWeb;
const policy: NetworkPolicy = { mode: 'localhost' };
let bodyStarted: () => void = () => undefined;

beforeAll(async () => {
  web = await startLoopbackWeb();
  // 10 bytes per second, forever, until the client goes away.
  web.scenario('/trickle', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('x'), 100);
    response.on('close', () => clearInterval(timer));
  });
  // Sends a first chunk, tells the test, then stalls with the connection open.
  web.scenario('/stall-mid-body', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('first chunk', () => bodyStarted());
  });
  web.scenario('/never-answers', () => undefined);
  web.scenario('/busy', { status: 503 });
});
afterAll(() => web.close());

async function failure(run: Promise<unknown>): Promise<WebToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
}

describe('deadline', () => {
  it('stops a 10 B/s trickle at the deadline and closes the connection', async () => {
    const error = await failure(httpRequest(web.url('/trickle'), { policy, deadlineMs: 1500 }));
    expect(error.code).toBe('timeout');
    expect(error.details).toMatchObject({ deadlineMs: 1500 });
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it('covers waiting for response headers', async () => {
    const error = await failure(httpRequest(web.url('/never-answers'), { policy, deadlineMs: 300 }));
    expect(error.code).toBe('timeout');
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it('covers retry waits', async () => {
    const error = await failure(
      httpRequest(web.url('/busy'), {
        policy,
        deadlineMs: 300,
        // A clock that stands still, so the retry wait always looks affordable and starts.
        clock: () => 0,
        // A sleep that only ends when the deadline aborts it.
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      }),
    );
    expect(error.code).toBe('timeout');
  });
});

describe('cancellation', () => {
  it('aborting mid-body fails cancelled and leaves no socket open', async () => {
    const controller = new AbortController();
    bodyStarted = () => setTimeout(() => controller.abort(), 20);
    const error = await failure(
      httpRequest(web.url('/stall-mid-body'), { policy, signal: controller.signal }),
    );
    expect(error.code).toBe('cancelled');
    expect(await eventually(() => web.openConnections() === 0)).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    const before = web.connectionCount();
    const error = await failure(httpRequest(web.url('/trickle'), { policy, signal: AbortSignal.abort() }));
    expect(error.code).toBe('cancelled');
    expect(web.connectionCount()).toBe(before);
  });

  it('reaches an admission hook that is waiting', async () => {
    const controller = new AbortController();
    const before = web.connectionCount();
    let admissionStarted: () => void = () => undefined;
    const request = httpRequest(web.url('/trickle'), {
      policy,
      signal: controller.signal,
      beforeAttempt: ({ signal }) =>
        new Promise((_resolve, reject) => {
          admissionStarted();
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    });
    await new Promise<void>((resolve) => {
      admissionStarted = resolve;
    });
    controller.abort();
    expect((await failure(request)).code).toBe('cancelled');
    expect(web.connectionCount()).toBe(before);
  });
});
