// Contract: "Browser rendering" and the render parts of "Sandbox and validation". Every test drives
// the assembled tool (createWebRuntime, or the built mono-agent-web binary) against the loopback
// fixture web, with Debian's Chromium and the pinned agent-browser (installed by pnpm setup:system).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  createAgentBrowserRenderer,
  DEBIAN_CHROMIUM,
  type DocumentRenderer,
  RENDER_BUDGET_MS,
} from '@mono-agent/extract';
import { agentBrowserPath, type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadWebConfig, resolveWebConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/exit-codes.js';
import type { TimingEvent } from '../../src/runtime/timing-event.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';
import { BUILT_CLI as bin } from './support/built-cli.js';

const browser = agentBrowserPath();
const available = browser !== undefined && existsSync(DEBIAN_CHROMIUM);
const RENDERED_MARKER = 'hello from the API, value 42';

let web: FixtureWeb;
let root: string;

/** PIDs of live processes whose TMPDIR lies under `folder` (every process of a render inherits it). */
async function processesUnder(folder: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const environment = await readFile(`/proc/${entry}/environ`, 'latin1');
      if (environment.split('\0').some((variable) => variable.startsWith(`TMPDIR=${folder}/`))) {
        found.push(Number(entry));
      }
    } catch {
      // Gone, or not readable.
    }
  }
  return found;
}

const browserRequests = () =>
  web.requests.filter((request) => /HeadlessChrome/.test(request.headers['user-agent'] ?? ''));
const otherHostRequests = () => web.requests.filter((request) => request.hostname !== '127.0.0.1');

async function runtime(options: {
  render: 'never' | 'auto';
  events?: TimingEvent[];
  renderer?: DocumentRenderer;
  host?: string;
}) {
  const config = resolveWebConfig({
    env: {
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_WEB_FETCH_RENDER: options.render,
      MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
      ...(options.host === undefined ? {} : { MONO_AGENT_WEB_COORDINATION: 'host' }),
    },
  });
  return await createWebRuntime({
    config,
    // The real renderer, with its temporary folders under this test's root so they can be checked.
    renderer:
      options.renderer ??
      createAgentBrowserRenderer({ command: browser ?? 'agent-browser', temporaryRoot: root }),
    ...(options.host === undefined ? {} : { stateDirectory: options.host }),
    ...(options.events ? { onTiming: (event: TimingEvent) => options.events?.push(event) } : {}),
  });
}

async function fetchOnce(render: 'never' | 'auto', args: Record<string, unknown>, events?: TimingEvent[]) {
  const instance = await runtime({ render, ...(events ? { events } : {}) });
  const run = instance.startRun();
  try {
    return await run.webFetch(args);
  } finally {
    await run.close();
    await instance.close();
  }
}

function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(() => web.close());
beforeEach(async () => {
  web.reset();
  root = await mkdtemp(join(tmpdir(), 'render-ct-'));
});
afterEach(async () => {
  // After every call: no browser process and no temporary folder of it is left.
  expect(await processesUnder(root)).toEqual([]);
  expect((await readdir(root)).filter((name) => name.startsWith('mar-'))).toEqual([]);
  await rm(root, { recursive: true, force: true });
});

describe('configuration of the render ceiling', () => {
  it('accepts never and auto for tools.web.fetch.render and refuses always (the ceiling has no browser-first mode)', async () => {
    expect(resolveWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'auto' } }).fetch.render).toBe('auto');
    await expect(loadWebConfig({ env: { MONO_AGENT_WEB_FETCH_RENDER: 'always' } })).rejects.toThrow(/render/);
  });
});

