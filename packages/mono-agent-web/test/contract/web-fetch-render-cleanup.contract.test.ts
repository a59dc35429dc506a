// Contract: "Renders leave nothing behind. A render that times out or is cancelled closes every
// connection it opened, the render proxy's upstream sockets included." A page that never answers is a
// loopback server that accepts and never responds; every phase of a render (launch, navigation, load,
// settling, reading) is stopped in turn, through createWebRuntime, the built bin and the MCP server
// over stdio, with Debian's Chromium and the pinned agent-browser.

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createAgentBrowserRenderer, DEBIAN_CHROMIUM } from '@mono-agent/extract';
import { agentBrowserPath } from '@mono-agent/fixture-web';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';
import { BUILT_CLI, runBuiltCli } from './support/built-cli.js';

const browser = agentBrowserPath();
const available = browser !== undefined && existsSync(DEBIAN_CHROMIUM);

/** A short render budget for the in-process timeouts (the real one is 20 s), still room for a cold launch. */
const SHORT_BUDGET_MS = 12_000;

/**
 * The loopback site the renders read. `/never` and `/never/*` accept and never answer; `/load-hangs`
 * is a page whose image never arrives (so its load event never fires); `/restless` changes its DOM
 * forever; `/blocks` goes quiet and then blocks its main thread. Every connection is counted, so a
 * test sees whether one stays open after the render ended.
 */
interface HangingSite {
  url(path: string): string;
  /** Connections open now. */
  open(): number;
  /** Requests seen, by path. */
  paths: string[];
  close(): Promise<void>;
}

async function startHangingSite(): Promise<HangingSite> {
  const sockets = new Set<Socket>();
  const paths: string[] = [];
  const page = (body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    paths.push(path);
    if (path.startsWith('/never')) return;
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page(body));
    };
    if (path === '/load-hangs') return html('<p>waiting for a picture</p><img src="/never/picture.png">');
    if (path === '/restless')
      return html(
        `<p id="n">0</p><script>fetch('/tick').catch(()=>{});let n=0;setInterval(()=>{document.getElementById('n').textContent=String(++n)},50)</script>`,
      );
    if (path === '/blocks')
      return html(
        `<p>about to block</p><script>fetch('/tick').catch(()=>{});setTimeout(()=>{for(;;){}},1500)</script>`,
      );
    response.writeHead(204).end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    open: () => sockets.size,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

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

/** `pid` and every live descendant of it. */
async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone.
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) {
    for (const [child, parent] of parents) if (parent === tree[index]) tree.push(child);
  }
  return tree;
}

/** Open descriptors of a process and its descendants: all of them, and the sockets among them. */
async function descriptors(pid: number): Promise<{ all: number; sockets: number; processes: number }> {
  let all = 0;
  let sockets = 0;
  const tree = await processTree(pid);
  for (const member of tree) {
    let entries: string[];
    try {
      entries = await readdir(`/proc/${member}/fd`);
    } catch {
      continue;
    }
    for (const entry of entries) {
      all += 1;
      const target = await readlink(`/proc/${member}/fd/${entry}`).catch(() => '');
      if (target.startsWith('socket:')) sockets += 1;
    }
  }
  return { all, sockets, processes: tree.length };
}

/** Resolves once `condition` holds (checked every 20 ms), or rejects after `limitMs`. */
async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'the awaited state',
  limitMs = 30_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`${what} never came`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let site: HangingSite;
let root: string;

