// "A call that takes longer than about two seconds shows what it is waiting for on stderr
// (admission, connecting, downloading with bytes, rendering, retry waits with their delay), refreshed
// in place; nothing of it when stderr is not a terminal or with --json." The built bin runs in a
// pseudo-terminal (util-linux `script`) against the fixture web's slow body.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import type { CallProgress } from '../../src/index.js';
import { BUILT_CLI, runBuiltCli } from './support/built-cli.js';
import { startRuntime } from './support/runtime.js';

let web: FixtureWeb;
let home: string;
beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'cli-progress-'));
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const env = () => ({
  MONO_AGENT_NETWORK_MODE: 'allowlist',
  MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
});

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** Runs the built bin with a terminal as its stdin, stdout and stderr; returns what the terminal got. */
function runInTerminal(args: string[]): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, BUILT_CLI, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    execFile(
      'script',
      ['--quiet', '--flush', '--return', '--command', command, '/dev/null'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: home, TERM: 'xterm', COLUMNS: '200', ...env() },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, screen: stdout }),
    );
  });
}

// 4000 bytes at 1000 bytes a second: about four seconds of body after the headers.
const slowBody = () => web.url('/trickle?rate=1000&bytes=4000');

describe('progress of a long fetch', () => {
  it('on a terminal: after about two seconds, the bytes downloaded of the declared length, erased before the answer', async () => {
    const { code, screen } = await runInTerminal(['fetch', slowBody()]);
    expect(code, screen).toBe(EXIT_CODES.success);
    const lines = screen.split('\r\u001b[2K');
    const progress = lines.filter((text) => text.startsWith('mono-agent-web: fetch '));
    expect(progress.length, screen).toBeGreaterThan(1);
    expect(
      progress.some((text) =>
        /^mono-agent-web: fetch \d+\.\d s: downloading [\d.]+ (B|kB) of 4\.0 kB$/.test(text),
      ),
    ).toBe(true);
    // Never before two seconds.
    for (const text of progress)
      expect(Number(text.match(/fetch (\d+\.\d) s/)?.[1])).toBeGreaterThanOrEqual(2);
    // The last erase comes before the answer, which starts on a clean line.
    expect(lines.at(-1)).toMatch(/^WebFetch status: ok/);
  });

  it('with --json on a terminal: no progress line', async () => {
    const { code, screen } = await runInTerminal(['fetch', slowBody(), '--json']);
    expect(code, screen).toBe(EXIT_CODES.success);
    expect(screen).not.toContain('mono-agent-web: fetch');
    expect(screen).not.toContain('\u001b[2K');
  });

  it('when stderr is not a terminal: nothing on stderr', async () => {
    const run = await runBuiltCli(['fetch', slowBody()], { home, env: env() });
    expect(run.code).toBe(EXIT_CODES.success);
    expect(run.stderr).toBe('');
  });
});

describe('the stages a host can show, through createWebRuntime', () => {
  it('admission, each attempt connecting, the retry wait with its delay, then the bytes', async () => {
    const session = await startRuntime(env());
    const seen: CallProgress[] = [];
    try {
      const result = await session.run.webFetch(
        { url: web.url('/sequence/progress-1?steps=503,200') },
        { onProgress: (progress) => seen.push(progress) },
      );
      expect(result.isError, result.text).toBe(false);
    } finally {
      await session.close();
    }
    const origin = `http://127.0.0.1:${web.port}`;
    const stages = seen
      .map((progress) => progress.stage)
      .filter((stage, index, all) => stage !== all[index - 1]);
    // The 503's own body is read too before the wait.
    expect(stages).toEqual([
      'admission',
      'connecting',
      'downloading',
      'retry_wait',
      'admission',
      'connecting',
      'downloading',
    ]);
    expect(seen[0]).toEqual({ stage: 'admission', origin });
    expect(seen).toContainEqual({ stage: 'connecting', origin, attempt: 2 });
    const wait = seen.find((progress) => progress.stage === 'retry_wait');
    expect(wait?.stage === 'retry_wait' && wait.delayMs).toBeGreaterThan(0);
  });
});
