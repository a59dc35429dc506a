import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  SHUTDOWN_KILL_GRACE_MS,
  SHUTDOWN_STDIN_GRACE_MS,
  SHUTDOWN_TERM_GRACE_MS,
  startAppServerProcess,
} from '../src/app-server-process.js';
import {
  CLIENT_VERSION,
  createCodexAppServerClient,
  DEFAULT_APP_SERVER_ARGS,
} from '../src/codex-app-server-client.js';
import { buildInitializeParams, buildThreadStartParams } from '../src/search-parameters.js';
import { startSearchThread } from '../src/search-thread.js';
import { refuseServerRequest } from '../src/server-request-refusal.js';
import { findCodexBinary } from './codex-binary.js';

// Never starts a turn: a turn needs a ChatGPT sign-in and the network.
const binary = findCodexBinary();
const SHUTDOWN_BOUND_MS = SHUTDOWN_STDIN_GRACE_MS + SHUTDOWN_TERM_GRACE_MS + SHUTDOWN_KILL_GRACE_MS;
const FAKE_KEY = 'sk-proj-REALTESTfake0123456789abcdef';

describe.skipIf(binary === undefined)('the real codex app-server, signed out and offline', () => {
  let home: string;
  let environment: NodeJS.ProcessEnv;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'codex-home-'));
    // A configured stdio MCP server, to prove the search thread disables it by name.
    writeFileSync(join(home, 'config.toml'), '[mcp_servers.fixture_docs]\ncommand = "/bin/false"\n');
    environment = { ...process.env, CODEX_HOME: home, OPENAI_API_KEY: FAKE_KEY, RUST_LOG: 'error' };
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('reports not ready only because nobody is signed in', async () => {
    const written: string[] = [];
    const client = createCodexAppServerClient({
      command: binary!,
      env: environment,
      onWrite: (line) => written.push(line),
    });
    try {
      const readiness = await client.readiness();
      expect(readiness).toEqual({
        ready: false,
        account: false,
        webSearch: true,
        // The pinned 0.171.0 catalog still lists the default model.
        model: true,
        reason: 'not signed in to Codex with a ChatGPT account',
      });
      const missing = await client.readiness({ model: 'no-such-model' });
      expect(missing.model).toBe(false);
      expect(missing.reason).toMatch(/no-such-model/);

      await expect(client.rateLimits()).resolves.toMatchObject({ available: false, reason: 'missing' });
      const error = await client.search({ query: 'anything' }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(WebToolError.isInstance(error, 'quota_unavailable')).toBe(true);
      expect(written.some((line) => line.includes('"thread/start"') || line.includes('"turn/start"'))).toBe(
        false,
      );
      expect(written.join('\n')).not.toContain(FAKE_KEY);
    } finally {
      await client.close();
    }
  });

  it('starts a thread with the production parameters and shuts down within the bound', async () => {
    const server = await startAppServerProcess({
      command: binary!,
      args: DEFAULT_APP_SERVER_ARGS,
      env: environment,
      answer: refuseServerRequest,
    });
    const scratch = mkdtempSync(join(tmpdir(), 'mono-agent-codex-'));
    const mcpStarts: unknown[] = [];
    const warnings: unknown[] = [];
    let threadStarted = false;
    server.connection.onNotification((notification) => {
      if (notification.method === 'mcpServer/startupStatus/updated') mcpStarts.push(notification.params);
      // Unknown or rejected config overrides would show up as warnings once a thread starts.
      if (threadStarted && /warning/i.test(notification.method)) warnings.push(notification);
    });
    try {
      await expect(server.connection.request('account/read', { refreshToken: false })).rejects.toMatchObject({
        code: 'protocol_error',
        message: expect.stringMatching(/Not initialized/),
      });
      await server.connection.request('initialize', buildInitializeParams(CLIENT_VERSION));
      server.connection.notify('initialized');
      // The child sees no credential variable (read from the kernel, not from our own bookkeeping;
      // read once it answers, since a process still in exec shows an empty environment).
      const childEnvironment = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
      expect(childEnvironment).toContain(`CODEX_HOME=${home}`);
      expect(
        childEnvironment.some((entry) => entry.startsWith('OPENAI_API_KEY=') || entry.includes(FAKE_KEY)),
      ).toBe(false);
      await expect(server.connection.request('no/such/method', {})).rejects.toMatchObject({
        code: 'protocol_error',
      });

      threadStarted = true;
      const thread = await startSearchThread(server.connection, 'gpt-5.6-luna', scratch);
      expect(thread.disabledMcpServers).toEqual(['fixture_docs']);
      expect(thread.response).toMatchObject({
        thread: { ephemeral: true, path: null },
        cwd: scratch,
        instructionSources: [],
        approvalPolicy: 'never',
        sandbox: { type: 'readOnly' },
      });
      await expect(
        server.connection.request('turn/interrupt', { threadId: thread.id, turnId: 'no-turn' }),
      ).rejects.toMatchObject({ code: 'protocol_error' });
      await thread.release();
      expect(mcpStarts).toEqual([]);

      // Control: the same thread without the per-name override does start the configured server.
      const control = (await server.connection.request(
        'thread/start',
        buildThreadStartParams('gpt-5.6-luna', scratch, []),
      )) as { thread: { id: string } };
      await vi.waitFor(
        () =>
          expect(mcpStarts).toContainEqual(
            expect.objectContaining({ threadId: control.thread.id, name: 'fixture_docs' }),
          ),
        { timeout: 10_000 },
      );
      expect(warnings).toEqual([]);
    } finally {
      const started = performance.now();
      const report = await server.shutdown();
      const elapsed = performance.now() - started;
      rmSync(scratch, { recursive: true, force: true });
      console.info(
        `codex app-server shutdown with a loaded thread: ${report.step} after ${Math.round(elapsed)} ms`,
      );
      expect(report.step === 'stdin' || report.step === 'sigterm').toBe(true);
      expect(elapsed).toBeLessThan(SHUTDOWN_BOUND_MS);
    }
  });

  it('still matches the committed protocol files (drift check)', () => {
    const out = mkdtempSync(join(tmpdir(), 'codex-protocol-drift-'));
    try {
      const script = join(import.meta.dirname, '../scripts/generate-protocol.mjs');
      execFileSync(process.execPath, [script, '--binary', binary!, '--out', out], { stdio: 'pipe' });
      const committed = join(import.meta.dirname, '../src/generated/protocol');
      const difference = (() => {
        try {
          return execFileSync('diff', ['-r', committed, out], { encoding: 'utf8' });
        } catch (error) {
          return String((error as { stdout?: string }).stdout ?? error);
        }
      })();
      expect(difference, 'run `pnpm --filter @mono-agent/codex-app-server-client generate:protocol`').toBe(
        '',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
