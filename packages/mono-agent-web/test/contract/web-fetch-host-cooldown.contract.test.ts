import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';

// Contract: "In host mode a throttle starts an origin cooldown, so a retry cannot bypass it." (Read a
// bounded page slice); "Host mode honors Retry-After; without it, throttled searches cool down for
// five minutes and fetch origins for one minute. ... Two infrastructure failures open a one-minute
// cooldown. ... Cooldown skips make no provider request." (Keyless rate limiting). Each fetch below is
// its own process of the built bin; they share only the host state under one HOME.

interface Failure {
  status: string;
  code: string;
  httpStatus?: number;
  attempts?: number;
  retryAt?: number;
  message?: string;
  cooldown?: { cause: string; until: number };
}

let web: FixtureWeb;
let home: string;
const env = { MONO_AGENT_NETWORK_MODE: 'localhost', MONO_AGENT_WEB_COORDINATION: 'host' };
const fetchCli = (url: string) => runBuiltCli(['fetch', url, '--json'], { home, env });

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-host-'));
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

describe('WebFetch origin cooldowns in host mode, across two processes', () => {
  it('acceptance: a 429 without Retry-After cools the origin for the next process, which sends nothing', async () => {
    const started = Date.now();
    const first = await fetchCli(web.url('/sequence/h1?steps=429,200'));
    expect(first.code).toBe(EXIT_CODES.backendFailure);
    const throttled = jsonOf<Failure>(first);
    // The retry of the same fetch met the cooldown its own 429 opened and was not sent.
    expect(throttled).toMatchObject({
      code: 'rate_limited',
      httpStatus: 429,
      cooldown: { cause: 'throttled' },
    });
    expect(web.requestsTo('/sequence/h1')).toHaveLength(1);
    // One minute without Retry-After.
    expect(throttled.cooldown!.until).toBeGreaterThanOrEqual(started + 60_000 - 1_000);
    expect(throttled.cooldown!.until).toBeLessThanOrEqual(Date.now() + 60_000 + 1_000);

    const second = await fetchCli(web.url('/sequence/h2?steps=200'));
    expect(second.code).toBe(EXIT_CODES.backendFailure);
    const skipped = jsonOf<Failure>(second);
    expect(skipped).toMatchObject({
      code: 'cooldown',
      cooldown: { cause: 'throttled', until: throttled.cooldown!.until },
    });
    expect(skipped.retryAt).toBe(throttled.cooldown!.until);
    expect(skipped.message).toContain('throttling');
    expect(web.requestsTo('/sequence/h2')).toHaveLength(0);

    const text = await runBuiltCli(['fetch', web.url('/sequence/h2?steps=200')], { home, env });
    expect(text.stdout).toMatch(/error: cooldown \| cooldown: throttled until \d{4}-\d\d-\d\dT/);
    expect(text.stdout).toMatch(/reason: http:\/\/127\.0\.0\.1:\d+ is cooling down after throttling until/);
  });

  it('says the cooldown was opened by repeated failures when two 503s opened it', async () => {
    const origin = (path: string) => web.url(path, { host: '127.0.0.2' });
    const first = await fetchCli(origin('/sequence/h3?steps=503,503,200'));
    expect(jsonOf<Failure>(first)).toMatchObject({
      code: 'http_status',
      httpStatus: 503,
      cooldown: { cause: 'infrastructure_failure' },
    });
    // Two failures were sent; the third attempt met the cooldown they opened.
    expect(web.requestsTo('/sequence/h3')).toHaveLength(2);
    const second = await fetchCli(origin('/echo'));
    expect(jsonOf<Failure>(second)).toMatchObject({
      code: 'cooldown',
      cooldown: { cause: 'infrastructure_failure' },
    });
    expect(jsonOf<Failure>(second).message).toContain('repeated failures');
  });

  it('shows the cooling origin and its cause in web-control status', async () => {
    const status = await runBuiltCli(['web-control', 'status', '--json'], { home, env });
    const report = jsonOf<{
      mode: string;
      scopes: { kind: string; coolingDown: boolean; cooldownCause?: string }[];
    }>(status);
    expect(report.mode).toBe('host');
    const causes = report.scopes
      .filter((scope) => scope.kind === 'fetch' && scope.coolingDown)
      .map((scope) => scope.cooldownCause)
      .sort();
    expect(causes).toEqual(['infrastructure_failure', 'throttled']);
  });

  it('honours a short Retry-After in host mode: the retry waits it out and is admitted as the probe', async () => {
    const run = await fetchCli(web.url('/sequence/h4?steps=429:1,200', { host: 'localhost' }));
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    expect(web.requestsTo('/sequence/h4')).toHaveLength(2);
  });
});
