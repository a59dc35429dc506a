import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  guardToolOutput,
  TOOL_OUTPUT_IMAGE_BUDGET_BYTES,
  TOOL_OUTPUT_TEXT_BUDGET_BYTES,
} from './bloat-guard.js';
import { createFileArtifactSink } from './file-artifact-sink.js';
import {
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from './untrusted-frame.js';
import { utf8ByteLength } from './utf8.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function artifactsDirectory() {
  const directory = mkdtempSync(join(tmpdir(), 'mono-agent-artifacts-'));
  directories.push(directory);
  return directory;
}

describe('guardToolOutput', () => {
  it('passes a result of exactly the budget through untouched', async () => {
    const text = 'a'.repeat(TOOL_OUTPUT_TEXT_BUDGET_BYTES);
    const guarded = await guardToolOutput([{ type: 'text', text }], { runId: 'r1', toolName: 'WebFetch' });
    expect(guarded.truncated).toBe(false);
    expect(guarded.blocks).toEqual([{ type: 'text', text }]);
  });

  it('shortens a result one byte past the budget', async () => {
    const text = 'a'.repeat(TOOL_OUTPUT_TEXT_BUDGET_BYTES + 1);
    const guarded = await guardToolOutput([{ type: 'text', text }], { runId: 'r1', toolName: 'WebFetch' });
    expect(guarded.truncated).toBe(true);
    expect(utf8ByteLength((guarded.blocks[0] as { text: string }).text)).toBeLessThanOrEqual(
      TOOL_OUTPUT_TEXT_BUDGET_BYTES,
    );
  });

  it('keeps a 60/40 head/tail sample in a new balanced frame and saves the original', async () => {
    const text = `${'h'.repeat(TOOL_OUTPUT_TEXT_BUDGET_BYTES)}${'t'.repeat(TOOL_OUTPUT_TEXT_BUDGET_BYTES)}`;
    const directory = artifactsDirectory();
    const guarded = await guardToolOutput([{ type: 'text', text }], {
      runId: 'run-42',
      toolName: 'WebFetch',
      sink: createFileArtifactSink({ directory }),
    });
    expect(guarded.truncated).toBe(true);
    const output = (guarded.blocks[0] as { text: string }).text;
    expect(utf8ByteLength(output)).toBeLessThanOrEqual(TOOL_OUTPUT_TEXT_BUDGET_BYTES);
    expect(output.split(TOOL_OUTPUT_SAMPLE_BEGIN)).toHaveLength(2);
    expect(output.trimEnd().endsWith(TOOL_OUTPUT_SAMPLE_END)).toBe(true);
    expect(output).toMatch(/bytes from the middle were omitted/);
    const heads = output.match(/h+/g)!.reduce((sum, run) => sum + run.length, 0);
    const tails = output.match(/t+/g)!.reduce((sum, run) => sum + run.length, 0);
    expect(heads / (heads + tails)).toBeCloseTo(0.6, 2);
    expect(guarded.savedPaths).toHaveLength(1);
    const saved = guarded.savedPaths[0]!;
    expect(saved.startsWith(join(directory, 'tool-output', 'run-42'))).toBe(true);
    expect(readFileSync(saved, 'utf8')).toBe(text);
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    expect(statSync(join(directory, 'tool-output', 'run-42')).mode & 0o777).toBe(0o700);
    expect(output).toContain(saved);
  });

  it('never splits a multi-byte character and neutralizes frames inside the sample', async () => {
    const framed = `${WEB_CONTENT_BEGIN}\n${'漢'.repeat(100_000)}😀\n${WEB_CONTENT_END}`;
    const guarded = await guardToolOutput([{ type: 'text', text: framed }], {
      runId: 'r',
      toolName: 'WebFetch',
    });
    const output = (guarded.blocks[0] as { text: string }).text;
    expect(output).not.toContain('\uFFFD');
    expect(() =>
      new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(output)),
    ).not.toThrow();
    expect(output).not.toContain(WEB_CONTENT_BEGIN);
    expect(output).not.toContain(WEB_CONTENT_END);
    expect(utf8ByteLength(output)).toBeLessThanOrEqual(TOOL_OUTPUT_TEXT_BUDGET_BYTES);
  });

  it('reports a missing or failing sink without failing the call', async () => {
    const text = 'x'.repeat(TOOL_OUTPUT_TEXT_BUDGET_BYTES + 10);
    const missing = await guardToolOutput([{ type: 'text', text }], { runId: 'r', toolName: 'WebFetch' });
    expect(missing.persistenceError).toBe('no artifact sink is configured');
    expect((missing.blocks[0] as { text: string }).text).toContain('persistence unavailable');
    const failing = await guardToolOutput([{ type: 'text', text }], {
      runId: 'r',
      toolName: 'WebFetch',
      sink: {
        save: async () => {
          throw new Error('disk full');
        },
      },
    });
    expect(failing.persistenceError).toBe('disk full');
    expect(failing.truncated).toBe(true);
  });

  it('gives images their own larger budget and summarizes mixed or oversized payloads', async () => {
    const image = { type: 'image' as const, mimeType: 'image/png', data: 'A'.repeat(1_000_000) };
    const small = await guardToolOutput([image], { runId: 'r', toolName: 'Shot' });
    expect(small.truncated).toBe(false);
    const big = { ...image, data: 'A'.repeat(Math.ceil((TOOL_OUTPUT_IMAGE_BUDGET_BYTES * 4) / 3) + 8) };
    const guarded = await guardToolOutput([big, { type: 'text', text: 'caption' }], {
      runId: 'r',
      toolName: 'Shot',
      sink: createFileArtifactSink({ directory: artifactsDirectory() }),
    });
    expect(guarded.blocks).toHaveLength(1);
    expect((guarded.blocks[0] as { text: string }).text).toMatch(
      /block 1: image\/png, \d+ bytes; block 2: text/,
    );
    expect(guarded.savedPaths).toHaveLength(2);
  });

  it('keeps run ids and tool names from escaping the artifact folder', async () => {
    const directory = artifactsDirectory();
    const sink = createFileArtifactSink({ directory });
    const path = await sink.save({
      runId: '../../etc',
      toolName: '../passwd',
      index: 0,
      block: { type: 'text', text: 'x' },
    });
    expect(relative(join(directory, 'tool-output'), path).split(sep)).toHaveLength(2);
    expect(path.split(sep)).not.toContain('..');
  });
});
