import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { FETCH_DEADLINE_MS } from '../../src/index.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { type McpSession, startMcp } from './support/mcp-stdio.js';
import { startRuntime } from './support/runtime.js';

// Contract: "Transient transport failures and HTTP 408/425/429/5xx responses receive up to two
// bounded retries. Retry-After is honored up to five seconds." (WebFetch), and "WebFetch retries
// transient network failures and HTTP 408/425/429/5xx in-tool with bounded backoff and Retry-After
// handling." (Web research and WebFetch retry). Default coordination is process: no origin cooldowns.

let web: FixtureWeb;
let home: string;
const env = () => ({ MONO_AGENT_NETWORK_MODE: 'localhost' });

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-retries-'));
});
beforeEach(() => web.reset());
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const sequence = (key: string, steps: string) => web.url(`/sequence/${key}?steps=${steps}`);
const sent = (key: string) => web.requestsTo(`/sequence/${key}`).length;
const fetchCli = (url: string, extra: string[] = []) =>
  runBuiltCli(['fetch', url, '--json', ...extra], { home, env: env() });

describe('WebFetch retries through the built CLI, default process mode', () => {
  it('acceptance: 503, 503, 200 succeeds with 3 requests', async () => {
    const run = await fetchCli(sequence('s1', '503,503,200'));
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf(run)).toMatchObject({ status: 'ok', httpStatus: 200, attempts: 3 });
    expect(sent('s1')).toBe(3);
  });

  it('acceptance: 429 without Retry-After, then 200, succeeds with 2 requests', async () => {
    const run = await fetchCli(sequence('s2', '429,200'));
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    expect(sent('s2')).toBe(2);
  });

  it('acceptance: two dropped connections, then 200, succeeds with 3 requests', async () => {
    const run = await fetchCli(sequence('s3', 'reset,reset,200'));
    expect(run.code, run.stderr).toBe(EXIT_CODES.success);
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 3 });
    expect(sent('s3')).toBe(3);
  });

  it('retries a body cut short by a dropped connection', async () => {
    const run = await fetchCli(sequence('cut', 'cut,200'));
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    expect(sent('cut')).toBe(2);
  });

  it('acceptance: 404 is not retried', async () => {
    const run = await fetchCli(sequence('s4', '404,200'));
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(jsonOf(run)).toMatchObject({ status: 'error', code: 'http_status', httpStatus: 404, attempts: 1 });
    expect(sent('s4')).toBe(1);
  });

  it.each(['408', '425', '500', '502', '504', '599'])('retries HTTP %s', async (status) => {
    const run = await fetchCli(sequence(`retry-${status}`, `${status},200`));
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    expect(sent(`retry-${status}`)).toBe(2);
  });

  it.each(['400', '401', '403', '410', '451'])('does not retry HTTP %s', async (status) => {
    const run = await fetchCli(sequence(`once-${status}`, `${status},200`));
    expect(jsonOf(run)).toMatchObject({ status: 'error', code: 'http_status', httpStatus: Number(status) });
    expect(sent(`once-${status}`)).toBe(1);
  });

  it('makes at most two retries: a third 503 is the answer (3 requests, not 4)', async () => {
    const run = await fetchCli(sequence('s5', '503,503,503,200'));
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(jsonOf(run)).toMatchObject({ code: 'http_status', httpStatus: 503, attempts: 3 });
    expect(sent('s5')).toBe(3);
  });

  it('keeps no origin cooldown in process mode: the next call to the origin is sent at once', async () => {
    await fetchCli(sequence('s6', '503'));
    expect(sent('s6')).toBe(3);
    const next = await fetchCli(sequence('s6-next', '200'));
    expect(jsonOf(next)).toMatchObject({ status: 'ok', attempts: 1 });
  });

  it('reports a refused connection after its retries as backend_unavailable, not rate_limited', async () => {
    const closed = await startFixtureWeb();
    const url = closed.url('/echo');
    await closed.close();
    const run = await fetchCli(url);
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    expect(jsonOf(run)).toMatchObject({ status: 'error', code: 'backend_unavailable', attempts: 3 });
  });

  it('honours Retry-After of one second before the retry', async () => {
    const started = Date.now();
    const run = await fetchCli(sequence('s7', '429:1,200'));
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    const [first, second] = web.requestsTo('/sequence/s7');
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('honours Retry-After at the five-second bound', async () => {
    const run = await fetchCli(sequence('s8', '503:5,200'));
    expect(jsonOf(run)).toMatchObject({ status: 'ok', attempts: 2 });
    const [first, second] = web.requestsTo('/sequence/s8');
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(4_950);
  }, 30_000);

  it('does not wait out a Retry-After past five seconds: it reports the throttle and its retry time', async () => {
    const started = Date.now();
    const run = await fetchCli(sequence('s9', '429:6,200'));
    expect(run.code).toBe(EXIT_CODES.backendFailure);
    const result = jsonOf<{ code: string; httpStatus: number; retryAt: number }>(run);
    expect(result).toMatchObject({ code: 'rate_limited', httpStatus: 429 });
    expect(result.retryAt).toBeGreaterThanOrEqual(started + 6_000 - 1_000);
    expect(sent('s9')).toBe(1);
  });

  it('prints the throttle and its retry time in the text the model reads', async () => {
    const run = await runBuiltCli(['fetch', sequence('s10', '429:30')], { home, env: env() });
    expect(run.stdout).toMatch(
      /^WebFetch status: error \| error: rate_limited \| http status: 429 \| attempts: 1 \| retry after: \d{4}-/,
    );
  });
});

