import { WebToolError } from '@mono-agent/budget-policy';
import type {
  CodexAppServerClient,
  CodexSearchRequest,
  QuotaStatus,
  Readiness,
} from '@mono-agent/codex-app-server-client';
import type { NetworkPolicy } from '@mono-agent/net';
import { CODEX_DESTINATION, refuseUnlessPolicyAllows } from './destination-policy.js';
import { normalizeResultUrl } from './normalize-result-url.js';
import type {
  FilterSupport,
  ProviderAnswer,
  ProviderCallContext,
  ProviderLimits,
  ProviderSearchRequest,
  SearchProvider,
} from './search-provider.js';
import type { SearchResult } from './search-result.js';

/** The model Codex searches run on unless `tools.web.search.codex.model` names another. */
export const DEFAULT_CODEX_SEARCH_MODEL = 'gpt-5.6-luna';

/** The one admission scope of the ChatGPT subscription: every model shares its allowance. */
export const CODEX_SCOPE = 'codex:subscription';

/** Codex receives language and time range as a separate advisory note, never as a guarantee. */
export const CODEX_FILTER_SUPPORT: FilterSupport = { language: 'advisory', timeRange: 'advisory' };

/**
 * The subscription runs one turn at a time, in one process and across every opted-in process, with no
 * spacing beyond that. Each query spends a subscription turn, so Codex is asked the exact main query
 * once and never the alternates.
 */
export const CODEX_LIMITS: ProviderLimits = {
  host: { kind: 'search', concurrency: 1, spacingMs: 0 },
  process: [{ kind: 'search', concurrency: 1, spacingMs: 0 }],
  alternateQueries: false,
};

/** The part of the app-server client the provider uses (tests may pass their own). */
export type CodexClientLike = Pick<CodexAppServerClient, 'readiness' | 'rateLimits' | 'search' | 'close'>;

/** The readiness check that failed: the sign-in, the provider's web-search capability, the model, or the binary. */
export type CodexReadinessCheck = 'account' | 'webSearch' | 'model' | 'binary';

/** Options of {@link createCodexProvider}. */
export interface CodexProviderOptions {
  /** The model searches run on and readiness looks for ({@link DEFAULT_CODEX_SEARCH_MODEL} when omitted). */
  model?: string;
  /**
   * Strict (`backend: codex`) checks readiness before every search and never remembers a failure,
   * so signing in takes effect at once. Auto mode checks once, on the first search, and keeps the
   * answer for the provider's life, so a machine without a signed-in Codex pays the start once.
   */
  strict?: boolean;
  /** The client, or a factory called on first use; the `codex app-server` client otherwise. */
  client?: CodexClientLike | (() => CodexClientLike);
  /** The `codex` executable for the default client (`codex` on PATH when omitted). */
  command?: string;
  /** Its arguments for the default client. */
  args?: readonly string[];
  /** The child's environment for the default client (credential-looking variables are removed). */
  env?: NodeJS.ProcessEnv;
  /**
   * The run's network policy. Codex searches through chatgpt.com, so a policy that refuses it
   * (`none`, `localhost`, an allowlist without chatgpt.com) answers `policy_denied` before any
   * process starts or budget is charged. Without one, no destination check is made.
   */
  policy?: NetworkPolicy;
}

/** The Codex provider, with a way to end the `codex app-server` process it started. */
export type CodexSearchProvider = SearchProvider & {
  /** Closes the client once it has been obtained (ends its process); a no-op before the first search. */
  close(): Promise<void>;
};

const CHECK_ORDER: readonly Exclude<CodexReadinessCheck, 'binary'>[] = ['account', 'webSearch', 'model'];

function notReadyError(readiness: Readiness, model: string): WebToolError {
  const failed = CHECK_ORDER.filter((check) => !readiness[check]);
  const check = failed[0] ?? 'account';
  const fixes: Record<Exclude<CodexReadinessCheck, 'binary'>, string> = {
    account:
      'Codex is not signed in with a ChatGPT account (account/read): run `codex login` and choose "Sign in with ChatGPT"; an API key does not count',
    webSearch:
      'the Codex model provider does not offer web search (modelProvider/capabilities/read): use the default OpenAI provider signed in with `codex login`, or update the Codex CLI',
    model: `model ${JSON.stringify(model)} is not in the Codex model list (model/list): set tools.web.search.codex.model to a listed model, or update the Codex CLI and check \`codex login\` uses a ChatGPT plan`,
  };
  return new WebToolError({
    code: 'configuration_error',
    message: `Codex search is not ready: ${failed.map((entry) => fixes[entry]).join('; ')}`,
    details: { backend: 'codex', check, failedChecks: failed },
  });
}

