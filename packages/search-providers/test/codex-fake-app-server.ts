// Drives the scripted `codex app-server` stand-in of @mono-agent/codex-app-server-client (its
// test/fake-app-server.mjs, which replays shapes recorded from Codex 0.171.0) from this package's tests.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CodexAppServerClient,
  type CodexAppServerClientOptions,
  createCodexAppServerClient,
} from '@mono-agent/codex-app-server-client';

/** The fake app-server script. */
export const FAKE_APP_SERVER_SCRIPT = fileURLToPath(
  new URL('../../codex-app-server-client/test/fake-app-server.mjs', import.meta.url),
);

/** The recorded protocol shapes the fake replays (`live` from the wire, `schema` from the protocol). */
export const shapes = JSON.parse(
  readFileSync(
    new URL('../../codex-app-server-client/test/__fixtures__/app-server-shapes.json', import.meta.url),
    'utf8',
  ),
) as { live: Record<string, unknown>; schema: Record<string, Record<string, unknown>> };

/** A JSON-RPC message as the fake received it. */
export interface ReceivedMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** One scripted fake: where its scenario and logs live, and clients wired to it. */
export interface CodexFake {
  /** The scenario file the fake re-reads before every request. */
  readonly scenarioFile: string;
  /** Replaces the scenario (the log is kept, so counts span scenarios). */
  setScenario(scenario: Record<string, unknown>): void;
  /** Every message the fake processes received, across restarts. */
  received(): ReceivedMessage[];
  /** The requests received for one method. */
  requests(method: string): ReceivedMessage[];
  /** How many fake processes have started (each sends `initialize` once). */
  starts(): number;
  /** The process id of the latest fake process, or undefined before any started. */
  pid(): number | undefined;
  /** Client options that start this fake instead of `codex`. */
  clientOptions(): CodexAppServerClientOptions;
  /** A client wired to this fake, with short timeouts and shutdown grace. */
  createClient(options?: CodexAppServerClientOptions): CodexAppServerClient;
  /** Removes the temporary files. */
  dispose(): void;
}

/** Creates a fake app-server scenario in a temporary folder; nothing starts until a client needs it. */
export function createCodexFake(scenario: Record<string, unknown> = {}): CodexFake {
  const folder = mkdtempSync(join(tmpdir(), 'codex-provider-fake-'));
  const log = join(folder, 'received.jsonl');
  const envDump = join(folder, 'env.json');
  const scenarioFile = join(folder, 'scenario.json');
  writeFileSync(log, '');
  const setScenario = (next: Record<string, unknown>) =>
    writeFileSync(scenarioFile, JSON.stringify({ log, envDump, ...next }));
  setScenario(scenario);
  const received = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as ReceivedMessage);
  const requests = (method: string) =>
    received().filter((message) => message.method === method && message.id !== undefined);
  const clientOptions = (): CodexAppServerClientOptions => ({
    command: process.execPath,
    args: [FAKE_APP_SERVER_SCRIPT, scenarioFile],
  });
  return {
    scenarioFile,
    setScenario,
    received,
    requests,
    starts: () => requests('initialize').length,
    pid: () =>
      existsSync(envDump) ? (JSON.parse(readFileSync(envDump, 'utf8')) as { pid: number }).pid : undefined,
    clientOptions,
    createClient: (options = {}) =>
      createCodexAppServerClient({
        ...clientOptions(),
        requestTimeoutMs: 5_000,
        turnTimeoutMs: 5_000,
        shutdownGrace: { stdinMs: 1_000, termMs: 500, killMs: 500 },
        ...options,
      }),
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** The notifications of a turn whose one search item completes with the scenario's `results`. */
export function happyTurn(): Record<string, unknown>[] {
  const s = shapes.schema;
  return [
    { send: s.turnStarted },
    { send: s.userMessageCompleted },
    { send: s.searchStarted },
    { send: s.searchCompleted },
    { send: s.agentMessageCompleted },
    { send: s.turnCompleted },
  ];
}

/** The same turn, holding the search item open for `delayMs` first. */
export function slowTurn(delayMs: number): Record<string, unknown>[] {
  const s = shapes.schema;
  return [
    { send: s.turnStarted },
    { send: s.searchStarted },
    { delay: delayMs },
    { send: s.searchCompleted },
    { send: s.turnCompleted },
  ];
}

/** Whether a process is still alive. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
