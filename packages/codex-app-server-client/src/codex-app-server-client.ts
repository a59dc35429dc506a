import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import { type AppServerProcess, type ShutdownGrace, startAppServerProcess } from './app-server-process.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './json-rpc-connection.js';
import { createQuotaCache, type QuotaStatus } from './rate-limit-quota.js';
import { checkReadiness, DEFAULT_CODEX_MODEL, type Readiness } from './readiness.js';
import { createScratchDirectory } from './scratch-directory.js';
import {
  buildInitializeParams,
  buildTurnStartParams,
  type TimeRange,
  validatePreferences,
} from './search-parameters.js';
import { enterSearchQueue } from './search-queue.js';
import { parseSearchResults, type SearchResult } from './search-results.js';
import { startSearchThread } from './search-thread.js';
import { DEFAULT_TURN_TIMEOUT_MS, runSearchTurn } from './search-turn.js';
import { refuseServerRequest } from './server-request-refusal.js';

/** The arguments `codex app-server` starts with: stdio transport, plugins and apps off. */
export const DEFAULT_APP_SERVER_ARGS: readonly string[] = [
  'app-server',
  '--disable',
  'plugins',
  '--disable',
  'apps',
];

/** The client version sent in `initialize` (Codex logs it for compliance). */
export const CLIENT_VERSION = '0.1.0';

/** How a finished search went, as reported to the admission hook. */
export type SearchAdmissionOutcome =
  | { status: 'succeeded' }
  | { status: 'skipped'; code: FailureCode }
  | { status: 'failed'; code: FailureCode }
  | { status: 'cancelled' };

/** A slot granted by the admission hook. */
export interface SearchAdmissionTicket {
  /** Gives the slot back; called exactly once, after the transport of a cancelled search is closed. */
  release(outcome: SearchAdmissionOutcome): void;
}

/** Admits one search across processes (host coordination plugs in here). */
export type SearchAdmission = (signal: AbortSignal | undefined) => Promise<SearchAdmissionTicket>;

/** Options of {@link createCodexAppServerClient}. */
export interface CodexAppServerClientOptions {
  /** The `codex` executable (default `codex` on PATH); spawned directly, never through a shell. */
  command?: string;
  /** Its arguments (default {@link DEFAULT_APP_SERVER_ARGS}). */
  args?: readonly string[];
  /** The child's environment before credential scrubbing (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The model searches run on unless a call names another (default {@link DEFAULT_CODEX_MODEL}). */
  model?: string;
  /** Per-request timeout (default {@link DEFAULT_REQUEST_TIMEOUT_MS}). */
  requestTimeoutMs?: number;
  /** Turn timeout (default {@link DEFAULT_TURN_TIMEOUT_MS}). */
  turnTimeoutMs?: number;
  /** The clock of the quota cache, epoch milliseconds (default `Date.now`). */
  now?: () => number;
  /** Cross-process admission, taken after the in-process queue and released after cleanup. */
  admit?: SearchAdmission;
  /** Overrides of the shutdown grace periods. */
  shutdownGrace?: Partial<ShutdownGrace>;
  /** Where scratch directories are made (default the OS temp directory). */
  scratchParent?: string;
  /** Observes every line written to the child; for audits and tests, never for credentials. */
  onWrite?: (line: string) => void;
}

/** One search request. */
export interface CodexSearchRequest {
  /** The query, sent byte for byte as given. */
  query: string;
  /** A preferred language tag, sent separately (advisory). */
  language?: string;
  /** A preferred time range, sent separately (advisory). */
  timeRange?: TimeRange;
  /** Overrides the client's model for this search. */
  model?: string;
  /** Cancels the search; its transport is closed before the admission is released. */
  signal?: AbortSignal;
}

/** The answer of one search. */
export interface CodexSearchResponse {
  /** The entries of the single `webSearch` item, in its order. */
  results: SearchResult[];
}

/** Options of {@link CodexAppServerClient.readiness}. */
export interface ReadinessOptions {
  /** The model that must be listed (default: the client's model). */
  model?: string;
}

/** A client of one `codex app-server` process, started on first use. */
export interface CodexAppServerClient {
  /** Runs the three readiness checks. */
  readiness(options?: ReadinessOptions): Promise<Readiness>;
  /** The quota decision, reading `account/rateLimits/read` when the cache is older than 60 s. */
  rateLimits(): Promise<QuotaStatus>;
  /** One ephemeral web-search turn; rejects with a WebToolError. */
  search(request: CodexSearchRequest): Promise<CodexSearchResponse>;
  /** Ends the process (bounded); later calls start a new one. */
  close(): Promise<void>;
}

interface Session {
  process: AppServerProcess;
}

const cancelledError = () => new WebToolError({ code: 'cancelled', message: 'the search was cancelled' });

/** Rejects a request without a query, or whose language or time range is not plain, before any work. */
function validateSearchRequest(request: CodexSearchRequest): void {
  if (typeof request.query !== 'string' || request.query.trim() === '') {
    throw new WebToolError({ code: 'validation_error', message: 'query must be a non-empty string' });
  }
  validatePreferences(request.language, request.timeRange);
}

