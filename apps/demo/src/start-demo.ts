import { lookup } from 'node:dns/promises';
import {
  createWebRuntime,
  loadWebConfig,
  resolveWebConfig,
  type TimingEvent,
  type WebConfig,
} from '@mono-agent/web';
import { type SuggestedQuery, startConsole } from './console-server.js';
import { OFFLINE_QUERIES, type OfflineWeb, startOfflineWeb } from './offline-web.js';

/** Timing events the console keeps for showing each call's own. */
const TIMING_EVENTS_KEPT = 1000;

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Serve the fixture web and a local searx even when the public web is reachable. */
  fixtures?: boolean;
  /** Loopback port of the console (0: a free one). */
  port?: number;
  /** Configuration file for the public-web mode. */
  configFile?: string;
  /** Environment for the public-web mode's configuration (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where to say what is happening. */
  print?: (line: string) => void;
  /**
   * Offline only: share limits and cooldowns through host state kept in this directory (`host`
   * coordination), so cooldowns show in the coordination panel; default `process` coordination.
   */
  hostStateDirectory?: string;
}

/** A running demonstration: the console and whatever stands in for the web. */
export interface RunningDemo {
  /** The console's address. */
  url: string;
  /** Whether the offline stand-in web is in use. */
  offline: OfflineWeb | undefined;
  /** Stops the console, the runtime, searx and the fixture web. Safe to call twice. */
  close(): Promise<void>;
}

async function publicWebReachable(): Promise<boolean> {
  try {
    await lookup('html.duckduckgo.com');
    return true;
  } catch {
    return false;
  }
}

/** Starts the research console over the public web, or offline over the fixture web and a local searx. */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const print = options.print ?? (() => {});
  const timings: TimingEvent[] = [];
  let offline: OfflineWeb | undefined;
  let description: string;
  let suggestedQueries: SuggestedQuery[];
  let config: WebConfig;
  if (!options.fixtures && (await publicWebReachable())) {
    config = await loadWebConfig({
      env: options.env ?? process.env,
      ...(options.configFile === undefined ? {} : { file: options.configFile }),
    });
    description = 'the public web';
    suggestedQueries = [{ query: 'HTTP Retry-After header semantics', shows: 'a search of the public web' }];
  } else {
    print(
      options.fixtures
        ? 'demo: --fixtures given: serving the loopback fixture web.'
        : 'demo: this machine cannot reach the public web (no DNS answer for html.duckduckgo.com), so the console runs against the loopback fixture web and a local searx. `pnpm demo -- --fixtures` chooses that directly.',
    );
    offline = await startOfflineWeb();
    config = resolveWebConfig({
      env: {
        ...offline.env,
        ...(options.hostStateDirectory === undefined ? {} : { MONO_AGENT_WEB_COORDINATION: 'host' }),
      },
    });
    description = offline.description;
    suggestedQueries = [
      { query: OFFLINE_QUERIES.found, shows: 'results: it matches the fixture pages' },
      { query: OFFLINE_QUERIES.blocked, shows: "a blocked backend: searx's engines throttle and CAPTCHA" },
    ];
  }
  try {
    const runtime = await createWebRuntime({
      config,
      ...(options.hostStateDirectory === undefined ? {} : { stateDirectory: options.hostStateDirectory }),
      onTiming: (event) => {
        timings.push(event);
        if (timings.length > TIMING_EVENTS_KEPT) timings.splice(0, timings.length - TIMING_EVENTS_KEPT);
      },
    });
    const served = await startConsole({
      runtime,
      ...(options.port === undefined ? {} : { port: options.port }),
      description,
      suggestedQueries,
      timings,
    });
    let closed = false;
    return {
      url: served.url,
      offline,
      async close() {
        if (closed) return;
        closed = true;
        await served.close();
        await runtime.close();
        await offline?.close();
      },
    };
  } catch (error) {
    await offline?.close();
    throw error;
  }
}
