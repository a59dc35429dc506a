import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { POLICIES_REFUSING_CHATGPT, spawnRecorder } from './web-search-support.js';

// Contract (Sandbox and validation): "When rendering is enabled, validation checks that
// browserCommand --version reports agent-browser 0.33.1 or newer. liveness: false skips external
// probes without changing structural validation." and "an allowlist must include the local endpoint,
// chatgpt.com for Codex search"; "localhost admits local SearXNG or Ollama but blocks public ...".

interface Report {
  ok: boolean;
  checks: { name: string; status: string; detail: string }[];
}

let home: string;
const program = (name: string, output: string) => {
  const path = join(home, name);
  writeFileSync(path, `#!/bin/sh\necho '${output}'\n`);
  chmodSync(path, 0o755);
  return path;
};
const validate = async (env: Record<string, string>, args: string[] = []) => {
  const run = await runBuiltCli(['validate', '--json', ...args], { home, env });
  const report = jsonOf<Report>(run);
  return { run, report, check: (name: string) => report.checks.find((check) => check.name === name) };
};

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'validate-web-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('validate: the renderer check', () => {
  it('accepts agent-browser 0.33.1 exactly and refuses 0.33.0', async () => {
    const good = await validate({
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: program('browser-good', 'agent-browser 0.33.1'),
    });
    expect(good.check('fetch.browser')).toMatchObject({ status: 'ok' });
    const old = await validate({
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: program('browser-old', 'agent-browser 0.33.0'),
    });
    expect(old.check('fetch.browser')).toMatchObject({ status: 'fail' });
  });

  it('refuses a program that prints a version number but is not agent-browser', async () => {
    const other = await validate({
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: program('not-a-browser', 'Python 3.11.2'),
    });
    expect(other.check('fetch.browser')).toMatchObject({ status: 'fail' });
    expect(other.report.ok).toBe(false);
    expect(other.run.code).not.toBe(EXIT_CODES.success);
  });

  it('judges the renderer locally with --no-liveness too, without changing the structural checks', async () => {
    // Running `browserCommand --version` is a local fact (no update check, no network), so liveness
    // off does not skip it: a program that is not agent-browser fails either way.
    const env = {
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: program('unused', 'Python 3.11.2'),
      MONO_AGENT_NETWORK_MODE: 'localhost',
    };
    const off = await validate(env, ['--no-liveness']);
    expect(off.check('fetch.browser')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('does not report agent-browser'),
    });
    expect(off.check('network.mode')).toMatchObject({ status: 'ok' });
    const on = await validate(env);
    expect(on.check('network.mode')).toEqual(off.check('network.mode'));
  });
});

describe('validate: destinations under the network policy', () => {
  it('a hosted Ollama origin is not reachable under mode localhost', async () => {
    const { check, run } = await validate(
      {
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_SEARCH_BACKEND: 'ollama',
        MONO_AGENT_WEB_SEARCH_OLLAMA_BASE_URL: 'https://ollama.com',
        MONO_AGENT_WEB_SEARCH_OLLAMA_API_KEY_ENV: 'OLLAMA_API_KEY',
      },
      ['--no-liveness'],
    );
    expect(check('network.ollama')).toMatchObject({ status: 'fail' });
    expect(run.code).toBe(EXIT_CODES.invalidInput);
  });

  it('an allowlist without chatgpt.com fails strict codex search and warns in auto mode', async () => {
    const strict = await validate(
      {
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: 'example.com',
        MONO_AGENT_WEB_SEARCH_BACKEND: 'codex',
      },
      ['--no-liveness'],
    );
    expect(strict.check('network.codex')).toMatchObject({ status: 'fail' });
    expect(strict.check('network.codex')?.detail).toContain('chatgpt.com');
    const auto = await validate(
      { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: 'example.com' },
      ['--no-liveness'],
    );
    expect(auto.check('network.codex')).toMatchObject({ status: 'warn' });
    const listed = await validate(
      {
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: 'example.com,chatgpt.com',
        MONO_AGENT_WEB_SEARCH_BACKEND: 'codex',
      },
      ['--no-liveness'],
    );
    expect(listed.check('network.codex')).toBeUndefined();
  });
});

describe('validate: the Codex readiness check obeys the network policy', () => {
  // Readiness starts codex app-server, which talks to chatgpt.com: a `codex` on PATH records a start.
  const recorder = () => {
    const codex = spawnRecorder();
    return { path: `${dirname(codex.command)}:${process.env.PATH ?? ''}`, started: codex.spawned };
  };
  for (const [name, network] of POLICIES_REFUSING_CHATGPT) {
    it(`starts no codex app-server under ${name}, and says why`, async () => {
      const codex = recorder();
      const { check, report } = await validate({
        ...network,
        MONO_AGENT_WEB_SEARCH_BACKEND: 'codex',
        PATH: codex.path,
      });
      expect(codex.started()).toBe(false);
      expect(check('liveness.codex')).toMatchObject({ status: 'fail' });
      expect(check('liveness.codex')?.detail).toMatch(/not started: the network policy refuses chatgpt\.com/);
      expect(report.ok).toBe(false);
    });
  }

  it('does start it where the policy admits chatgpt.com (the check can fail)', async () => {
    const codex = recorder();
    await validate({
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: 'chatgpt.com',
      MONO_AGENT_WEB_SEARCH_BACKEND: 'codex',
      PATH: codex.path,
    });
    expect(codex.started()).toBe(true);
  });
});
