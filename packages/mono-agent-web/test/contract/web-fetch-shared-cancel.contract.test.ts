// "One caller's cancel cancels one caller": identical concurrent WebFetch calls share one fetch
// ("Identical calls share in-flight work", local-first web research); one caller aborting ends
// only that caller's answer, and the shared work stops only when every caller has gone.
// Driven through createWebRuntime; the fixture web holds each answer until the test opens a gate,
// so nothing here depends on timing.
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RuntimeSession, startRuntime } from './support/runtime.js';

let web: FixtureWeb;
let session: RuntimeSession;

beforeAll(async () => {
  web = await startFixtureWeb();
  session = await startRuntime({
    MONO_AGENT_NETWORK_MODE: 'allowlist',
    MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
  });
});
afterAll(async () => {
  await session?.close();
  await web?.close();
});

/** A page whose answer waits for `open()`; `gone` settles when a client drops a waiting request. */
function gatedPage(path: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let dropped!: () => void;
  const gone = new Promise<void>((resolve) => {
    dropped = resolve;
  });
  web.scenario(path, async (_request, response, context) => {
    context.signal.addEventListener('abort', () => dropped(), { once: true });
    await Promise.race([gate, new Promise((resolve) => context.signal.addEventListener('abort', resolve))]);
    if (context.signal.aborted) return;
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`tide table for ${path}\n`);
  });
  return { open, gone };
}

async function requestArrived(path: string, count = 1) {
  while (web.requestsTo(path).length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('"Identical concurrent calls share one fetch; one caller aborting ends only that caller\'s answer"', () => {
  it('the first caller cancels: it gets `cancelled` while the fetch waits, and the other caller still gets the page', async () => {
    const page = gatedPage('/shared/one');
    const controller = new AbortController();
    const first = session.run.webFetch({ url: web.url('/shared/one') }, { signal: controller.signal });
    const second = session.run.webFetch({ url: web.url('/shared/one') });
    await requestArrived('/shared/one');
    controller.abort();
    // Settles while the server still holds the answer: the cancel did not wait for the shared work.
    const cancelled = await first;
    expect(cancelled.isError).toBe(true);
    expect(cancelled.code).toBe('cancelled');
    expect(cancelled.text).toMatch(/^reason: .*cancelled/m);
    page.open();
    const answered = await second;
    expect(answered.isError, answered.text).toBe(false);
    expect(answered.text).toContain('tide table for /shared/one');
    expect(web.requestsTo('/shared/one')).toHaveLength(1);
  });

  it('a later caller cancels: the first caller still gets the page from the one fetch', async () => {
    const page = gatedPage('/shared/two');
    const controller = new AbortController();
    const first = session.run.webFetch({ url: web.url('/shared/two') });
    const second = session.run.webFetch({ url: web.url('/shared/two') }, { signal: controller.signal });
    await requestArrived('/shared/two');
    controller.abort();
    expect((await second).code).toBe('cancelled');
    page.open();
    const answered = await first;
    expect(answered.isError, answered.text).toBe(false);
    expect(web.requestsTo('/shared/two')).toHaveLength(1);
  });

  it('"the shared work stops only when every caller has gone", and the next identical call fetches afresh', async () => {
    const page = gatedPage('/shared/all');
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((controller) =>
      session.run.webFetch({ url: web.url('/shared/all') }, { signal: controller.signal }),
    );
    await requestArrived('/shared/all');
    controllers[0]!.abort();
    expect((await calls[0]!).code).toBe('cancelled');
    controllers[1]!.abort();
    expect((await calls[1]!).code).toBe('cancelled');
    // With both callers gone the fetch itself is aborted: the server sees its client leave.
    await page.gone;
    page.open();
    const again = await session.run.webFetch({ url: web.url('/shared/all') });
    expect(again.isError, again.text).toBe(false);
    expect(again.text).toContain('tide table for /shared/all');
    expect(web.requestsTo('/shared/all')).toHaveLength(2);
  });
});
