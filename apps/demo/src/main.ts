// `pnpm demo`: one search and one fetch, printed exactly as a model reads them. With the public web
// reachable it uses the keyless engines; without it (or with --fixtures) it says so and runs the same
// flow against the loopback fixture web.
import { lookup } from 'node:dns/promises';
import { createWebRuntime, resolveWebConfig } from '@mono-agent/web';
import { FIXTURE_QUERY, startFixtureResearchWeb } from './fixture-setup.js';
import { runResearchSession } from './research-session.js';

const print = (text: string) => process.stdout.write(text);
const forceFixtures = process.argv.includes('--fixtures');

async function publicWebReachable(): Promise<boolean> {
  try {
    await lookup('html.duckduckgo.com');
    return true;
  } catch {
    return false;
  }
}

async function runPublic(): Promise<boolean> {
  const config = resolveWebConfig({ env: process.env });
  const runtime = await createWebRuntime({ config });
  const run = runtime.startRun();
  try {
    return await runResearchSession({ run, query: 'HTTP Retry-After header semantics', print });
  } finally {
    await run.close();
  }
}

async function runFixtures(): Promise<boolean> {
  const web = await startFixtureResearchWeb();
  try {
    const config = resolveWebConfig({
      env: {
        MONO_AGENT_NETWORK_MODE: 'allowlist',
        MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      },
    });
    const runtime = await createWebRuntime({ config });
    const run = runtime.startRun();
    try {
      return await runResearchSession({ run, query: FIXTURE_QUERY, print });
    } finally {
      await run.close();
    }
  } finally {
    await web.close();
  }
}

let succeeded: boolean;
if (!forceFixtures && (await publicWebReachable())) {
  print(
    'mono-agent-web demo: searching the public web (keyless engines; set MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT to use your SearXNG)\n',
  );
  succeeded = await runPublic();
} else {
  print(
    forceFixtures
      ? 'mono-agent-web demo: --fixtures given, using the loopback fixture web.\n'
      : 'mono-agent-web demo: this machine cannot reach the public web (no DNS answer for html.duckduckgo.com), so the same flow runs against the loopback fixture web instead. Run `pnpm demo -- --fixtures` to choose that directly.\n',
  );
  succeeded = await runFixtures();
}
print(
  succeeded
    ? '\ndemo finished: one search, one fetch.\n'
    : '\ndemo finished, but a call failed (see above).\n',
);
process.exitCode = succeeded ? 0 : 1;
