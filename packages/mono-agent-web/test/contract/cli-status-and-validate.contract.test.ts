// Readable `web-control` output and a truthful `validate`, through the built bin.
//
// "`web-control status` prints a human summary by default (mode, scopes by kind, active requests,
// cooldowns with cause and local time and time left) and JSON with `--json`; `web-control reset`
// likewise." and "Never `[ok]` for something it did not check: a skipped probe, or a backend that auto
// checks only when a search reaches it (Codex, the keyless engines, as the contract says), is a note
// that says so, not `[ok]`. Under network `none` or `localhost` it says which backends the policy
// blocks, so a configuration where every search would fail never validates as all ok. Local facts are
// checked without the network: the Codex CLI missing from the PATH, the browser command missing or
// not agent-browser when rendering is enabled."
//
// Contract (Sandbox and validation): "Strict codex mode also verifies ChatGPT login, web-search
// capability, and model availability; auto checks that fallback lazily only if a search reaches it."
// (Host state and recovery): "Status reports only operational metadata."
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { spawnRecorder } from './web-search-support.js';

interface Check {
  name: string;
  status: string;
  detail: string;
}
interface Scope {
  key: string;
  kind: string;
  coolingDown: boolean;
  cooldownUntil?: number;
  cooldownCause?: string;
}

let web: FixtureWeb;
let home: string;
/** A folder holding nothing but what a test puts on the PATH (and `sh`, which the scripts need). */
let bareBin: string;

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'cli-status-validate-'));
  bareBin = join(home, 'bin');
  mkdirSync(bareBin);
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const program = (name: string, output: string) => {
  const path = join(bareBin, name);
  writeFileSync(path, `#!/bin/sh\necho '${output}'\n`);
  chmodSync(path, 0o755);
  return path;
};

// The local time the summary should show, computed apart from the code under test: Asia/Kolkata is
// UTC+05:30 all year.
const KOLKATA_OFFSET_MS = (5 * 60 + 30) * 60_000;
const kolkata = (epochMs: number) =>
  `${new Date(epochMs + KOLKATA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')} UTC+05:30`;

