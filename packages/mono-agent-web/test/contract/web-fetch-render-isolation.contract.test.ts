// Contract: what works but nothing proved. "Host coordination ... creates no durable search history,
// cookie jar, or browser profile" (no cookie replayed across a redirect); "One 45-second deadline
// covers admission, redirects, retry waits and rendering"; "Each render uses ... a random
// agent-browser namespace and session, an empty locked config file, origin-scoped --allowed-domains
// ... and no profile, restore state, remote CDP attachment, auto-connect, or state autosave"; "The
// executable is invoked directly—browserCommand is not evaluated by a shell."

import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgentBrowserRenderer,
  DEBIAN_CHROMIUM,
  type DocumentRenderer,
  RENDER_BUDGET_MS,
} from '@mono-agent/extract';
import { agentBrowserPath, type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { createWebRuntime, FETCH_DEADLINE_MS } from '../../src/runtime/web-runtime.js';
import { runBuiltCli } from './support/built-cli.js';

const browser = agentBrowserPath();
const available = browser !== undefined && existsSync(DEBIAN_CHROMIUM);
const RENDERED_MARKER = 'hello from the API, value 42';

let web: FixtureWeb;
let root: string;

beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  web.reset();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = await mkdtemp(join(tmpdir(), 'render-isolation-'));
});

describe('"no ... cookie jar": no cookie is replayed across a redirect', () => {
  it('a cookie set on a redirect is not sent to its target, nor on the next fetch of the run', async () => {
    const cookies: (string | undefined)[] = [];
    web.scenario('/cookie/set', (_request, response) => {
      response.writeHead(302, {
        location: '/cookie/check',
        'set-cookie': 'session=secret-value; Path=/',
      });
      response.end();
    });
    web.scenario('/cookie/check', (request, response) => {
      cookies.push(request.headers.cookie);
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('landed');
    });
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', web.url('/cookie/set')], {
      home,
      env: { MONO_AGENT_NETWORK_MODE: 'localhost' },
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(run.stdout).toContain('landed');
    const runtime = await createWebRuntime({
      config: resolveWebConfig({ env: { MONO_AGENT_NETWORK_MODE: 'localhost' } }),
    });
    const session = runtime.startRun();
    try {
      await session.webFetch({ url: web.url('/cookie/set') });
      await session.webFetch({ url: web.url('/cookie/check') });
    } finally {
      await session.close();
      await runtime.close();
    }
    expect(cookies).toEqual([undefined, undefined, undefined]);
  });
});

