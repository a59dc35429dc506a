import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CodexAppServerClient,
  type CodexAppServerClientOptions,
  createCodexAppServerClient,
} from '../src/codex-app-server-client.js';
import shapes from './__fixtures__/app-server-shapes.json' with { type: 'json' };

/** The recorded shapes the fake replays. */
export { shapes };

const script = join(dirname(fileURLToPath(import.meta.url)), 'fake-app-server.mjs');

/** A JSON-RPC message as the fake saw it. */
export interface LoggedMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown> & { [key: string]: unknown };
  result?: unknown;
  error?: unknown;
}

/** A client wired to the fake, with the fake's view of the exchange. */
export interface FakeHarness {
  client: CodexAppServerClient;
  /** Every line the client wrote, as the client wrote it. */
  written: string[];
  /** The messages the fake received, parsed. */
  received(): LoggedMessage[];
  /** The requests the fake received for one method. */
  requests(method: string): LoggedMessage[];
  /** The fake's environment at start. */
  childEnvironment(): Record<string, string>;
  /** The fake's process id. */
  childPid(): number;
  /** Replaces the scenario (the fake re-reads it on every request) and clears both logs. */
  setScenario(scenario: Record<string, unknown>): void;
  /** Closes the client and removes the temp files. */
  dispose(): Promise<void>;
}

/** Starts a client against the scripted fake app-server. */
export function createFakeHarness(
  scenario: Record<string, unknown> = {},
  options: CodexAppServerClientOptions = {},
): FakeHarness {
  const folder = mkdtempSync(join(tmpdir(), 'codex-fake-'));
  const log = join(folder, 'received.jsonl');
  const envDump = join(folder, 'env.json');
  const scenarioFile = join(folder, 'scenario.json');
  const setScenario = (next: Record<string, unknown>) => {
    writeFileSync(log, '');
    writeFileSync(scenarioFile, JSON.stringify({ log, envDump, ...next }));
    written.length = 0;
  };
  const written: string[] = [];
  setScenario(scenario);
  const client = createCodexAppServerClient({
    command: process.execPath,
    args: [script, scenarioFile],
    requestTimeoutMs: 5_000,
    turnTimeoutMs: 5_000,
    shutdownGrace: { stdinMs: 2_000, termMs: 1_000, killMs: 1_000 },
    ...options,
    onWrite: (line) => {
      written.push(line);
      options.onWrite?.(line);
    },
  });
  const received = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as LoggedMessage];
        } catch {
          return [];
        }
      });
  return {
    client,
    written,
    received,
    requests: (method) =>
      received().filter((message) => message.method === method && message.id !== undefined),
    childEnvironment: () =>
      (JSON.parse(readFileSync(envDump, 'utf8')) as { env: Record<string, string> }).env,
    setScenario,
    childPid: () => (JSON.parse(readFileSync(envDump, 'utf8')) as { pid: number }).pid,
    async dispose() {
      await client.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The turn events of a search that succeeds with `results`. */
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

/** Results in the shape the tests assume for `webSearch.results` entries. */
export const sampleResults = [
  {
    title: 'Async functions in traits',
    url: 'https://blog.rust-lang.org/2023/12/21/async-fn-rpit-in-traits.html',
    snippet: 'Stabilized in Rust 1.75.',
  },
  { title: 'RFC 3185', url: 'https://rust-lang.github.io/rfcs/3185-static-async-fn-in-trait.html' },
];