describe('web-control status and reset print a summary a person reads, JSON with --json', () => {
  const env = {
    MONO_AGENT_NETWORK_MODE: 'localhost',
    MONO_AGENT_WEB_COORDINATION: 'host',
    TZ: 'Asia/Kolkata',
  };
  const cli = (args: string[]) => runBuiltCli(args, { home, env });

  it('shows the mode, scopes by kind, active requests, and each cooldown with its cause, local end and time left', async () => {
    // Two fetch origins cool down: one throttled (429), one after two infrastructure failures (503s).
    expect((await cli(['fetch', web.url('/sequence/s1?steps=429,200'), '--json'])).code).toBe(
      EXIT_CODES.backendFailure,
    );
    expect(
      (await cli(['fetch', web.url('/sequence/s2?steps=503,503,200', { host: '127.0.0.2' }), '--json'])).code,
    ).toBe(EXIT_CODES.backendFailure);

    const json = jsonOf<{ bucketCount: number; scopes: Scope[]; generatedAt: number }>(
      await cli(['web-control', 'status', '--json']),
    );
    const cooling = json.scopes.filter((scope) => scope.coolingDown);
    expect(cooling.map((scope) => scope.cooldownCause).sort()).toEqual([
      'infrastructure_failure',
      'throttled',
    ]);

    const text = await cli(['web-control', 'status']);
    expect(text.code, text.stderr).toBe(EXIT_CODES.success);
    expect(() => JSON.parse(text.stdout)).toThrow();
    const out = text.stdout;
    expect(out).toContain(
      `Coordination: host mode, shared through ${join(home, '.mono-agent', 'web-control', 'state.json')}`,
    );
    expect(out).toMatch(
      new RegExp(`^Scopes: ${json.bucketCount} of 512 \\(${json.bucketCount} fetch\\)`, 'm'),
    );
    expect(out).toMatch(/^Active requests: 0$/m);
    expect(out).toMatch(/^Cooldowns: 2$/m);
    const causes = {
      throttled: 'the backend throttled requests',
      infrastructure_failure: 'repeated infrastructure failures (2 failures in a row)',
    } as Record<string, string>;
    for (const scope of cooling) {
      const line = out.split('\n').find((entry) => entry.includes(scope.key.slice(0, 12)));
      expect(line, out).toBeDefined();
      expect(line).toContain(`fetch scope ${scope.key.slice(0, 12)}: ${causes[scope.cooldownCause!]}`);
      // The end in the process's local time zone, with its offset.
      expect(line).toContain(`until ${kolkata(scope.cooldownUntil!)}`);
      // Time left, counted from the report's own time: fetch cooldowns last a minute.
      const left = /, (?:(\d+) min ?)?(?:(\d+) s)? left$/.exec(line!);
      expect(left, line).not.toBeNull();
      const seconds = Number(left![1] ?? 0) * 60 + Number(left![2] ?? 0);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
    }
    // Operational metadata only: no origin, port or path of the fetched pages.
    for (const leaked of [String(web.port), '/sequence/', '127.0.0.2']) expect(out).not.toContain(leaked);
  });

  it('says what reset cleared, and status then shows nothing cooling', async () => {
    const before = jsonOf<{ bucketCount: number }>(await cli(['web-control', 'status', '--json']));
    expect(before.bucketCount).toBeGreaterThan(0);
    const reset = await cli(['web-control', 'reset']);
    expect(reset.code, reset.stderr).toBe(EXIT_CODES.success);
    expect(reset.stdout).toContain(
      `Reset: cleared ${before.bucketCount} scope${before.bucketCount === 1 ? '' : 's'}, with their cooldowns and counters.`,
    );
    const again = await cli(['web-control', 'reset']);
    expect(again.stdout).toContain('Reset: there was no state to clear.');
    expect(jsonOf(await cli(['web-control', 'reset', '--json']))).toMatchObject({
      reset: true,
      clearedBuckets: 0,
    });
    const after = await cli(['web-control', 'status']);
    expect(after.stdout).toMatch(/^Scopes: 0 of 512[;\n]/m);
    expect(after.stdout).toMatch(/^Cooldowns: none$/m);
  });

  it('says in process mode that nothing is shared', async () => {
    const status = await runBuiltCli(['web-control', 'status'], { home, env: {} });
    expect(status.code).toBe(EXIT_CODES.success);
    expect(status.stdout).toMatch(/^Coordination: process mode: .*nothing is shared/m);
  });
});