/** A client start that failed because the binary is missing or not executable, reworded with the fix. */
function asSpawnFailure(error: unknown, command: string): WebToolError | undefined {
  if (!WebToolError.isInstance(error, 'configuration_error')) return undefined;
  const errno = error.details.errno;
  if (errno !== 'ENOENT' && errno !== 'EACCES') return undefined;
  return new WebToolError({
    code: 'configuration_error',
    message:
      errno === 'ENOENT'
        ? `the Codex CLI is not installed (${command} was not found): install it with \`npm install -g @openai/codex\`, then run \`codex login\``
        : `the Codex CLI at ${command} is not executable: reinstall it with \`npm install -g @openai/codex\``,
    cause: error,
    details: { backend: 'codex', check: 'binary', errno },
  });
}

function quotaError(status: QuotaStatus): WebToolError {
  const why =
    status.reason === 'reserve'
      ? 'a subscription quota window is at least 90% used, and the last 10% stays in reserve for your own Codex use'
      : `the subscription quota could not be read (${status.reason ?? 'missing'})`;
  return new WebToolError({
    code: 'quota_unavailable',
    message: `Codex search skipped: ${why}`,
    details: { backend: 'codex', reason: status.reason ?? 'missing' },
    ...(status.retryAt === undefined ? {} : { retryAt: status.retryAt }),
  });
}

/** Why a call was stopped: the caller's cancellation or the provider's own deadline. */
function stopError(context: ProviderCallContext, timeoutMs: number, cause?: unknown): WebToolError {
  if (context.signal?.aborted) {
    return new WebToolError({ code: 'cancelled', message: 'the Codex search was cancelled', cause });
  }
  return new WebToolError({
    code: 'timeout',
    message: `Codex search did not finish within ${timeoutMs} ms`,
    cause,
    details: { backend: 'codex', timeoutMs },
  });
}

/**
 * A provider for ChatGPT-subscription web search through `codex app-server`. The client (and its
 * process) starts only when a search reaches Codex. Readiness and quota checks are free; only the
 * search turn is charged to the run's budget. The query travels unchanged, one turn per call.
 */
