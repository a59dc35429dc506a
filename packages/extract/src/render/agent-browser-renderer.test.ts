import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentBrowserPath } from '../__fixtures__/agent-browser-path.js';
import { fetchDocument } from '../fetch-document.js';
import { createAgentBrowserRenderer, DEBIAN_CHROMIUM } from './agent-browser-renderer.js';

const command = agentBrowserPath();
const available = command !== undefined && existsSync(DEBIAN_CHROMIUM);
const policy = { mode: 'localhost' } as const;

/** PIDs of live processes whose TMPDIR lies under `root`: every process a render starts inherits it. */
async function processesUnder(root: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const environment = await readFile(`/proc/${entry}/environ`, 'latin1');
      if (environment.split('\0').some((variable) => variable.startsWith(`TMPDIR=${root}/`)))
        found.push(Number(entry));
    } catch {
      // Gone, or not readable.
    }
  }
  return found;
}

describe.skipIf(!available)('agent-browser renderer on Debian Chromium', () => {
  let web: FixtureWeb;
  let root: string;
  const otherHostRequests = () => web.requests.filter((request) => request.hostname !== '127.0.0.1');

  beforeAll(async () => {
    web = await startFixtureWeb();
  });
  afterAll(() => web.close());
  beforeEach(async () => {
    web.reset();
    root = await mkdtemp(join(tmpdir(), 'render-test-'));
  });
  afterEach(async () => {
    // Nothing of the render survives it: no process, no temporary folder.
    expect(await processesUnder(root)).toEqual([]);
    expect(await readdir(root)).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  const renderer = (
    options: {
      budgetMs?: number;
      lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
    } = {},
  ) => createAgentBrowserRenderer({ command: command as string, temporaryRoot: root, ...options });

  it('renders a client-rendered page that a static fetch sees as a loading shell', async () => {
    const url = web.url('/app/client-rendered');
    const plain = await fetchDocument(url, { policy });
    expect(plain.ok && plain.document.sparseShell?.sparse).toBe(true);
    expect(plain.ok && plain.document.content).toBe('Loading...');
    const result = await fetchDocument(url, { policy, render: 'auto', renderer: renderer() });
    if (!result.ok) throw result.error;
    expect(result.rendered).toBe(true);
    expect(result.renderReason).toBe('sparse_shell');
    expect(result.document.content).toContain('hello from the API, value 42');
    expect(result.document.title).toBe('App');
    expect(result.renderMs).toBeLessThan(20_000);
  }, 60_000);

  it('renders browser-first for always: the page is requested only by the browser', async () => {
    const result = await fetchDocument(web.url('/app/client-rendered'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    if (!result.ok) throw result.error;
    expect(result.renderReason).toBe('requested');
    const pageRequests = web.requestsTo('/app/client-rendered');
    expect(pageRequests).toHaveLength(1);
    expect(pageRequests[0]?.headers['user-agent']).toMatch(/HeadlessChrome|Chrome/);
  }, 60_000);

  it('stops a page that never answers at the budget and kills the whole session', async () => {
    const budgetMs = 4_000;
    const started = performance.now();
    const result = await fetchDocument(web.url('/delay/60000'), {
      policy,
      render: 'always',
      renderer: renderer({ budgetMs }),
    });
    const elapsed = performance.now() - started;
    expect(result.ok ? 'ok' : result.error.code).toBe('timeout');
    expect(elapsed).toBeLessThan(budgetMs + 1_000 + 1_500);
  }, 60_000);

  it('cancels a render and cleans up', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_500);
    const result = await fetchDocument(web.url('/delay/60000'), {
      policy,
      render: 'always',
      renderer: renderer(),
      signal: controller.signal,
    });
    expect(result.ok ? 'ok' : result.error.code).toBe('cancelled');
  }, 60_000);

  it('never contacts another host through a redirect', async () => {
    const result = await fetchDocument(web.url('/redirect/1?host=127.0.0.2&to=/app/landing'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    expect(result.ok ? 'ok' : result.error.code).toBe('policy_denied');
    expect(otherHostRequests()).toEqual([]);
  }, 60_000);

  it('never contacts another host through sub-resources, and reads the page', async () => {
    const result = await fetchDocument(web.url('/app/cross-host?other=127.0.0.2'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    if (!result.ok) throw result.error;
    expect(result.document.content).toContain('hello from the API, value 42');
    expect(web.requests.filter((request) => request.hostname === '127.0.0.1').length).toBeGreaterThanOrEqual(
      2,
    );
    expect(otherHostRequests()).toEqual([]);
  }, 60_000);

  it('never contacts another host through navigation, by IP or by name', async () => {
    for (const other of ['127.0.0.2', 'localhost']) {
      const result = await fetchDocument(web.url(`/app/cross-host?other=${other}&navigate=1`), {
        policy,
        render: 'always',
        renderer: renderer(),
      });
      expect(result.ok ? 'ok' : result.error.code).toBe('policy_denied');
    }
    expect(otherHostRequests()).toEqual([]);
  }, 90_000);

  it('refuses a page that leaves for another host whichever step its navigation lands in', async () => {
    // At its load event, inside the settle wait (its DOM still changing), and inside the read (the
    // read fails as the page goes): each is a refusal of the page's navigation, not a failed render.
    for (const when of ['load', 'settling', 'read']) {
      const result = await fetchDocument(web.url(`/app/cross-host?other=127.0.0.2&navigate=${when}`), {
        policy,
        render: 'always',
        renderer: renderer(),
      });
      expect(result.ok ? 'ok' : `${result.error.code} ${result.error.details.rule}`, when).toBe(
        'policy_denied render-origin',
      );
    }
    expect(otherHostRequests()).toEqual([]);
  }, 120_000);

  it('says the browser could not read a page that breaks the read without going anywhere', async () => {
    const result = await fetchDocument(web.url('/app/cross-host?other=127.0.0.2&unreadable=1'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    if (result.ok) throw new Error('a page that cannot be read was answered');
    expect(result.error.code).toBe('backend_unavailable');
    expect(result.error.message).toContain('this page cannot be read');
  }, 60_000);

  it('reports sign-in pages and challenges instead of reading them', async () => {
    const login = await fetchDocument(web.url('/app/login'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    expect(login.ok ? 'ok' : login.error.code).toBe('authentication_required');
    const challenge = await fetchDocument(web.url('/app/challenge'), {
      policy,
      render: 'always',
      renderer: renderer(),
    });
    expect(challenge.ok ? 'ok' : challenge.error.code).toBe('access_challenge');
  }, 60_000);

  it('pins the browser to the address the policy approved', async () => {
    const lookups: string[] = [];
    const pinned = renderer({
      lookup: async (host) => {
        lookups.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    // No resolver knows wf.test; the browser reaches the fixture only through the pinned address.
    const result = await pinned.render(`http://wf.test:${web.port}/app/client-rendered`, {
      policy: { mode: 'allowlist', allow: ['wf.test'] },
    });
    expect(result.html).toContain('hello from the API, value 42');
    expect(lookups).toEqual(['wf.test']);
    expect(web.requestsTo('/app/client-rendered')[0]?.hostname).toBe('wf.test');
  }, 60_000);

  it('refuses a name that resolves to an address the policy denies, before starting a browser', async () => {
    const rebinding = renderer({ lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
    const started = performance.now();
    await expect(
      rebinding.render(`http://rebind.test:${web.port}/app/client-rendered`, { policy: { mode: 'all' } }),
    ).rejects.toMatchObject({ code: 'policy_denied' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(web.requests).toEqual([]);
  });
});

describe('agent-browser renderer without a usable browser command', () => {
  it('fails with configuration_error, before any browser starts, for a missing program or another program', async () => {
    for (const command of ['/nonexistent/agent-browser', '/bin/echo']) {
      const renderer = createAgentBrowserRenderer({ command });
      await expect(
        renderer.render('http://127.0.0.1:9/app', { policy: { mode: 'localhost' } }),
      ).rejects.toMatchObject({ code: 'configuration_error' });
    }
  });
});