describe.skipIf(!available)('renders inside the isolation the contract names', () => {
  it(`"One 45-second deadline covers ... rendering": a render gets only what is left of ${FETCH_DEADLINE_MS / 1000} s (its own ${RENDER_BUDGET_MS / 1000} s budget is cut to that)`, async () => {
    const real = createAgentBrowserRenderer({ command: browser ?? 'agent-browser', temporaryRoot: root });
    const seen: { deadlineMs: number | undefined; elapsedMs: number }[] = [];
    let started = 0;
    const recording: DocumentRenderer = {
      render(url, options) {
        seen.push({ deadlineMs: options.deadlineMs, elapsedMs: performance.now() - started });
        return real.render(url, options);
      },
    };
    const runtime = await createWebRuntime({
      config: resolveWebConfig({
        env: { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_WEB_FETCH_RENDER: 'auto' },
      }),
      renderer: recording,
    });
    const run = runtime.startRun();
    try {
      started = performance.now();
      // Static first (a sparse shell), then the browser: the render inherits the call's deadline.
      const result = await run.webFetch({ url: web.url('/app/client-rendered') });
      expect(result.text).toContain(RENDERED_MARKER);
    } finally {
      await run.close();
      await runtime.close();
    }
    expect(seen).toHaveLength(1);
    const [call] = seen as [{ deadlineMs: number; elapsedMs: number }];
    expect(call.deadlineMs).toBeGreaterThan(0);
    // What the static attempt used is no longer the render's (the slack covers the moments between
    // this test's clock start and the call's own).
    expect(call.deadlineMs).toBeLessThan(FETCH_DEADLINE_MS);
    expect(call.deadlineMs + call.elapsedMs).toBeLessThanOrEqual(FETCH_DEADLINE_MS + 250);
  }, 120_000);

  it('"a random agent-browser namespace and session, an empty locked config file, origin-scoped --allowed-domains ... no profile, restore state, remote CDP attachment, auto-connect, or state autosave"; an allow-listed environment; a browserCommand path with spaces, run without a shell', async () => {
    // A launcher in a folder whose name has spaces: through a shell the path would split at them.
    const folder = join(root, 'browsers with  spaces');
    await mkdir(folder);
    const log = join(root, 'invocations.jsonl');
    const launcher = join(folder, 'agent browser');
    await writeFile(
      launcher,
      `#!/usr/bin/env node
const { appendFileSync, readFileSync, statSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const argv = process.argv.slice(2);
const at = argv.indexOf('--config');
const config = at < 0 ? undefined : { text: readFileSync(argv[at + 1], 'utf8'), mode: statSync(argv[at + 1]).mode & 0o777 };
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv, env: process.env, config }) + '\\n');
const child = spawnSync(${JSON.stringify(browser)}, argv, { stdio: 'inherit', env: process.env });
process.exit(child.status === null ? 1 : child.status);
`,
    );
    await chmod(launcher, 0o755);
    const hostile = {
      AGENT_BROWSER_PROFILE: join(root, 'profile'),
      AGENT_BROWSER_STATE: join(root, 'state.json'),
      AGENT_BROWSER_RESTORE: '1',
      AGENT_BROWSER_CDP: '9222',
      AGENT_BROWSER_AUTO_CONNECT: '1',
      AGENT_BROWSER_SESSION: 'shared',
      AGENT_BROWSER_CONFIG: join(root, 'user-config.json'),
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      SECRET_TOKEN: 'do-not-pass',
    };
    for (const copy of [1, 2]) {
      const home = await mkdtemp(join(root, 'home-'));
      const run = await runBuiltCli(
        ['fetch', web.url(`/app/client-rendered?copy=${copy}`), '--render', 'always'],
        {
          home,
          env: {
            ...hostile,
            TMPDIR: root,
            MONO_AGENT_NETWORK_MODE: 'localhost',
            MONO_AGENT_WEB_FETCH_RENDER: 'auto',
            MONO_AGENT_WEB_BROWSER_COMMAND: launcher,
          },
        },
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(EXIT_CODES.success);
      expect(run.stdout).toContain(RENDERED_MARKER);
    }
    const calls = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            argv: string[];
            env: Record<string, string>;
            config?: { text: string; mode: number };
          },
      );
    const steps = calls.filter((call) => call.argv[0] !== '--version');
    const option = (argv: string[], name: string) => argv[argv.indexOf(name) + 1];
    const renders = new Map<string, typeof steps>();
    for (const step of steps) {
      const key = `${option(step.argv, '--namespace')}/${option(step.argv, '--session')}`;
      renders.set(key, [...(renders.get(key) ?? []), step]);
    }
    // Two renders, each with its own random namespace and session, repeated on every step.
    expect(renders.size).toBe(2);
    for (const key of renders.keys()) expect(key).toMatch(/^w[0-9a-f]{8}\/s[0-9a-f]{8}$/);
    const allowed = new Set([
      'PATH',
      'HOME',
      'TMPDIR',
      'AGENT_BROWSER_NO_VERSION_CHECK',
      'AGENT_BROWSER_AUTOSAVE_INTERVAL_MS',
      'AGENT_BROWSER_EXECUTABLE_PATH',
    ]);
    for (const step of steps) {
      const { argv, env } = step;
      // An empty config file, read-only, private to the render.
      expect(step.config).toEqual({ text: '{}\n', mode: 0o400 });
      expect(option(argv, '--config')?.startsWith(env.HOME as string)).toBe(true);
      expect(option(argv, '--allowed-domains')).toBe('127.0.0.1');
      expect(option(argv, '--restore-save')).toBe('never');
      expect(env.AGENT_BROWSER_AUTOSAVE_INTERVAL_MS).toBe('0');
      for (const flag of [
        '--profile',
        '--state',
        '--restore',
        '--cdp',
        '--auto-connect',
        '--provider',
        '--extension',
      ]) {
        expect(argv).not.toContain(flag);
      }
      // The environment is an allow-list: nothing of the caller's browser, proxy or secrets.
      for (const name of Object.keys(env)) expect(allowed.has(name), name).toBe(true);
      expect(env.HOME).toBe(env.TMPDIR);
      expect(env.HOME?.startsWith(`${root}/mar-`)).toBe(true);
    }
  }, 180_000);
});