describe('validate says what it checked, and notes what it did not', () => {
  const validate = async (env: Record<string, string>, args: string[] = []) => {
    const text = await runBuiltCli(['validate', ...args], { home, env });
    const json = await runBuiltCli(['validate', '--json', ...args], { home, env });
    const report = jsonOf<{ ok: boolean; checks: Check[] }>(json);
    const line = (name: string) => text.stdout.split('\n').find((entry) => entry.includes(`] ${name}: `));
    return {
      text,
      json,
      report,
      line,
      check: (name: string) => report.checks.find((entry) => entry.name === name),
    };
  };
  const withCodex = () => {
    const codex = spawnRecorder();
    return { PATH: `${join(codex.command, '..')}:${process.env.PATH ?? ''}`, started: codex.spawned };
  };

  it('auto mode: Codex and the keyless engines are notes saying they are checked when a search reaches them', async () => {
    const codex = withCodex();
    const { text, line, report } = await validate({ MONO_AGENT_NETWORK_MODE: 'all', PATH: codex.PATH });
    expect(text.code, text.stdout + text.stderr).toBe(EXIT_CODES.success);
    expect(line('search.codex')).toMatch(
      /^ {2}\[note\] search\.codex: the codex CLI is installed at .*only when a search reaches Codex$/,
    );
    expect(line('network.keyless')).toMatch(/^ {2}\[note\] network\.keyless: .*not probed/);
    // Validation never started Codex to find out.
    expect(codex.started()).toBe(false);
    const ok = report.checks.filter((check) => check.status === 'ok').map((check) => check.name);
    expect(ok).not.toContain('search.codex');
    expect(ok).not.toContain('network.keyless');
    expect(text.stdout).toMatch(
      /^No check failed: \d+ ok, 2 not checked or checked only when used, 0 warnings, 0 failed\.$/m,
    );
  });

  it('a skipped probe is a note, not ok', async () => {
    const { line, check, text } = await validate(
      { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl },
      ['--no-liveness'],
    );
    expect(check('liveness.searxng')).toMatchObject({ status: 'note' });
    expect(line('liveness.searxng')).toMatch(
      /^ {2}\[note\] liveness\.searxng: searxng is not probed \(liveness off\)/,
    );
    expect(text.stdout).not.toMatch(/\[ok\] liveness\./);
  });

  for (const mode of ['none', 'localhost']) {
    it(`under network ${mode} with nothing local, names every blocked backend and fails: every search would fail`, async () => {
      const codex = withCodex();
      const { text, json, report, check, line } = await validate(
        { MONO_AGENT_NETWORK_MODE: mode, PATH: codex.PATH },
        ['--no-liveness'],
      );
      expect(report.ok).toBe(false);
      expect(json.code).toBe(EXIT_CODES.invalidInput);
      expect(text.code).toBe(EXIT_CODES.invalidInput);
      expect(check('search.backends')).toMatchObject({ status: 'fail' });
      expect(line('search.backends')).toMatch(/^ {2}\[fail\] search\.backends: every search would fail/);
      for (const blocked of [
        'codex (the network policy refuses chatgpt.com)',
        'duckduckgo (the network policy blocks html.duckduckgo.com)',
        'startpage (the network policy blocks www.startpage.com)',
      ])
        expect(check('search.backends')?.detail).toContain(blocked);
      expect(text.stdout).toMatch(/^Validation failed: /m);
    });
  }

  it('mixed: a local SearXNG under localhost is probed and usable, and the blocked rest is named without failing', async () => {
    const remove = web.scenario('/search', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ results: [], unresponsive_engines: [] }),
    });
    try {
      const { text, check } = await validate({
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      });
      expect(text.code, text.stdout).toBe(EXIT_CODES.success);
      expect(check('liveness.searxng')).toMatchObject({ status: 'ok' });
      expect(check('search.backends')).toMatchObject({ status: 'note' });
      expect(check('search.backends')?.detail).toMatch(
        /^searches can reach searxng only; unusable: codex \(the network policy refuses chatgpt\.com\); duckduckgo/,
      );
      expect(check('network.keyless')).toMatchObject({ status: 'warn' });
    } finally {
      remove();
    }
  });

  it('finds a missing codex CLI without the network: strict codex fails, auto warns it will skip Codex', async () => {
    // A PATH with no codex on it (the bin itself runs under this test's node).
    const strict = await validate({ MONO_AGENT_WEB_SEARCH_BACKEND: 'codex', PATH: bareBin }, [
      '--no-liveness',
    ]);
    expect(strict.check('search.codex')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('the codex CLI (codex) is not on the PATH'),
    });
    expect(strict.check('search.backends')).toMatchObject({ status: 'fail' });
    expect(strict.json.code).toBe(EXIT_CODES.invalidInput);
    const auto = await validate({ PATH: bareBin }, ['--no-liveness']);
    expect(auto.check('search.codex')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('auto mode will skip Codex subscription search'),
    });
    expect(auto.check('search.backends')?.detail).toContain('codex (the codex CLI is not on the PATH)');
  });

  it('judges the browser command locally, with or without liveness: missing, or not agent-browser, fails', async () => {
    for (const args of [[], ['--no-liveness']]) {
      const missing = await validate(
        {
          MONO_AGENT_WEB_FETCH_RENDER: 'auto',
          MONO_AGENT_WEB_BROWSER_COMMAND: 'no-such-browser-here',
          PATH: bareBin,
        },
        args,
      );
      expect(missing.check('fetch.browser')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('no-such-browser-here is not on the PATH'),
      });
      expect(missing.report.ok).toBe(false);
      const bogus = await validate(
        {
          MONO_AGENT_WEB_FETCH_RENDER: 'auto',
          MONO_AGENT_WEB_BROWSER_COMMAND: program('python-ish', 'Python 3.11.2'),
        },
        args,
      );
      expect(bogus.check('fetch.browser')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('does not report agent-browser'),
      });
      expect(bogus.line('fetch.browser')).toMatch(/^ {2}\[fail\] fetch\.browser: /);
    }
  });
});
