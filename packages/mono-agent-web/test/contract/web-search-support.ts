// Shared setup of the WebSearch contract suite: the assembled runtime over loopback servers that
// replay recorded shapes (SearXNG JSON, DuckDuckGo and Startpage pages), and a spawn recorder that
// stands in for `codex` to prove whether a process was started.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixtureWeb } from '@mono-agent/fixture-web';
import { onTestFinished } from 'vitest';
import { resolveWebConfig } from '../../src/config/index.js';
import type { WebRuntimeOptions } from '../../src/runtime/runtime-types.js';
import type { TimingEvent } from '../../src/runtime/timing-event.js';
import { createWebRuntime } from '../../src/runtime/web-runtime.js';

const keylessFixture = (name: string) =>
  readFileSync(new URL(`../../../keyless-html/src/__fixtures__/${name}`, import.meta.url), 'utf8');
const searxFixture = (name: string) =>
  readFileSync(
    new URL(`../../../search-providers/src/__fixtures__/searx/searx-1.1.0_${name}.json`, import.meta.url),
    'utf8',
  );

/** The recorded DuckDuckGo HTML result page for the query `foo` (ten organic results). */
export const DUCKDUCKGO_FOO_PAGE = keylessFixture('lofi_duckduckgo-html-get-foo.html');
/** The recorded DuckDuckGo bot challenge, served with HTTP 202. */
export const DUCKDUCKGO_CHALLENGE_PAGE = keylessFixture('clele_challenge-202.html');
/** The recorded Startpage result page for `javascript tutorial`. */
export const STARTPAGE_PAGE = keylessFixture('websearchmcp_startpage-http.html');
/** The recorded searx answer whose results all mention "fixture result". */
export const SEARX_FIXTURE_RESULTS = searxFixture('results-local-engines');

/** A SearXNG JSON answer of the recorded shape with the given results and failed engines. */
export function searxAnswer(
  results: { url: string; title: string; content?: string }[],
  unresponsive: [string, string][] = [],
): string {
  const recorded = JSON.parse(SEARX_FIXTURE_RESULTS) as Record<string, unknown>;
  return JSON.stringify({
    ...recorded,
    number_of_results: results.length,
    results: results.map((result, index) => ({
      engine: 'fixture-json',
      engines: ['fixture-json'],
      positions: [index + 1],
      score: 1,
      category: 'general',
      content: '',
      ...result,
    })),
    unresponsive_engines: unresponsive,
  });
}

/** Serves `body` as SearXNG JSON at `/search` of the fixture web, optionally after a delay. */
export function serveSearx(
  web: FixtureWeb,
  body: string,
  options: { status?: number; delayMs?: number } = {},
) {
  return web.scenario('/search', {
    status: options.status ?? 200,
    headers: { 'content-type': 'application/json' },
    body,
    ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
  });
}

/** Serves a DuckDuckGo HTML page at `/html/`. */
export function serveDuckDuckGo(web: FixtureWeb, body = DUCKDUCKGO_FOO_PAGE, status = 200) {
  return web.scenario('/html/', { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
}

/** Options of {@link contractRuntime}. */
export interface ContractRuntimeOptions {
  /** Environment of the configuration (network, backend, budget…). */
  env?: Record<string, string>;
  /** Collects timing events. */
  events?: TimingEvent[];
  /** The `codex` executable (default: a path that does not exist, so nothing real is started). */
  codexCommand?: string;
  /** Further runtime options. */
  runtime?: Partial<Omit<WebRuntimeOptions, 'config'>>;
}

/**
 * The assembled runtime for the fixture web: SearXNG at the fixture's `/search`, the keyless engines
 * at its `/html/` and `/sp/search`, the network an allowlist of the fixture, a budget of 4, auto mode,
 * unless `env` says otherwise.
 */
export async function contractRuntime(web: FixtureWeb, options: ContractRuntimeOptions = {}) {
  const config = resolveWebConfig({
    env: {
      MONO_AGENT_NETWORK_MODE: 'allowlist',
      MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
      MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
      ...options.env,
    },
  });
  return await createWebRuntime({
    config,
    keylessEndpoints: { duckduckgo: web.url('/html/'), startpage: web.url('/sp/search') },
    codexCommand: options.codexCommand ?? join(tmpdir(), 'mono-agent-no-such-codex'),
    ...(options.events ? { onTiming: (event: TimingEvent) => options.events!.push(event) } : {}),
    ...options.runtime,
  });
}

/** Network settings under which the policy refuses chatgpt.com, so Codex must never be started. */
export const POLICIES_REFUSING_CHATGPT: readonly (readonly [string, Record<string, string>])[] = [
  ['none', { MONO_AGENT_NETWORK_MODE: 'none' }],
  ['localhost', { MONO_AGENT_NETWORK_MODE: 'localhost' }],
  [
    'an allowlist without chatgpt.com',
    { MONO_AGENT_NETWORK_MODE: 'allowlist', MONO_AGENT_NETWORK_ALLOW: 'example.com' },
  ],
];

/**
 * An executable that records that it was started, then exits without speaking the protocol. Made
 * inside a test, whose end removes its folder.
 */
export function spawnRecorder(): { command: string; spawned(): boolean } {
  const folder = mkdtempSync(join(tmpdir(), 'mono-agent-spawn-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const marker = join(folder, 'spawned');
  const command = join(folder, 'codex');
  writeFileSync(command, `#!/bin/sh\necho started > '${marker}'\nexit 3\n`);
  chmodSync(command, 0o755);
  return { command, spawned: () => existsSync(marker) };
}
