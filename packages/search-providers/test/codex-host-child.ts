// A child process for the host-mode Codex test: a host coordinator over the shared state directory,
// a search chain with the Codex provider over the fake app-server, and a few searches at once. It
// prints `{"ready":true}`, starts searching when a line arrives on stdin (so every child begins
// together after its start-up), appends each turn's interval (turn/start written → search settled)
// to a file and prints one JSON line with the outcomes.
import { appendFileSync } from 'node:fs';
import { createRunBudget, createRunDeferrals } from '@mono-agent/budget-policy';
import { createCodexAppServerClient } from '@mono-agent/codex-app-server-client';
import { createCoordinator } from '@mono-agent/host-coordination';
import { type CodexClientLike, createCodexProvider } from '../src/codex-provider.js';
import { createSearchChain } from '../src/search-chain.js';
import { FAKE_APP_SERVER_SCRIPT } from './codex-fake-app-server.js';

interface Command {
  stateDirectory: string;
  scenarioFile: string;
  intervals: string;
  queries: string[];
  /** `host` unless a control run wants the uncoordinated process mode. */
  mode?: 'host' | 'process';
}

const command = JSON.parse(process.argv[2] ?? '{}') as Command;
const preciseNow = () => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  let turnStartedAt: number | undefined;
  const client = createCodexAppServerClient({
    command: process.execPath,
    args: [FAKE_APP_SERVER_SCRIPT, command.scenarioFile],
    shutdownGrace: { stdinMs: 1_000, termMs: 500, killMs: 500 },
    onWrite: (line) => {
      if (line.includes('"turn/start"')) turnStartedAt = preciseNow();
    },
  });
  const recording: CodexClientLike = {
    readiness: (options) => client.readiness(options),
    rateLimits: () => client.rateLimits(),
    close: () => client.close(),
    async search(request) {
      try {
        return await client.search(request);
      } finally {
        const interval = { pid: process.pid, query: request.query, start: turnStartedAt, end: preciseNow() };
        turnStartedAt = undefined;
        appendFileSync(command.intervals, `${JSON.stringify(interval)}\n`);
      }
    },
  };
  const codex = createCodexProvider({ client: recording });
  const chain = createSearchChain({
    backend: 'codex',
    providers: { codex },
    coordinator: createCoordinator({ mode: command.mode ?? 'host', stateDirectory: command.stateDirectory }),
  });
  const go = new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await go;
  process.stdin.destroy();
  const startedAt = preciseNow();
  try {
    const outcomes = await Promise.all(
      command.queries.map((query) =>
        chain.search({ query }, { budget: createRunBudget(), deferrals: createRunDeferrals() }),
      ),
    );
    const summary = outcomes.map((outcome) => ({
      status: outcome.status,
      requestsUsed: outcome.requestsUsed,
      providers: outcome.providers.map((report) => report.disposition),
      error: outcome.error?.message,
    }));
    process.stdout.write(`${JSON.stringify({ startedAt, outcomes: summary })}\n`);
  } finally {
    await codex.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