/** How a search that threw `error` went, as the admission hook is told. */
function failedSearchOutcome(error: unknown): SearchAdmissionOutcome {
  const code = WebToolError.isInstance(error) ? error.code : 'internal_error';
  if (code === 'cancelled') return { status: 'cancelled' };
  return code === 'quota_unavailable' ? { status: 'skipped', code } : { status: 'failed', code };
}

/**
 * Settles with `work`, or rejects with `cancelled` once `signal` fires and `closeTransport` has
 * finished; `work` then fails on the closed transport and cleans up on its own.
 */
async function untilCancelled<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  closeTransport: () => Promise<void>,
): Promise<T> {
  if (signal === undefined) return work;
  work.catch(() => undefined);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(cancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } catch (error) {
    if (signal.aborted) await closeTransport();
    throw error;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** Creates a client; nothing is spawned until the first call. */
export function createCodexAppServerClient(options: CodexAppServerClientOptions = {}): CodexAppServerClient {
  const now = options.now ?? Date.now;
  const defaultModel = options.model ?? DEFAULT_CODEX_MODEL;
  const quota = createQuotaCache();
  let session: Promise<Session> | undefined;

  const startSession = async (onGone: () => void): Promise<Session> => {
    const process = await startAppServerProcess({
      command: options.command ?? 'codex',
      args: options.args ?? DEFAULT_APP_SERVER_ARGS,
      env: options.env ?? globalThis.process.env,
      answer: refuseServerRequest,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      shutdownGrace: options.shutdownGrace,
      onWrite: options.onWrite,
    });
    const { connection } = process;
    connection.onNotification((notification) => {
      if (notification.method === 'account/rateLimits/updated')
        quota.recordUpdate(notification.params, now());
    });
    connection.onClose(onGone);
    try {
      await connection.request('initialize', buildInitializeParams(CLIENT_VERSION));
      connection.notify('initialized');
    } catch (error) {
      await process.shutdown();
      throw error;
    }
    return { process };
  };

  // A crashed or failed process is forgotten, so the next call starts a fresh one.
  const ensureSession = (): Promise<Session> => {
    if (session !== undefined) return session;
    const forget = () => {
      if (session === starting) session = undefined;
    };
    const starting = startSession(forget);
    session = starting;
    starting.catch(forget);
    return starting;
  };

  const closeSession = async () => {
    const active = session;
    session = undefined;
    if (active === undefined) return;
    const result = await active.catch(() => undefined);
    await result?.process.shutdown();
  };

  const readQuota = async (active: Session): Promise<QuotaStatus> => {
    if (!quota.isFresh(now())) {
      try {
        quota.recordRead(await active.process.connection.request('account/rateLimits/read', {}), now());
      } catch {
        // Refused (signed out), unanswered or cut off: the cache cannot be refreshed, so it is not
        // trusted; the status says whether it was missing, stale or invalid.
        return { ...quota.status(now()), available: false };
      }
    }
    return quota.status(now());
  };

  const runSearch = async (request: CodexSearchRequest): Promise<CodexSearchResponse> => {
    const active = await ensureSession();
    const status = await readQuota(active);
    if (!status.available) {
      throw new WebToolError({
        code: 'quota_unavailable',
        message: `Codex search skipped: the subscription quota is ${status.reason === 'reserve' ? 'in its 10% reserve' : `unknown (${status.reason})`}`,
        details: { backend: 'codex', reason: status.reason },
        ...(status.retryAt === undefined ? {} : { retryAt: status.retryAt }),
      });
    }
    const { connection } = active.process;
    const scratch = await createScratchDirectory(options.scratchParent);
    try {
      const thread = await startSearchThread(connection, request.model ?? defaultModel, scratch.path);
      try {
        const raw = await runSearchTurn({
          connection,
          params: buildTurnStartParams(thread.id, request.query, request.language, request.timeRange),
          timeoutMs: options.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS,
        });
        return { results: parseSearchResults(raw) };
      } finally {
        await thread.release();
      }
    } finally {
      await scratch.remove();
    }
  };

  return {
    async readiness(readinessOptions = {}) {
      const active = await ensureSession();
      return checkReadiness(active.process.connection, readinessOptions.model ?? defaultModel);
    },

    async rateLimits() {
      return readQuota(await ensureSession());
    },

    async search(request) {
      validateSearchRequest(request);
      const { signal } = request;
      if (signal?.aborted) throw cancelledError();
      const leaveQueue = await enterSearchQueue(signal);
      let ticket: SearchAdmissionTicket | undefined;
      try {
        ticket = options.admit === undefined ? undefined : await options.admit(signal);
        if (signal?.aborted) throw cancelledError();
        const outcome = await untilCancelled(runSearch(request), signal, closeSession);
        ticket?.release({ status: 'succeeded' });
        ticket = undefined;
        return outcome;
      } catch (error) {
        ticket?.release(failedSearchOutcome(error));
        throw error;
      } finally {
        leaveQueue();
      }
    },

    close: closeSession,
  };
}
