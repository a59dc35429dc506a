import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findCodexBinary } from './codex-binary.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'codex-binary-test-'));
  vi.stubEnv('MONO_AGENT_CODEX_BIN', '');
  vi.stubEnv('MONO_AGENT_CODEX_CACHE', '');
  vi.stubEnv('XDG_CACHE_HOME', scratch);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(scratch, { recursive: true, force: true });
});

function placeBinary(cache: string): string {
  const binary = join(cache, 'node_modules/.bin/codex');
  mkdirSync(dirname(binary), { recursive: true });
  writeFileSync(binary, '');
  return binary;
}

describe('findCodexBinary', () => {
  it('takes MONO_AGENT_CODEX_BIN when that file exists, and nothing when it does not', () => {
    const binary = placeBinary(join(scratch, 'elsewhere'));
    vi.stubEnv('MONO_AGENT_CODEX_BIN', binary);
    expect(findCodexBinary()).toBe(binary);
    vi.stubEnv('MONO_AGENT_CODEX_BIN', join(scratch, 'missing'));
    expect(findCodexBinary()).toBeUndefined();
  });

  it('looks in the cache install-codex.sh fills for the version the client is pinned to', () => {
    const client = dirname(
      fileURLToPath(import.meta.resolve('@mono-agent/codex-app-server-client/package.json')),
    );
    const version = readFileSync(join(client, 'src/generated/protocol/CODEX_VERSION'), 'utf8').trim();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(findCodexBinary()).toBeUndefined();
    const binary = placeBinary(join(scratch, 'mono-agent-web', `codex-${version}`));
    expect(findCodexBinary()).toBe(binary);
  });

  it('looks in MONO_AGENT_CODEX_CACHE instead when it is set', () => {
    const cache = join(scratch, 'cache');
    vi.stubEnv('MONO_AGENT_CODEX_CACHE', cache);
    expect(findCodexBinary()).toBeUndefined();
    const binary = placeBinary(cache);
    expect(findCodexBinary()).toBe(binary);
  });
});
