// Contract (Tool-output bloat guard): "The configured app's hourly artifact sweep owns each run
// directory under the existing artifacts.retention age/count/dry-run policy. A directory associated
// with a running or uncertain summary, or modified within the last sweep interval, is kept; an aged
// orphan needs no tool-history record to be removed." Driven through the built bin (at start), the
// MCP server over stdio (at start) and createWebRuntime (`sweepArtifacts`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACT_SWEEP_INTERVAL_MS, RUN_OWNER_FILE, runFolderName } from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';
import { runBuiltCli } from './support/built-cli.js';
import { startMcp } from './support/mcp-stdio.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let root: string;
let artifacts: string;
let site: Server;
let pageUrl: string;

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('a short page');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = await mkdtemp(join(tmpdir(), 'artifact-retention-'));
  artifacts = join(root, 'artifacts');
});

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A PID whose process has exited (a child that ran and was reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/**
 * A run folder as the artifact sink leaves it (owner-private, one saved file), last changed `ageMs`
 * ago; `owner` is the owner record written into it (none for a folder without one).
 */
async function runFolder(name: string, ageMs: number, owner?: string): Promise<void> {
  const folder = join(artifacts, 'tool-output', name);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, '1700000000000-WebFetch-0.txt');
  await writeFile(file, 'saved output', { mode: 0o600 });
  if (owner !== undefined) await writeFile(join(folder, RUN_OWNER_FILE), owner, { mode: 0o600 });
  const when = new Date(Date.now() - ageMs);
  for (const entry of await readdir(folder)) await utimes(join(folder, entry), when, when);
  await utimes(folder, when, when);
}

const remaining = async () => (await readdir(join(artifacts, 'tool-output'))).sort();

/** The folders of every kind the sweep must tell apart. */
async function mixedFolders(): Promise<void> {
  // An aged orphan: no owner record, nothing else to say it ever ran.
  await runFolder('aged-orphan', 10 * DAY);
  // An aged folder whose writer has exited.
  await runFolder('aged-dead-writer', 10 * DAY, JSON.stringify({ host: hostname(), pid: deadPid() }));
  // An aged folder whose writer still runs (this test process).
  await runFolder(
    'aged-running',
    10 * DAY,
    JSON.stringify({ host: hostname(), pid: process.pid, started: startTicks(process.pid) }),
  );
  // Aged, but nothing says whether its run ended: an unreadable record, a run of another host.
  await runFolder('aged-uncertain', 10 * DAY, '{ not json');
  await runFolder('aged-other-host', 10 * DAY, JSON.stringify({ host: `not-${hostname()}`, pid: 1 }));
  // An orphan changed within the last sweep interval.
  await runFolder('recent-orphan', ARTIFACT_SWEEP_INTERVAL_MS / 2);
}

const KEPT_ALWAYS = ['aged-other-host', 'aged-running', 'aged-uncertain', 'recent-orphan'];

function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TMPDIR: root,
    MONO_AGENT_NETWORK_MODE: 'localhost',
    MONO_AGENT_ARTIFACT_DIR: artifacts,
    ...extra,
  };
}

describe('"The configured app\'s hourly artifact sweep owns each run directory under the existing artifacts.retention age/count/dry-run policy"', () => {
  it('the CLI sweeps its artifact folder at start: aged orphans go (no history record needed); running, uncertain and recent folders stay', async () => {
    await mixedFolders();
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', pageUrl], { home, env: cliEnv() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(await remaining()).toEqual(KEPT_ALWAYS);
  });

  it('"dry-run": artifacts.retention.dryRun removes nothing', async () => {
    await mixedFolders();
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', pageUrl], {
      home,
      env: cliEnv({ MONO_AGENT_ARTIFACT_RETENTION_DRY_RUN: 'true' }),
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(await remaining()).toEqual([...KEPT_ALWAYS, 'aged-dead-writer', 'aged-orphan'].sort());
    // The same folders, swept for real, are the ones the dry run left.
    const real = await runBuiltCli(['fetch', pageUrl], { home, env: cliEnv() });
    expect(real.code, real.stderr).toBe(EXIT_CODES.success);
    expect(await remaining()).toEqual(KEPT_ALWAYS);
  });

  it('"age": a folder idle for exactly maxAgeHours stays, one idle past it goes', async () => {
    await runFolder('at-the-bound', 48 * HOUR - 5 * 60 * 1000);
    await runFolder('past-the-bound', 48 * HOUR + 5 * 60 * 1000);
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', pageUrl], {
      home,
      env: cliEnv({ MONO_AGENT_ARTIFACT_RETENTION_MAX_AGE_HOURS: '48' }),
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(await remaining()).toEqual(['at-the-bound']);
  });

  it('"count": beyond maxRuns the oldest idle folders go, never a running or recent one', async () => {
    for (const [index, days] of [1, 2, 3, 4].entries()) await runFolder(`idle-${index}`, days * DAY);
    await runFolder(
      'old-but-running',
      5 * DAY,
      JSON.stringify({ host: hostname(), pid: process.pid, started: startTicks(process.pid) }),
    );
    await runFolder('recent', ARTIFACT_SWEEP_INTERVAL_MS / 4);
    const home = await mkdtemp(join(root, 'home-'));
    const run = await runBuiltCli(['fetch', pageUrl], {
      home,
      env: cliEnv({ MONO_AGENT_ARTIFACT_RETENTION_MAX_RUNS: '3' }),
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    // Newest first: recent, idle-0, idle-1 fill the three places; the running folder stays anyway.
    expect(await remaining()).toEqual(['idle-0', 'idle-1', 'old-but-running', 'recent']);
  });

  it('the MCP server sweeps its artifact folder at start', async () => {
    await mixedFolders();
    const home = await mkdtemp(join(root, 'home-'));
    const session = await startMcp(cliEnv(), home);
    try {
      // The server answers once it has started, so its start-up sweep is over.
      const result = await session.call('WebFetch', { url: pageUrl });
      expect(result.isError).toBe(false);
      expect(await remaining()).toEqual(KEPT_ALWAYS);
    } finally {
      await session.close();
    }
  });

  it('"A directory associated with a running ... summary ... is kept": the folder of an open run stays until the run ends (createWebRuntime)', async () => {
    const config = resolveWebConfig({
      env: { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_ARTIFACT_DIR: artifacts },
    });
    const runtime = await createWebRuntime({ config });
    const run = runtime.startRun();
    try {
      await runFolder(runFolderName(run.id), 30 * DAY);
      const dry = await runtime.sweepArtifacts({ dryRun: true });
      expect(dry?.kept).toEqual([{ name: runFolderName(run.id), reason: 'active' }]);
      expect((await runtime.sweepArtifacts())?.removed).toEqual([]);
      await run.close();
      const after = await runtime.sweepArtifacts();
      expect(after?.removed).toEqual([runFolderName(run.id)]);
      expect(existsSync(join(artifacts, 'tool-output', runFolderName(run.id)))).toBe(false);
    } finally {
      await runtime.close();
    }
  });
});
