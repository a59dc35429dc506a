import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TimingEvent, WebConfig, WebRun, WebRuntime } from '@mono-agent/web';

/** Largest request body the console accepts: tool arguments are small. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** The addresses the console may listen on: loopback only, never a public interface. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1']);

const PUBLIC_DIRECTORY = fileURLToPath(new URL('../public/', import.meta.url));
const ASSETS: Record<string, string> = {
  '/': 'index.html',
  '/console.js': 'console.js',
  '/console-api.js': 'console-api.js',
  '/status-panel.js': 'status-panel.js',
  '/markdown-preview.js': 'markdown-preview.js',
  '/console.css': 'console.css',
};
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** Only the console's own files run; nothing a fetched page contains can load or execute. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Options of {@link startConsole}. */
export interface ConsoleOptions {
  /** The runtime the console drives; its runs are the console's runs. */
  runtime: WebRuntime;
  /** Port to listen on (0 picks a free one). */
  port?: number;
  /** Loopback address to listen on (default 127.0.0.1). */
  host?: string;
  /** What the console runs against, shown in the page. */
  description: string;
  /** Example queries the page offers, each with what it shows. */
  suggestedQueries?: readonly SuggestedQuery[];
  /** Timing events of the runtime, in the order they were emitted (the console shows each call's). */
  timings: TimingEvent[];
}

/** An example query the page offers. */
export interface SuggestedQuery {
  /** The query text. */
  query: string;
  /** What running it shows, in a few words. */
  shows: string;
}

/**
 * The most requests one search of a plain query (no alternates) can charge to the run's budget: one
 * per backend of the chain the configuration selects, less those the network policy refuses without
 * a lookup (public engines under `none` or `localhost`, which are never sent and so never charged).
 */
export function searchSpendBound(config: WebConfig): number {
  const { backend, searxng, ollama } = config.search;
  const publicBlocked = config.network.mode === 'none' || config.network.mode === 'localhost';
  if (config.network.mode === 'none') return 0;
  if (backend === 'searxng' || backend === 'ollama') return 1;
  if (backend === 'codex') return publicBlocked ? 0 : 1;
  const keyless = publicBlocked ? 0 : 2;
  if (backend === 'keyless') return keyless;
  // auto: the configured operator endpoints, then Codex, then the two keyless engines.
  return (searxng === undefined ? 0 : 1) + (ollama === undefined ? 0 : 1) + (publicBlocked ? 0 : 1) + keyless;
}

/** A running console. */
export interface RunningConsole {
  /** The address to open in a browser. */
  url: string;
  /** Stops serving and closes the current run. */
  close(): Promise<void>;
}

interface RunState {
  run: WebRun;
  startedAt: number;
  number: number;
  searches: number;
  lastBudget?: { used: number; remaining: number };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/json'))
    throw new HttpError(415, 'send the arguments as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BODY_BYTES)
      throw new HttpError(413, `the request body is over ${MAX_REQUEST_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown) {
  const body = JSON.stringify(value);
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
}

/**
 * Serves the research console: the page, and a small JSON API over one `@mono-agent/web` runtime.
 * Tool arguments go to the run exactly as a model's would, so the tools validate them.
 */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`the console listens on loopback only, not on ${host}`);
  const { runtime, timings } = options;
  let runNumber = 0;
  const newRun = (): RunState => ({
    run: runtime.startRun(),
    startedAt: Date.now(),
    number: ++runNumber,
    searches: 0,
  });
  let current = newRun();
  let server: Server | undefined;
  let allowedHosts = new Set<string>();

  /** The timing events one call emitted. */
  const callWithTimings = async <Value>(work: () => Promise<Value>) => {
    const from = timings.length;
    const started = performance.now();
    const value = await work();
    return { value, elapsedMs: Math.round(performance.now() - started), timing: timings.slice(from) };
  };

  const runSummary = () => ({
    number: current.number,
    id: current.run.id,
    startedAt: current.startedAt,
    searches: current.searches,
    budget: {
      limit: runtime.config.search.maxRequestsPerRun,
      used: current.lastBudget?.used ?? 0,
      remaining: current.lastBudget?.remaining ?? runtime.config.search.maxRequestsPerRun,
    },
  });

  const api: Record<string, (request: IncomingMessage) => Promise<unknown>> = {
    'GET /api/info': async () => ({
      description: options.description,
      // Each suggestion says what it may spend; one that could use up the whole budget is not offered.
      suggestedQueries: (options.suggestedQueries ?? [])
        .map((suggestion) => ({ ...suggestion, maxRequests: searchSpendBound(runtime.config) }))
        .filter((suggestion) => suggestion.maxRequests < runtime.config.search.maxRequestsPerRun),
      coordination: runtime.config.coordination,
      backend: runtime.config.search.backend,
      network: runtime.config.network.mode,
      render: runtime.config.fetch.render,
      run: runSummary(),
    }),
    'POST /api/search': async (request) => {
      const args = await readJsonBody(request);
      const state = current;
      const { value, elapsedMs, timing } = await callWithTimings(() => state.run.webSearch(args));
      state.searches += 1;
      const data = value.data as { requestsUsed?: number; requestsRemaining?: number } | undefined;
      if (data?.requestsUsed !== undefined && data.requestsRemaining !== undefined) {
        state.lastBudget = { used: data.requestsUsed, remaining: data.requestsRemaining };
      }
      return { ...value, elapsedMs, timing, run: runSummary() };
    },
    'POST /api/fetch': async (request) => {
      const args = await readJsonBody(request);
      const state = current;
      const { value, elapsedMs, timing } = await callWithTimings(() => state.run.webFetch(args));
      return { ...value, elapsedMs, timing, run: runSummary() };
    },
    'POST /api/run': async () => {
      const previous = current;
      current = newRun();
      await previous.run.close();
      return { run: runSummary() };
    },
    'GET /api/status': async () => await runtime.coordinator.status(),
    'POST /api/reset': async () => await runtime.coordinator.reset(),
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // A page on another site must not reach the console through a name that resolves to loopback.
    if (!allowedHosts.has(request.headers.host ?? '')) {
      throw new HttpError(421, 'unexpected Host header: open the console by the address it printed');
    }
    const url = new URL(request.url ?? '/', 'http://console.invalid');
    const route = `${request.method} ${url.pathname}`;
    const handler = api[route];
    if (handler !== undefined) {
      if (request.method === 'POST') {
        const origin = request.headers.origin;
        if (origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, ''))) {
          throw new HttpError(403, 'requests from other origins are refused');
        }
      }
      sendJson(response, 200, await handler(request));
      return;
    }
    const asset = request.method === 'GET' ? ASSETS[url.pathname] : undefined;
    if (asset === undefined) throw new HttpError(404, 'not found');
    const body = await readFile(join(PUBLIC_DIRECTORY, asset));
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': CONTENT_TYPES[extname(asset)] ?? 'application/octet-stream',
    });
    response.end(body);
  };

  server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) sendJson(response, status, { error: message });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server?.once('error', reject);
    server?.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  allowedHosts = new Set([authority, `localhost:${port}`]);
  return {
    url: `http://${authority}/`,
    async close() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        server?.closeAllConnections();
      });
      await current.run.close();
    },
  };
}