describe.skipIf(!available)('WebFetch browser rendering on Debian Chromium', () => {
  it('"Config never is a capability ceiling: every call stays static, even if model input requests always" (no browser starts; the model is told a browser would help)', async () => {
    const events: TimingEvent[] = [];
    const result = await fetchOnce(
      'never',
      { url: web.url('/app/client-rendered'), render: 'always' },
      events,
    );
    expect(result.isError).toBe(false);
    expect(result.text.split('\n')[0]).toContain('rendered: no | browser recommended: enable_rendering');
    expect(result.text).toContain('Loading...');
    expect(result.text).not.toContain(RENDERED_MARKER);
    expect(result.text).toContain('tell the operator');
    expect(events[0]).toMatchObject({ rendered: false, browserRecommendation: 'enable_rendering' });
    expect(browserRequests()).toEqual([]);
  });

  it('config never + call always through the built binary starts no browser process at all', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const result = await cli(['fetch', web.url('/app/client-rendered'), '--render', 'always'], {
      HOME: home,
      TMPDIR: root,
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_WEB_FETCH_RENDER: 'never',
      MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
    });
    expect(result.code).toBe(EXIT_CODES.success);
    expect(result.stdout).toMatch(
      /^WebFetch status: ok \| kind: html .*\| rendered: no \| browser recommended: enable_rendering/,
    );
    expect(browserRequests()).toEqual([]);
    await rm(home, { recursive: true, force: true });
  });

  it('"Call auto escalates only after a successful HTML response is classified as a sparse application shell": the client-rendered page comes back rendered, 10 of 10 runs', async () => {
    const events: TimingEvent[] = [];
    let rendered = 0;
    for (let run = 0; run < 10; run += 1) {
      const result = await fetchOnce(
        'auto',
        { url: web.url('/app/client-rendered'), render: 'auto' },
        events,
      );
      if (
        !result.isError &&
        result.text.includes(RENDERED_MARKER) &&
        /rendered: yes \(sparse_shell\)/.test(result.text)
      ) {
        rendered += 1;
      }
    }
    expect(rendered).toBe(10);
    expect(events.every((event) => event.rendered === true && event.renderReason === 'sparse_shell')).toBe(
      true,
    );
  }, 400_000);

  it('a call that gives no render argument under config auto is auto; render never under config auto recommends asking for a render', async () => {
    const plain = await fetchOnce('auto', { url: web.url('/app/client-rendered') });
    expect(plain.text).toMatch(/rendered: yes \(sparse_shell\)/);
    const never = await fetchOnce('auto', { url: web.url('/app/client-rendered'), render: 'never' });
    expect(never.text.split('\n')[0]).toContain('rendered: no | browser recommended: request_rendering');
  }, 120_000);

  it(`"Each render uses one 20-second budget": a page that never answers fails with timeout within ${RENDER_BUDGET_MS / 1000} s + 1 s and leaves nothing behind`, async () => {
    const events: TimingEvent[] = [];
    const started = performance.now();
    const result = await fetchOnce('auto', { url: web.url('/delay/120000'), render: 'always' }, events);
    const elapsed = performance.now() - started;
    expect(result.isError).toBe(true);
    expect(result.code).toBe('timeout');
    expect(events[0]?.durationMs).toBeLessThan(RENDER_BUDGET_MS + 1_000);
    expect(elapsed).toBeLessThan(RENDER_BUDGET_MS + 2_000);
  }, 60_000);

  it('"Call always is browser-first and strict: ... a rendering failure is a tool error" (sign-in page, challenge, timeout: never the static result)', async () => {
    const login = await fetchOnce('auto', { url: web.url('/app/login'), render: 'always' });
    expect([login.isError, login.code]).toEqual([true, 'authentication_required']);
    expect(login.text).toBe(
      'WebFetch status: error | error: authentication_required\n' +
        'reason: the page asks to sign in; WebFetch reads public pages only and never signs in, so use a public source',
    );
    const challenge = await fetchOnce('auto', { url: web.url('/app/challenge'), render: 'always' });
    expect([challenge.isError, challenge.code]).toEqual([true, 'access_challenge']);
    // Browser-first: the static fetcher never asked for these pages.
    expect(
      web.requests.filter(
        (request) =>
          !/HeadlessChrome/.test(request.headers['user-agent'] ?? '') && request.path.startsWith('/app/'),
      ),
    ).toEqual([]);
  }, 120_000);

  it('a shell whose body has no text and whose head describes it: static, the description is the content and the shell is still sparse; auto renders it', async () => {
    const url = web.url('/app/client-rendered?described=1');
    const never = await fetchOnce('auto', { url, render: 'never' });
    expect(never.isError).toBe(false);
    expect(never.text.split('\n')[0]).toContain('rendered: no | browser recommended: request_rendering');
    expect(never.text).toContain('& the server <b>sends</b> none of it.');
    expect(never.text).not.toContain(RENDERED_MARKER);
    const events: TimingEvent[] = [];
    const auto = await fetchOnce('auto', { url }, events);
    expect(auto.text).toMatch(/rendered: yes \(sparse_shell\)/);
    expect(auto.text).toContain(RENDERED_MARKER);
    expect(events.map((event) => event.extractionStage)).not.toContain('page-description');
    const failed = await fetchOnce('auto', { url: `${url}&api-delay=60000` });
    expect([failed.isError, failed.code]).toEqual([true, 'backend_unavailable']);
    expect(failed.text).not.toContain('A summary in the page head');
  }, 120_000);

  it('"If rendering then fails, the loading shell is not returned as success": a shell whose data never arrives is an error', async () => {
    const result = await fetchOnce('auto', { url: web.url('/app/client-rendered?api-delay=60000') });
    expect(result.isError).toBe(true);
    expect(result.code).toBe('backend_unavailable');
    expect(result.text).not.toContain('Loading...');
  }, 60_000);

  it('"cancellation is never returned as static success"', async () => {
    const instance = await runtime({ render: 'auto' });
    const run = instance.startRun();
    const controller = new AbortController();
    // The call is cancelled while the browser is rendering: once the page's script has asked for
    // its data (which the fixture holds back for a minute), before the page's DOM can settle. A
    // fixed delay would race the browser's start-up, which a loaded machine slows down.
    const seen = web.requests.length;
    const rendering = () => web.requests.slice(seen).some((request) => request.path === '/app-api/article');
    const abortWhenRendering = setInterval(() => {
      if (rendering()) controller.abort();
    }, 20);
    const result = await run
      .webFetch({ url: web.url('/app/client-rendered?api-delay=60000') }, { signal: controller.signal })
      .finally(() => clearInterval(abortWhenRendering));
    await run.close();
    await instance.close();
    expect(rendering()).toBe(true);
    expect([result.isError, result.code]).toEqual([true, 'cancelled']);
  }, 60_000);

  it('"origin-scoped --allowed-domains" and the final-URL check: another host is never contacted by a redirect, sub-resources or navigation', async () => {
    const redirect = await fetchOnce('auto', {
      url: web.url('/redirect/1?host=127.0.0.2&to=/app/landing'),
      render: 'always',
    });
    expect(redirect.code).toBe('policy_denied');
    const resources = await fetchOnce('auto', {
      url: web.url('/app/cross-host?other=127.0.0.2'),
      render: 'always',
    });
    expect(resources.isError).toBe(false);
    expect(resources.text).toContain(RENDERED_MARKER);
    for (const other of ['127.0.0.2', 'localhost']) {
      const navigation = await fetchOnce('auto', {
        url: web.url(`/app/cross-host?other=${other}&navigate=1`),
        render: 'always',
      });
      expect(navigation.code).toBe('policy_denied');
    }
    // Per-host request counts: the page's own host served the pages and their data, the others nothing.
    expect(web.requests.filter((request) => request.hostname === '127.0.0.1').length).toBeGreaterThanOrEqual(
      6,
    );
    expect(otherHostRequests()).toEqual([]);
  }, 180_000);

  it('"validates the browser\'s final URL against the sandbox and domain policy": a page that leaves for another host is refused whichever step its navigation lands in', async () => {
    // At its load event, inside the settle wait while its DOM still changes, and inside the read (the
    // read fails as the page goes): the answer is the refusal, never a browser that could not render.
    for (const when of ['load', 'settling', 'read']) {
      const left = await fetchOnce('auto', {
        url: web.url(`/app/cross-host?other=127.0.0.2&navigate=${when}`),
        render: 'always',
      });
      expect(left.code, `${when}: ${left.text}`).toBe('policy_denied');
      expect(left.text).toMatch(/another (host|origin)/);
    }
    expect(otherHostRequests()).toEqual([]);
    // A page that breaks the read without going anywhere is a render that failed, and says why.
    const unreadable = await fetchOnce('auto', {
      url: web.url('/app/cross-host?other=127.0.0.2&unreadable=1'),
      render: 'always',
    });
    expect(unreadable.code).toBe('backend_unavailable');
    expect(unreadable.text).toContain('this page cannot be read');
  }, 180_000);

  it('"origin-scoped": the same host on another port is never contacted (sub-resources, a frame, a beacon, fetch, a WebSocket, an event stream)', async () => {
    // --allowed-domains matches host names only; every request of the page goes through the render
    // proxy, which admits the page's own host and port alone.
    const seen: string[] = [];
    const other = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.end('x');
    });
    other.on('upgrade', (request, socket) => {
      seen.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const elsewhere = (path: string, scheme = 'http') =>
      `${scheme}://127.0.0.1:${(other.address() as AddressInfo).port}${path}`;
    const remove = web.scenario('/app/other-port', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><title>Other port</title><link rel="stylesheet" href="${elsewhere('/style.css')}"></head><body><div id="root">Loading...</div><img src="${elsewhere('/pixel.gif')}" alt=""><iframe src="${elsewhere('/frame')}"></iframe><script src="${elsewhere('/tracker.js')}"></script><script>
fetch(${JSON.stringify(elsewhere('/fetch'))}).catch(() => {});
navigator.sendBeacon(${JSON.stringify(elsewhere('/beacon'))}, 'x');
try { new WebSocket(${JSON.stringify(elsewhere('/socket', 'ws'))}); } catch {}
try { new EventSource(${JSON.stringify(elsewhere('/events'))}); } catch {}
setTimeout(() => { document.getElementById('root').textContent = ${JSON.stringify(`${RENDERED_MARKER}. `.repeat(20))}; }, 300);
</script></body></html>`,
    });
    try {
      const result = await fetchOnce('auto', { url: web.url('/app/other-port'), render: 'always' });
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toContain(RENDERED_MARKER);
      // Late requests (the socket, the event stream) would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen).toEqual([]);
    } finally {
      remove();
      other.close();
    }
  }, 120_000);

  it('"JSON, PDFs, feeds, plain text, and HTTP errors never launch a browser" under render auto', async () => {
    for (const path of [
      '/content/json',
      '/content/rss',
      '/content/atom',
      '/content/pdf',
      '/content/text',
      '/content/xml',
    ]) {
      const result = await fetchOnce('auto', { url: web.url(path), render: 'auto' });
      expect(result.isError).toBe(false);
      expect(result.text.split('\n')[0]).toContain('rendered: no');
    }
    const failed = await fetchOnce('auto', {
      url: web.url('/status/404?content-type=text/html&body=%3Cdiv%20id%3Droot%3E%3C/div%3E'),
    });
    expect(failed.code).toBe('http_status');
    const challenge = await fetchOnce('auto', { url: web.url('/app/challenge'), render: 'auto' });
    expect(challenge.code).toBe('http_status');
    // A server-rendered article is not a shell either.
    const article = await fetchOnce('auto', { url: web.url('/content/html'), render: 'auto' });
    expect(article.text.split('\n')[0]).toContain('rendered: no');
    expect(browserRequests()).toEqual([]);
  }, 120_000);

  it('"Fetch origin (HTTP and renderer admission) 2 / 500 ms" in host mode: renders of one origin start 500 ms apart, at most two at a time', async () => {
    const stateDirectory = await mkdtemp(join(root, 'state-'));
    const real = createAgentBrowserRenderer({ command: browser ?? 'agent-browser', temporaryRoot: root });
    const spans: { start: number; end: number }[] = [];
    const timed: DocumentRenderer = {
      async render(url, options) {
        const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
        spans.push(span);
        try {
          return await real.render(url, options);
        } finally {
          span.end = performance.now();
        }
      },
    };
    const instance = await runtime({ render: 'auto', renderer: timed, host: stateDirectory });
    const run = instance.startRun();
    try {
      const results = await Promise.all(
        [1, 2, 3].map((index) =>
          run.webFetch({ url: web.url(`/app/landing?copy=${index}`), render: 'always' }),
        ),
      );
      expect(results.map((result) => result.isError)).toEqual([false, false, false]);
    } finally {
      await run.close();
      await instance.close();
    }
    const starts = spans.map((span) => span.start).sort((a, b) => a - b);
    for (let index = 1; index < starts.length; index += 1) {
      expect((starts[index] ?? 0) - (starts[index - 1] ?? 0)).toBeGreaterThanOrEqual(490);
    }
    for (const span of spans) {
      expect(
        spans.filter((other) => other.start <= span.start && other.end > span.start).length,
      ).toBeLessThanOrEqual(2);
    }
  }, 180_000);

  it('the built binary takes --render and says in the status line that the page was rendered and why', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const env = {
      HOME: home,
      TMPDIR: root,
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
    };
    const rendered = await cli(['fetch', web.url('/app/client-rendered'), '--render', 'always'], env);
    expect(rendered.code).toBe(EXIT_CODES.success);
    expect(rendered.stdout).toMatch(/^WebFetch status: ok \| kind: html .*\| rendered: yes \(requested\)/);
    expect(rendered.stdout).toContain(RENDERED_MARKER);
    const bad = await cli(['fetch', web.url('/app/client-rendered'), '--render', 'sometimes'], env);
    expect(bad.code).toBe(EXIT_CODES.invalidInput);
    expect(bad.stdout).toMatch(/render: must be one of "never", "auto" or "always"/);
    await rm(home, { recursive: true, force: true });
  }, 120_000);

  it('MCP over stdio (the built binary, the SDK client) takes the same render argument', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const client = new Client({ name: 'render-contract-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          TMPDIR: root,
          MONO_AGENT_NETWORK_MODE: 'localhost',
          MONO_AGENT_WEB_FETCH_RENDER: 'auto',
          MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
        },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const fetchTool = tools.find((tool) => tool.name === 'WebFetch');
      expect(fetchTool?.inputSchema).toMatchObject({
        properties: { render: { enum: ['never', 'auto', 'always'] } },
      });
      const result = await client.callTool({
        name: 'WebFetch',
        arguments: { url: web.url('/app/client-rendered'), render: 'always' },
      });
      const text = (result.content as { text: string }[]).map((block) => block.text).join('\n');
      expect(result.isError).toBeFalsy();
      expect(text).toMatch(/^WebFetch status: ok \| kind: html .*\| rendered: yes \(requested\)/);
      expect(text).toContain(RENDERED_MARKER);
    } finally {
      await client.close();
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});
