import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunBudget, createRunDeferrals } from '@mono-agent/budget-policy';
import { createCoordinator } from '@mono-agent/host-coordination';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCodexFake, happyTurn, shapes, slowTurn } from '../test/codex-fake-app-server.js';
import { cleanups, RESULTS, runCleanups, setup } from '../test/codex-provider-support.js';
import { CODEX_FILTER_SUPPORT, type CodexSearchProvider } from './codex-provider.js';
import { createSearchChain } from './search-chain.js';

const s = shapes.schema;

afterEach(runCleanups);

describe('the codex provider in the search chain', () => {
  const chainFor = (provider: CodexSearchProvider) =>
    createSearchChain({
      backend: 'codex',
      providers: { codex: provider },
      coordinator: createCoordinator({ mode: 'process' }),
    });
  const run = () => ({ budget: createRunBudget({ limit: 4 }), deferrals: createRunDeferrals() });

  it('accepts relevant results, charging one request', async () => {
    const { provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    const runContext = run();
    const outcome = await chainFor(provider).search({ query: 'rust async trait' }, runContext);
    expect(outcome.status).toBe('results');
    expect(outcome.backend).toBe('codex');
    expect(outcome.filterSupport).toEqual(CODEX_FILTER_SUPPORT);
    expect(outcome.providers).toMatchObject([
      { backend: 'codex', disposition: 'accepted', requests: 1, queries: 1 },
    ]);
    expect(outcome.results.map((result) => result.url)).toContain(
      'https://rust-lang.github.io/rfcs/3185.html',
    );
    expect(runContext.budget.requestsUsed).toBe(1);
  });

  it('asks Codex one turn with the exact main query and never its alternates', async () => {
    const { fake, provider } = setup({ results: RESULTS, on: { 'turn/start': happyTurn() } });
    const runContext = run();
    const query = '"zebra migration" site:example.org';
    const outcome = await chainFor(provider).search(
      { query, alternateQueries: ['rust async trait', 'rust trait async fn'] },
      runContext,
    );
    // Codex's answer is about Rust, so the gate refuses it; the alternates would match but are not asked.
    expect(outcome.providers).toMatchObject([
      { backend: 'codex', disposition: 'irrelevant', queries: 1, requests: 1 },
    ]);
    const turns = fake.requests('turn/start');
    expect(turns).toHaveLength(1);
    expect(JSON.stringify(turns[0]?.params)).toContain(JSON.stringify(query).slice(1, -1));
    expect(JSON.stringify(turns[0]?.params)).not.toContain('rust async trait');
    expect(runContext.budget.requestsUsed).toBe(1);
  });

  it('reports a quota skip as quota_skipped with nothing charged', async () => {
    const rateLimits = structuredClone(s.rateLimits) as { rateLimits: { secondary: Record<string, number> } };
    rateLimits.rateLimits.secondary.usedPercent = 95;
    const { fake, provider } = setup({ responses: { 'account/rateLimits/read': { result: rateLimits } } });
    const runContext = run();
    const outcome = await chainFor(provider).search({ query: 'rust async trait' }, runContext);
    expect(outcome.status).toBe('error');
    expect(outcome.providers).toMatchObject([
      { backend: 'codex', disposition: 'quota_skipped', code: 'quota_unavailable', requests: 0 },
    ]);
    expect(outcome.requestsUsed).toBe(0);
    expect(runContext.budget.requestsUsed).toBe(0);
    expect(fake.requests('thread/start')).toEqual([]);
  });
});

describe('two processes in host mode', () => {
  const folder = mkdtempSync(join(tmpdir(), 'codex-host-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** Starts a child, resolves once it is ready, then `go()` lets it search and waits for its exit. */
  const startChild = (command: Record<string, unknown>) =>
    new Promise<{ go: () => Promise<{ code: number | null; stdout: string; stderr: string }> }>(
      (resolveReady, rejectReady) => {
        const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
        const child = spawn(
          tsx,
          [
            '--conditions=@mono-agent/source',
            fileURLToPath(new URL('../test/codex-host-child.ts', import.meta.url)),
            JSON.stringify(command),
          ],
          { stdio: ['pipe', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
          child.on('exit', (code) => resolve({ code, stdout, stderr })),
        );
        void exited.then(({ code }) => rejectReady(new Error(`child exited (${code}) early: ${stderr}`)));
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
        });
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (stdout.startsWith('{"ready":true}\n')) {
            stdout = stdout.slice('{"ready":true}\n'.length);
            resolveReady({
              go: () => {
                child.stdin.end('go\n');
                return exited;
              },
            });
          }
        });
      },
    );

  it('never overlaps two subscription turns', async () => {
    const stateDirectory = join(folder, 'state');
    mkdirSync(stateDirectory, { mode: 0o700 });
    const intervals = join(folder, 'intervals.jsonl');
    const fake = createCodexFake({
      results: [{ title: 'alpha beta gamma delta widget guide', url: 'https://example.org/widgets' }],
      on: { 'turn/start': slowTurn(300) },
    });
    cleanups.push(() => fake.dispose());
    const ready = await Promise.all(
      [
        ['alpha widget', 'beta widget', 'gamma widget'],
        ['delta widget', 'widget guide', 'alpha guide'],
      ].map((queries) => startChild({ stateDirectory, scenarioFile: fake.scenarioFile, intervals, queries })),
    );
    const children = await Promise.all(ready.map((child) => child.go()));
    const startedAt: number[] = [];
    for (const child of children) {
      expect(child.code, child.stderr).toBe(0);
      const { outcomes, startedAt: started } = JSON.parse(child.stdout) as {
        startedAt: number;
        outcomes: { status: string; requestsUsed: number }[];
      };
      startedAt.push(started);
      expect(outcomes.map((outcome) => [outcome.status, outcome.requestsUsed])).toEqual([
        ['results', 1],
        ['results', 1],
        ['results', 1],
      ]);
    }
    const turns = readFileSync(intervals, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { pid: number; start: number; end: number })
      .sort((a, b) => a.start - b.start);
    expect(turns).toHaveLength(6);
    expect(new Set(turns.map((turn) => turn.pid)).size).toBe(2);
    // Both children were searching before the first turn ended, so they really competed.
    expect(Math.max(...startedAt)).toBeLessThan(turns[0]!.end);
    for (const [index, turn] of turns.entries()) {
      expect(turn.end - turn.start).toBeGreaterThanOrEqual(290);
      const next = turns[index + 1];
      if (next !== undefined) expect(next.start).toBeGreaterThanOrEqual(turn.end);
    }
  }, 20_000);
});