describe('WebFetch retries through the MCP server', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await startMcp(env(), home);
  });
  afterAll(() => mcp.close());

  it('retries 503, 503 and answers the third request', async () => {
    const result = await mcp.call('WebFetch', { url: sequence('m1', '503,503,200') });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toMatch(/^WebFetch status: ok \| kind: json/);
    expect(sent('m1')).toBe(3);
  });

  it('retries a dropped connection and a 429 in one call', async () => {
    const result = await mcp.call('WebFetch', { url: sequence('m2', 'reset,429,200') });
    expect(result.isError, result.text).toBe(false);
    expect(sent('m2')).toBe(3);
  });
});

describe('WebFetch retries through createWebRuntime', () => {
  // Contract: "One 45-second deadline covers admission, redirects, retry waits and rendering".
  it('ends a server that never answers at the 45 s deadline as timeout, without retrying past it', async () => {
    const session = await startRuntime(env());
    try {
      const started = Date.now();
      const result = await session.run.webFetch({ url: sequence('deadline', 'hang') });
      const elapsed = Date.now() - started;
      expect(result).toMatchObject({ isError: true, code: 'timeout' });
      expect(result.text).toContain('reason: the request did not finish within its 45000 ms deadline');
      expect(elapsed).toBeGreaterThanOrEqual(FETCH_DEADLINE_MS - 500);
      expect(elapsed).toBeLessThan(FETCH_DEADLINE_MS + 5_000);
      expect(sent('deadline')).toBe(1);
    } finally {
      await session.close();
    }
  }, 80_000);

  it('waits out Retry-After twice within the deadline (429:2, 503:2, 200)', async () => {
    const session = await startRuntime(env());
    try {
      const result = await session.run.webFetch({ url: sequence('waits', '429:2,503:2,200') });
      expect(result.data).toMatchObject({ status: 'ok', attempts: 3 });
      const [first, , third] = web.requestsTo('/sequence/waits');
      expect(third!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(3_900);
    } finally {
      await session.close();
    }
  });

  it('retries, reports the attempts in data and in the timing event', async () => {
    const session = await startRuntime(env());
    try {
      const result = await session.run.webFetch({ url: sequence('r1', '500,429,200') });
      expect(result.isError).toBe(false);
      expect(result.data).toMatchObject({ status: 'ok', attempts: 3 });
      expect(session.events.at(-1)).toMatchObject({ tool: 'WebFetch', status: 'ok', attempts: 3 });
      expect(sent('r1')).toBe(3);
    } finally {
      await session.close();
    }
  });
});
