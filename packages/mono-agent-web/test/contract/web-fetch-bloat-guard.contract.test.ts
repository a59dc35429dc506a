import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import {
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
  TOOL_OUTPUT_TEXT_BUDGET_BYTES,
} from '@mono-agent/tool-adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcp } from './support/mcp-stdio.js';
import { startRuntime } from './support/runtime.js';

// Contract (Tool-output bloat guard): "Tool results are truncated at a 256KB budget ... the guard
// keeps a UTF-8-safe 60/40 head/tail sample inside a new balanced untrusted-content frame. A host
// notice says that the omitted middle may contain more content ... the guard offers every original
// block to the configured app's per-run artifact sink. Successful files land as owner-private files
// under artifacts.dir/tool-output/<runId>/; only returned paths appear in the summary. A missing or
// failed sink is reported as persistence unavailable and never fails the tool call."

let web: FixtureWeb;
let home: string;
const page = Array.from(
  { length: 20_000 },
  (_, index) => `row ${String(index).padStart(5, '0')} ${'é'.repeat(20)}`,
).join('\n');

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'web-fetch-bloat-'));
});
beforeEach(() => {
  web.reset();
  web.scenario('/big', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: page });
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
});

const args = () => ({ url: web.url('/big'), max_output_chars: 1_000_000 });

describe('the bloat guard on WebFetch output', () => {
  it('keeps a 60/40 sample within 256 KiB in a balanced frame and saves the whole output privately', async () => {
    const artifacts = join(home, 'artifacts');
    const session = await startRuntime({
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_ARTIFACT_DIR: artifacts,
    });
    try {
      const result = await session.run.webFetch(args());
      expect(result.isError).toBe(false);
      expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(TOOL_OUTPUT_TEXT_BUDGET_BYTES);
      expect(result.text.split(TOOL_OUTPUT_SAMPLE_BEGIN)).toHaveLength(2);
      expect(result.text.split(TOOL_OUTPUT_SAMPLE_END)).toHaveLength(2);
      expect(result.text).toMatch(/the end shown here is not necessarily where the source ends/);
      expect(result.text).toContain('row 00000');
      expect(result.text).toContain('row 19999');
      const inner = result.text.split(TOOL_OUTPUT_SAMPLE_BEGIN)[1]!.split(TOOL_OUTPUT_SAMPLE_END)[0]!;
      const [head, tail] = inner.split('[… middle omitted …]') as [string, string];
      const headShare = Buffer.byteLength(head) / (Buffer.byteLength(head) + Buffer.byteLength(tail));
      expect(headShare).toBeGreaterThan(0.58);
      expect(headShare).toBeLessThan(0.62);
      const data = result.data as { artifact: string; truncated: boolean };
      expect(data.truncated).toBe(true);
      expect(data.artifact.startsWith(join(artifacts, 'tool-output', session.run.id))).toBe(true);
      expect(result.text).toContain(data.artifact);
      expect(statSync(data.artifact).mode & 0o777).toBe(0o600);
      expect(statSync(join(artifacts, 'tool-output', session.run.id)).mode & 0o777).toBe(0o700);
      expect(readFileSync(data.artifact, 'utf8')).toContain(page.split('\n').at(-1));
      expect(session.events.at(-1)).toMatchObject({ tool: 'WebFetch', status: 'ok', truncated: true });
    } finally {
      await session.close();
    }
  });

  it('without an artifact directory reports persistence unavailable and still succeeds', async () => {
    const mcp = await startMcp({ MONO_AGENT_NETWORK_MODE: 'localhost' }, home);
    try {
      const result = await mcp.call('WebFetch', args());
      expect(result.isError).toBe(false);
      expect(result.text).toContain('persistence unavailable');
      expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(TOOL_OUTPUT_TEXT_BUDGET_BYTES);
    } finally {
      await mcp.close();
    }
  });
});

describe('Security and observability: timing events of WebFetch', () => {
  it('carry only bounded operational fields: never the URL, headers or page content', async () => {
    const session = await startRuntime({ MONO_AGENT_NETWORK_MODE: 'localhost' });
    try {
      web.scenario('/secret-path', { headers: { 'content-type': 'text/plain' }, body: 'page secret text' });
      await session.run.webFetch({
        url: web.url('/secret-path?token=abc'),
        headers: { 'User-Agent': 'agent-ua/9' },
      });
      await session.run.webFetch({ url: web.url('/status/500') });
      const serialized = JSON.stringify(session.events);
      expect(serialized).not.toMatch(/secret|token|abc|agent-ua|127\.0\.0\.1|status\/500/);
      expect(session.events[0]).toMatchObject({
        tool: 'WebFetch',
        status: 'ok',
        httpStatus: 200,
        attempts: 1,
        contentKind: 'text',
        charset: expect.any(String),
        extractionStage: expect.any(String),
        parserFailures: 0,
        cacheHit: false,
        rendered: false,
      });
      expect(session.events[1]).toMatchObject({
        status: 'error',
        errorCode: 'http_status',
        httpStatus: 500,
        attempts: 3,
      });
      const allowed = new Set([
        'tool',
        'status',
        'errorCode',
        'durationMs',
        'httpStatus',
        'attempts',
        'contentKind',
        'charset',
        'extractionStage',
        'parserFailures',
        'byteCount',
        'cacheHit',
        'truncated',
        'rendered',
        'retryAt',
      ]);
      for (const event of session.events)
        for (const key of Object.keys(event)) expect(allowed).toContain(key);
    } finally {
      await session.close();
    }
  });
});