beforeAll(async () => {
  site = await startHangingSite();
});
afterAll(() => site.close());
beforeEach(async () => {
  site.paths.length = 0;
  root = await mkdtemp(join(tmpdir(), 'render-cleanup-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** After a render ended: no connection to the site, no browser process and no temporary folder left. */
async function expectNothingLeft(): Promise<void> {
  expect(site.open()).toBe(0);
  expect(await processesUnder(root)).toEqual([]);
  expect((await readdir(root)).filter((name) => name.startsWith('mar-'))).toEqual([]);
}

describe.skipIf(!available)('renders leave nothing behind', () => {
  it('"A render that times out ... closes every connection it opened, the render proxy\'s upstream sockets included": a timeout at navigation, load, settling and reading', async () => {
    const config = resolveWebConfig({
      env: {
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_FETCH_RENDER: 'auto',
        MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
      },
    });
    const instance = await createWebRuntime({
      config,
      renderer: createAgentBrowserRenderer({
        command: browser ?? 'agent-browser',
        temporaryRoot: root,
        budgetMs: SHORT_BUDGET_MS,
      }),
    });
    try {
      for (const path of ['/never', '/load-hangs', '/restless', '/blocks']) {
        const run = instance.startRun();
        const result = await run.webFetch({ url: site.url(path), render: 'always' });
        await run.close();
        if (path === '/restless' || path === '/blocks') {
          // These pages answer in time when the browser starts quickly: the settle wait gives up after
          // DOM_SETTLE_MAX_MS on a page that never stops changing, and `/blocks` may be read before its
          // script blocks. A launch that eats the budget makes either a timeout. Whichever way the
          // render ends, it must leave nothing behind.
          expect(['answered', 'timeout']).toContain(result.isError ? result.code : 'answered');
        } else expect([path, result.isError, result.code]).toEqual([path, true, 'timeout']);
        await expectNothingLeft();
      }
      // The browser did reach a page that never answers, so a proxy request was waiting upstream when
      // the render was stopped (on a loaded machine a launch may take a whole budget, so not every one).
      expect(site.paths.some((path) => path.startsWith('/never'))).toBe(true);
    } finally {
      await instance.close();
    }
  }, 180_000);

  it('"... or is cancelled": a cancel during launch, navigation, load and settling closes everything too', async () => {
    const config = resolveWebConfig({
      env: {
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_FETCH_RENDER: 'auto',
        MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
      },
    });
    const instance = await createWebRuntime({
      config,
      renderer: createAgentBrowserRenderer({ command: browser ?? 'agent-browser', temporaryRoot: root }),
    });
    const folders = async () => (await readdir(root)).filter((name) => name.startsWith('mar-')).length;
    const phases: { name: string; path: string; reached: () => Promise<boolean> }[] = [
      // Launch: the render's folder exists, the browser has not asked for the page yet.
      { name: 'launch', path: '/never?launch', reached: async () => (await folders()) > 0 },
      { name: 'navigation', path: '/never?navigation', reached: async () => site.open() > 0 },
      {
        name: 'load',
        path: '/load-hangs',
        reached: async () => site.paths.includes('/never/picture.png'),
      },
      { name: 'settling', path: '/restless', reached: async () => site.paths.includes('/tick') },
    ];
    try {
      for (const phase of phases) {
        site.paths.length = 0;
        const run = instance.startRun();
        const controller = new AbortController();
        const call = run.webFetch(
          { url: site.url(phase.path), render: 'always' },
          { signal: controller.signal },
        );
        await until(phase.reached, `the ${phase.name} phase`);
        controller.abort();
        const result = await call;
        await run.close();
        expect([phase.name, result.isError, result.code]).toEqual([phase.name, true, 'cancelled']);
        await expectNothingLeft();
      }
    } finally {
      await instance.close();
    }
  }, 180_000);

  it('"The CLI exits right after its answer": `fetch URL --render always` of a page that never answers prints its timeout and exits', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', site.url('/never'), '--render', 'always'], {
      home,
      env: {
        TMPDIR: root,
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_FETCH_RENDER: 'auto',
        MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
      },
      // The answer comes at the 20 s render budget; a process still alive long after it hangs.
      timeoutMs: 45_000,
    });
    expect(run.stdout).toMatch(/^WebFetch status: error \| error: timeout/);
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(site.paths).toContain('/never');
    await expectNothingLeft();
  }, 90_000);

  it('"a long-lived MCP server shows no growth in sockets or descriptors after many timeouts" (cancels and a timeout, counted in /proc/<pid>/fd of the server and its children)', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        TMPDIR: root,
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_FETCH_RENDER: 'auto',
        MONO_AGENT_WEB_BROWSER_COMMAND: browser ?? 'agent-browser',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'render-cleanup-contract', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid as number;
    const call = async (path: string, cancelWhen?: () => boolean) => {
      const controller = new AbortController();
      const pending = client
        .callTool({ name: 'WebFetch', arguments: { url: site.url(path), render: 'always' } }, undefined, {
          signal: controller.signal,
          timeout: 60_000,
        })
        .then(
          (result) => (result.content as { text: string }[]).map((block) => block.text).join('\n'),
          (error: unknown) => `client: ${(error as Error).message}`,
        );
      if (cancelWhen !== undefined) {
        await until(cancelWhen);
        controller.abort();
      }
      const text = await pending;
      // The server ends the render after it was told of the cancel: wait until it has.
      await until(async () => site.open() === 0 && (await processesUnder(root)).length === 0);
      return text;
    };
    try {
      // The first render loads the fetch stack; what it leaves open is the server's steady state.
      expect(await call('/never?warm', () => site.open() > 0)).toContain('client:');
      await until(async () => (await folders(root)) === 0);
      const baseline = await descriptors(pid);
      const counts: { all: number; sockets: number; processes: number }[] = [];
      for (let index = 0; index < 8; index += 1) {
        const path = index % 2 === 0 ? `/never?n=${index}` : '/load-hangs';
        const reached =
          index % 2 === 0 ? () => site.open() > 0 : () => site.paths.includes('/never/picture.png');
        site.paths.length = 0;
        await call(path, reached);
        await until(async () => (await folders(root)) === 0);
        counts.push(await descriptors(pid));
      }
      // And one render that runs out of its own time inside the server.
      expect(await call('/never?timeout')).toMatch(/^WebFetch status: error \| error: timeout/);
      await until(async () => (await folders(root)) === 0);
      counts.push(await descriptors(pid));
      for (const count of counts) {
        expect(count.sockets).toBeLessThanOrEqual(baseline.sockets);
        expect(count.all).toBeLessThanOrEqual(baseline.all);
        expect(count.processes).toBe(baseline.processes);
      }
      await expectNothingLeft();
    } finally {
      await client.close();
    }
  }, 240_000);
});

async function folders(directory: string): Promise<number> {
  return (await readdir(directory)).filter((name) => name.startsWith('mar-')).length;
}
