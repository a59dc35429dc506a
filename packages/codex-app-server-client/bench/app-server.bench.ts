// What one client life costs: start, readiness, close against the real `codex app-server` (when
// installed; see scripts/install-codex.sh) and against the scripted fake, whose node start-up is the
// baseline; plus a full search round (quota, scratch directory, thread, turn, cleanup) on the fake.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareWithBaseline, formatTable } from '@mono-agent/bench';
import { defaultCodexBinary } from '../scripts/generate-protocol.mjs';
import { startAppServerProcess } from '../src/app-server-process.js';
import { createCodexAppServerClient } from '../src/index.js';
import { buildInitializeParams } from '../src/search-parameters.js';
import { startSearchThread } from '../src/search-thread.js';
import { refuseServerRequest } from '../src/server-request-refusal.js';
import { createFakeHarness, happyTurn, sampleResults } from '../test/fake-app-server.js';

const binary = defaultCodexBinary();
const home = mkdtempSync(join(tmpdir(), 'codex-bench-home-'));
const realEnvironment = { ...process.env, CODEX_HOME: home, RUST_LOG: 'error' };

const fakeReadiness = async () => {
  const fake = createFakeHarness();
  await fake.client.readiness();
  await fake.dispose();
};
const fakeSearch = async () => {
  const fake = createFakeHarness({ results: sampleResults, on: { 'turn/start': happyTurn() } });
  await fake.client.search({ query: 'bench' });
  await fake.dispose();
};
const realReadiness = async () => {
  const client = createCodexAppServerClient({ command: binary, env: realEnvironment });
  await client.readiness();
  await client.close();
};

const candidates = [{ name: 'fake: start, search, close', run: fakeSearch }];
if (existsSync(binary))
  candidates.unshift({ name: 'codex 0.171.0: start, readiness, close', run: realReadiness });
else console.log(`(no codex binary at ${binary}; real-binary rows skipped)`);

await compareWithBaseline({
  title: 'codex-app-server-client: one client life',
  baseline: { name: 'fake: start, readiness, close', run: fakeReadiness },
  candidates,
  timeMs: 3_000,
});

if (existsSync(binary)) {
  // Shutdown of a process holding a loaded search thread, the case the stdin grace is sized for.
  const rows: string[][] = [];
  for (let round = 0; round < 3; round += 1) {
    const server = await startAppServerProcess({
      command: binary,
      args: ['app-server', '--disable', 'plugins', '--disable', 'apps'],
      env: realEnvironment,
      answer: refuseServerRequest,
    });
    const started = performance.now();
    await server.connection.request('initialize', buildInitializeParams('bench'));
    const initializeMs = performance.now() - started;
    server.connection.notify('initialized');
    const scratch = mkdtempSync(join(tmpdir(), 'mono-agent-codex-'));
    await startSearchThread(server.connection, 'gpt-5.6-luna', scratch);
    const closing = performance.now();
    const report = await server.shutdown();
    rows.push([
      String(round + 1),
      initializeMs.toFixed(0),
      (performance.now() - closing).toFixed(0),
      report.step,
    ]);
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log('\ncodex 0.171.0: spawn to initialize answer, and shutdown with a loaded thread');
  console.log(formatTable(['round', 'initialize ms', 'shutdown ms', 'last step'], rows));
}
rmSync(home, { recursive: true, force: true });
