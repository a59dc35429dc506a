import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACT_SWEEP_INTERVAL_MS, sweepToolOutput } from './artifact-retention.js';
import { createFileArtifactSink } from './file-artifact-sink.js';

const HOUR = 60 * 60 * 1000;
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'retention-unit-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function folder(name: string, changedAt: number): Promise<string> {
  const path = join(directory, 'tool-output', name);
  await mkdir(path, { recursive: true });
  await writeFile(join(path, 'x.txt'), 'x');
  const when = new Date(changedAt);
  await utimes(join(path, 'x.txt'), when, when);
  await utimes(path, when, when);
  return path;
}

const policy = { maxAgeHours: 24, maxRuns: 100, dryRun: false };

describe('sweepToolOutput', () => {
  it('judges age by the injected clock: at the bound kept, one past it removed', async () => {
    const now = Date.UTC(2030, 0, 1);
    await folder('at-bound', now - 24 * HOUR);
    await folder('past-bound', now - 24 * HOUR - 1);
    const report = await sweepToolOutput({ directory, retention: policy, now: () => now });
    expect(report.removed).toEqual(['past-bound']);
    expect(report.kept).toEqual([{ name: 'at-bound', reason: 'within_policy' }]);
  });

  it('keeps a folder changed within the sweep interval even past every limit', async () => {
    const now = Date.UTC(2030, 0, 1);
    await folder('recent', now - ARTIFACT_SWEEP_INTERVAL_MS + 1);
    const report = await sweepToolOutput({
      directory,
      retention: { maxAgeHours: 0, maxRuns: 0, dryRun: false },
      now: () => now,
    });
    expect(report.kept).toEqual([{ name: 'recent', reason: 'recent' }]);
  });

  it('stops when its time budget runs out, leaving the rest for the next sweep', async () => {
    let clock = Date.UTC(2030, 0, 1);
    for (const name of ['a', 'b', 'c']) await folder(name, clock - 100 * HOUR);
    // Every reading of the clock moves it a second on: the budget of 1.5 s runs out early.
    const report = await sweepToolOutput({
      directory,
      retention: policy,
      now: () => (clock += 1_000),
      budgetMs: 1_500,
    });
    expect(report.complete).toBe(false);
    expect(report.removed.length).toBeLessThan(3);
  });

  it('keeps the folder the sink is writing for a live process; removes it once unclaimed and aged', async () => {
    const sink = createFileArtifactSink({ directory });
    const saved = await sink.save({
      runId: 'run-1',
      toolName: 'WebFetch',
      index: 0,
      block: { type: 'text', text: 'x' },
    });
    const later = Date.now() + 1_000 * HOUR;
    // This process wrote it and still runs: only `isActive` says whether its run is still open.
    const open = await sweepToolOutput({
      directory,
      retention: policy,
      now: () => later,
      isActive: () => true,
    });
    expect(open.kept).toEqual([{ name: 'run-1', reason: 'active' }]);
    const ended = await sweepToolOutput({ directory, retention: policy, now: () => later });
    expect(ended.removed).toEqual(['run-1']);
    expect(existsSync(saved)).toBe(false);
  });
});
