// `pnpm demo` as a person runs it: it prints the console's address, serves it on loopback only, and
// Ctrl-C stops it together with the searx it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const demoDirectory = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

/** Processes whose command line mentions `needle` (searx and its upstream name their work folders). */
function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function startDemoProcess(args: string[]) {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@mono-agent/source', 'src/main.ts', ...args],
    {
      cwd: demoDirectory,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { output: () => output, process: child };
}

describe('pnpm demo', () => {
  it('prints a loopback URL, serves the console there, and stops with searx on Ctrl-C', async () => {
    const demo = startDemoProcess(['--fixtures']);
    await expect
      .poll(() => /research console at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(demo.output())?.[1], {
        timeout: 60_000,
      })
      .toBeDefined();
    const url = /research console at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(demo.output())?.[1] ?? '';
    expect(demo.output()).toContain('--fixtures given');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('Research console');
    const searxStarted = demo.output().includes('a local searx at');
    const searxBefore = processesMentioning('mono-agent-console-site-');
    if (searxStarted) expect(searxBefore.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) =>
      demo.process.once('exit', (code) => resolve(code)),
    );
    demo.process.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(demo.output()).toContain('demo: stopped');
    expect(
      processesMentioning('mono-agent-console-site-').filter((pid) => searxBefore.includes(pid)),
    ).toEqual([]);
  }, 90_000);

  it('refuses a port that is not a number with a clear message and exit code 2', async () => {
    const demo = startDemoProcess(['--port', 'eighty']);
    const code = await new Promise<number | null>((resolve) => demo.process.once('exit', resolve));
    expect(code).toBe(2);
    expect(demo.output()).toContain('--port must be a port number');
  }, 30_000);
});