export function createCodexProvider(options: CodexProviderOptions = {}): CodexSearchProvider {
  const model = options.model ?? DEFAULT_CODEX_SEARCH_MODEL;
  const strict = options.strict === true;
  const command = options.command ?? 'codex';
  let obtained: Promise<CodexClientLike> | undefined;
  // Auto mode: the first readiness answer (ready, not ready, or no binary), kept for good.
  let remembered: Promise<void> | undefined;

  const obtainClient = (): Promise<CodexClientLike> => {
    obtained ??= (async () => {
      if (typeof options.client === 'function') return options.client();
      if (options.client !== undefined) return options.client;
      // Loaded only when a search reaches Codex, so other backends never pay for it.
      const { createCodexAppServerClient } = await import('@mono-agent/codex-app-server-client');
      return createCodexAppServerClient({
        model,
        command,
        ...(options.args === undefined ? {} : { args: options.args }),
        ...(options.env === undefined ? {} : { env: options.env }),
      });
    })();
    // A factory that threw is asked again next time rather than failing the provider for good.
    const current = obtained;
    current.catch(() => {
      if (obtained === current) obtained = undefined;
    });
    return current;
  };

  const checkReadiness = async (client: CodexClientLike): Promise<void> => {
    let readiness: Readiness;
    try {
      readiness = await client.readiness({ model });
    } catch (error) {
      throw asSpawnFailure(error, command) ?? error;
    }
    if (!readiness.ready) throw notReadyError(readiness, model);
  };

  const ensureReady = (client: CodexClientLike): Promise<void> => {
    if (strict) return checkReadiness(client);
    if (remembered !== undefined) return remembered;
    const checking = checkReadiness(client);
    remembered = checking;
    // Only a readiness answer is remembered; a transport failure or cancellation is asked again.
    checking.catch((error: unknown) => {
      if (!WebToolError.isInstance(error, 'configuration_error') && remembered === checking)
        remembered = undefined;
    });
    return checking;
  };

  return {
    id: 'codex',
    scope: CODEX_SCOPE,
    filterSupport: CODEX_FILTER_SUPPORT,
    limits: CODEX_LIMITS,

    checkDestination() {
      if (options.policy !== undefined) refuseUnlessPolicyAllows(options.policy, CODEX_DESTINATION, 'codex');
    },

    async search(request: ProviderSearchRequest, context: ProviderCallContext): Promise<ProviderAnswer> {
      const timeoutMs = Math.max(1, Math.ceil(context.timeoutMs));
      if (context.signal?.aborted) throw stopError(context, timeoutMs);
      // Decided before the client exists: a refused destination never spawns `codex app-server`.
      if (options.policy !== undefined) refuseUnlessPolicyAllows(options.policy, CODEX_DESTINATION, 'codex');
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const signal =
        context.signal === undefined ? deadline.signal : AbortSignal.any([context.signal, deadline.signal]);
      const client = await obtainClient().catch((error: unknown) => {
        clearTimeout(timer);
        throw error;
      });
      // Readiness and quota calls take no signal: a stop closes the client (ending its process)
      // before the call rejects, so the chain releases admission only after the transport is gone.
      const stoppable = <T>(work: Promise<T>) =>
        untilStopped(
          work,
          signal,
          () => client.close(),
          () => stopError(context, timeoutMs),
        );
      try {
        const readiness = ensureReady(client);
        await stoppable(readiness).catch((error: unknown) => {
          // A stop closed the client while the check was still out: its answer, when the closed
          // transport gives one, is no answer, so the next search asks again.
          if (remembered === readiness && !WebToolError.isInstance(error, 'configuration_error'))
            remembered = undefined;
          throw error;
        });
        let quota: QuotaStatus;
        try {
          quota = await stoppable(client.rateLimits());
        } catch (error) {
          throw asSpawnFailure(error, command) ?? error;
        }
        // A skip is free: nothing reaches the subscription, so nothing is charged.
        if (!quota.available) throw quotaError(quota);
        context.beforeRequest();
        const searchRequest: CodexSearchRequest = {
          query: request.query,
          model,
          signal,
          ...(request.language === undefined ? {} : { language: request.language }),
          ...(request.timeRange === undefined ? {} : { timeRange: request.timeRange }),
        };
        let response: Awaited<ReturnType<CodexClientLike['search']>>;
        try {
          response = await client.search(searchRequest);
        } catch (error) {
          // The client closes its transport before it rejects a cancelled search.
          if (
            WebToolError.isInstance(error, 'cancelled') &&
            deadline.signal.aborted &&
            !context.signal?.aborted
          )
            throw stopError(context, timeoutMs, error);
          throw asSpawnFailure(error, command) ?? error;
        }
        return toAnswer(response.results, request.limit);
      } finally {
        clearTimeout(timer);
      }
    },

    async close() {
      const pending = obtained;
      if (pending === undefined) return;
      const client = await pending.catch(() => undefined);
      await client?.close();
    },
  };
}

/**
 * Settles with `work`, or, once `signal` fires, closes the client and then rejects with `stop()`, even
 * when `work` answers meanwhile. A readiness answer that was already in (`configuration_error`) still
 * wins over the stop.
 */
async function untilStopped<T>(
  work: Promise<T>,
  signal: AbortSignal,
  close: () => Promise<void>,
  stop: () => WebToolError,
): Promise<T> {
  work.catch(() => undefined);
  let closing: Promise<void> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      closing = close().catch(() => undefined);
      void closing.then(() => reject(stop()));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    const value = await Promise.race([work, stopped]);
    if (closing === undefined) return value;
    // An answer that came in while the stop was closing the client is too late: going on would start
    // the client again after the caller was told the call had stopped.
    await closing;
  } catch (error) {
    if (closing === undefined) throw error;
    await closing;
    throw WebToolError.isInstance(error, 'configuration_error') ? error : stop();
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
  throw stop();
}

function toAnswer(
  entries: readonly { title: string; url: string; snippet?: string }[],
  limit: number,
): ProviderAnswer {
  const results: SearchResult[] = [];
  for (const entry of entries) {
    if (results.length >= limit) break;
    const url = normalizeResultUrl(entry.url);
    if (url === undefined) continue;
    results.push({ url, title: entry.title, snippet: entry.snippet ?? '' });
  }
  return results.length > 0
    ? { kind: 'results', results, warnings: [] }
    : { kind: 'no_results', warnings: [] };
}
