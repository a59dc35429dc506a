import { randomUUID } from 'node:crypto';
import {
  createRunBudget,
  createRunDeferrals,
  type FailureCode,
  WebToolError,
} from '@mono-agent/budget-policy';
import type { Coordinator } from '@mono-agent/host-coordination';
import type { NetworkPolicy } from '@mono-agent/net';
import {
  type CodexSearchProvider,
  type ConfiguredProviders,
  createCodexProvider,
  createDuckDuckGoProvider,
  createOllamaProvider,
  createSearchCache,
  createSearchChain,
  createSearxngProvider,
  createStartpageProvider,
  type SearchChain,
  type SearchOutcome,
} from '@mono-agent/search-providers';
import {
  type ArtifactSink,
  createFileArtifactSink,
  DEFAULT_FETCH_OUTPUT_CHARS,
  type FetchOutcome,
  guardToolOutput,
  parseToolArguments,
  renderFetchOutcome,
  renderSearchOutcome,
  WebFetchInput,
  WebSearchInput,
} from '@mono-agent/tool-adapters';
import type { WebConfig } from '../config/index.js';
import { createFetchAdmission } from './fetch-admission.js';
import type { TimingEvent } from './timing-event.js';

/** The one deadline of a WebFetch call: admission, redirects, retry waits and the body. */
export const FETCH_DEADLINE_MS = 45_000;

/** The result of one tool call: the text the model reads, and whether it is an error. */
export interface ToolCallResult {
  /** Rendered, bounded, framed text. */
  text: string;
  /** Whether the call failed (the text then names only a category). */
  isError: boolean;
  /** The failure category, when the call failed. */
  code?: FailureCode;
  /** The outcome as data (a `SearchOutcome`, or the fetch summary), for hosts and `--json`. */
  data?: unknown;
}

/** Options of {@link createWebRuntime}. */
export interface WebRuntimeOptions {
  /** The loaded configuration. */
  config: WebConfig;
  /** A coordinator to share (default: one for `config.coordination`). */
  coordinator?: Coordinator;
  /** Receives one bounded event per tool call. */
  onTiming?: (event: TimingEvent) => void;
  /** The environment the Ollama key variable is read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides of the keyless engines' endpoints (tests and demos point them at a local replay). */
  keylessEndpoints?: { duckduckgo?: string; startpage?: string };
  /** Host state directory for `host` coordination (default `~/.mono-agent/web-control`). */
  stateDirectory?: string;
  /** The `codex` executable for subscription search (default `codex` on the PATH). */
  codexCommand?: string;
}

/** One model run: its own budget, deferrals, in-flight work and document cache. */
export interface WebRun {
  /** A random id, naming the run's artifact folder. */
  readonly id: string;
  /** Runs WebSearch with model-supplied arguments. */
  webSearch(args: unknown, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  /** Runs WebFetch with model-supplied arguments. */
  webFetch(args: unknown, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  /** Ends the run: cancels what is in flight, forgets its caches and stops its Codex child process. Safe to call twice. */
  close(): Promise<void>;
}

/** The host-level runtime: one coordinator and one search cache per process. */
export interface WebRuntime {
  /** The configuration in force. */
  readonly config: WebConfig;
  /** The coordinator (for `web-control status` / `reset`). */
  readonly coordinator: Coordinator;
  /** Starts a run. */
  startRun(): WebRun;
  /** Closes every run still open. */
  close(): Promise<void>;
}

function networkPolicy(config: WebConfig): NetworkPolicy {
  return config.network.mode === 'allowlist'
    ? { mode: 'allowlist', allow: [...config.network.allow] }
    : { mode: config.network.mode };
}

function providersFor(
  options: WebRuntimeOptions,
  policy: NetworkPolicy,
): { providers: ConfiguredProviders; codex?: CodexSearchProvider } {
  const { search } = options.config;
  const providers: ConfiguredProviders = {};
  let codex: CodexSearchProvider | undefined;
  if (search.backend === 'auto' || search.backend === 'codex') {
    // Spawned only when a search reaches it; in auto mode an unavailable Codex is found out once.
    codex = createCodexProvider({
      model: search.codex.model,
      strict: search.backend === 'codex',
      ...(options.codexCommand === undefined ? {} : { command: options.codexCommand }),
    });
    providers.codex = codex;
  }
  if (search.searxng !== undefined) {
    providers.searxng = createSearxngProvider({ endpoint: search.searxng.endpoint, policy });
  }
  if (search.ollama !== undefined || search.backend === 'ollama') {
    providers.ollama = createOllamaProvider({
      policy,
      ...(search.ollama?.baseUrl === undefined ? {} : { baseUrl: search.ollama.baseUrl }),
      ...(search.ollama?.apiKeyEnv === undefined ? {} : { apiKeyEnv: search.ollama.apiKeyEnv }),
      ...(search.ollama?.trustPublicUrl === undefined
        ? {}
        : { trustPublicUrl: search.ollama.trustPublicUrl }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  }
  const endpoints = options.keylessEndpoints ?? {};
  providers.duckduckgo = createDuckDuckGoProvider({
    policy,
    ...(endpoints.duckduckgo === undefined ? {} : { endpoint: endpoints.duckduckgo }),
  });
  providers.startpage = createStartpageProvider({
    policy,
    ...(endpoints.startpage === undefined ? {} : { endpoint: endpoints.startpage }),
  });
  return codex === undefined ? { providers } : { providers, codex };
}

/**
 * Builds the host-level runtime from a loaded configuration. The coordinator and the process cache
 * of successful searches live here; everything else belongs to a run.
 */
export async function createWebRuntime(
  configOrOptions: WebConfig | WebRuntimeOptions,
  extraOptions: Omit<WebRuntimeOptions, 'config'> = {},
): Promise<WebRuntime> {
  // Both `createWebRuntime(config)` and `createWebRuntime({ config, ...options })` are accepted.
  const options: WebRuntimeOptions =
    'config' in configOrOptions ? configOrOptions : { ...extraOptions, config: configOrOptions };
  const { config } = options;
  const coordinator =
    options.coordinator ??
    (await import('@mono-agent/host-coordination')).createCoordinator({
      mode: config.coordination,
      ...(options.stateDirectory === undefined ? {} : { stateDirectory: options.stateDirectory }),
    });
  const policy = networkPolicy(config);
  const cache = createSearchCache<SearchOutcome>();
  const sink: ArtifactSink | undefined =
    config.artifacts === undefined ? undefined : createFileArtifactSink({ directory: config.artifacts.dir });
  const extract = await import('@mono-agent/extract');
  const openRuns = new Set<WebRun>();
  return {
    config,
    coordinator,
    startRun() {
      // Providers belong to the run, so a Codex child process started by one run ends with it; the
      // cache and coordinator are shared by every run of the process.
      const { providers, codex } = providersFor(options, policy);
      const chain = createSearchChain({ backend: config.search.backend, providers, coordinator, cache });
      const run = startRun({ options, coordinator, policy, chain, codex, sink, extract });
      openRuns.add(run);
      const close = run.close.bind(run);
      return Object.assign(run, {
        async close() {
          openRuns.delete(run);
          await close();
        },
      });
    },
    async close() {
      await Promise.all([...openRuns].map((run) => run.close()));
    },
  };
}

interface RunDependencies {
  options: WebRuntimeOptions;
  coordinator: Coordinator;
  policy: NetworkPolicy;
  chain: SearchChain;
  codex: CodexSearchProvider | undefined;
  sink: ArtifactSink | undefined;
  extract: typeof import('@mono-agent/extract');
}

function startRun(dependencies: RunDependencies): WebRun {
  const { options, coordinator, policy, chain, codex, sink, extract } = dependencies;
  const id = randomUUID();
  const budget = createRunBudget({ limit: options.config.search.maxRequestsPerRun });
  const deferrals = createRunDeferrals();
  const documents = extract.createDocumentCache();
  const runController = new AbortController();
  const inFlight = new Map<string, Promise<unknown>>();
  let closed = false;

  const emit = (event: TimingEvent) => {
    try {
      options.onTiming?.(event);
    } catch {
      // A broken observer must not break the tool call it observes.
    }
  };
  const signalFor = (signal: AbortSignal | undefined) =>
    signal === undefined ? runController.signal : AbortSignal.any([runController.signal, signal]);
  const ensureOpen = () => {
    if (closed) throw new WebToolError({ code: 'cancelled', message: 'this run is closed' });
  };
  const guarded = async (toolName: string, text: string, isError: boolean) => {
    const result = await guardToolOutput([{ type: 'text', text }], {
      runId: id,
      toolName,
      ...(sink ? { sink } : {}),
    });
    const block = result.blocks[0];
    return { text: block?.type === 'text' ? block.text : text, isError, truncated: result.truncated };
  };
  /** Identical concurrent calls in one run share one execution. */
  const share = <Value>(key: string, work: () => Promise<Value>): Promise<Value> => {
    const running = inFlight.get(key) as Promise<Value> | undefined;
    if (running !== undefined) return running;
    const promise = work().finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  };

  return {
    id,
    async webSearch(args, callOptions = {}) {
      ensureOpen();
      const startedAt = performance.now();
      const parsed = parseToolArguments(WebSearchInput, args);
      if (!parsed.ok)
        return {
          text: `WebSearch status: error | error: validation_error\n${parsed.message}`,
          isError: true,
        };
      const value = parsed.value;
      const input = {
        query: value.query,
        ...(value.alternate_queries === undefined ? {} : { alternateQueries: value.alternate_queries }),
        ...(value.limit === undefined ? {} : { limit: value.limit }),
        ...(value.domains === undefined ? {} : { domains: value.domains }),
        ...(value.exclude_domains === undefined ? {} : { excludeDomains: value.exclude_domains }),
        ...(value.language === undefined ? {} : { language: value.language }),
        ...(value.time_range === undefined ? {} : { timeRange: value.time_range }),
      };
      const usedBefore = budget.requestsUsed;
      let outcome: SearchOutcome;
      try {
        outcome = await share(`search:${JSON.stringify(input)}`, () =>
          chain.search(input, { budget, deferrals, signal: signalFor(callOptions.signal) }),
        );
      } catch (error) {
        const code: FailureCode = WebToolError.isInstance(error) ? error.code : 'internal_error';
        const message =
          WebToolError.isInstance(error) && code === 'validation_error' ? `\n${error.message}` : '';
        emit({
          tool: 'WebSearch',
          status: 'error',
          errorCode: code,
          durationMs: performance.now() - startedAt,
          cacheHit: false,
          truncated: false,
        });
        return { text: `WebSearch status: error | error: ${code}${message}`, isError: true, code };
      }
      const result = await guarded('WebSearch', renderSearchOutcome(outcome), outcome.status === 'error');
      emit({
        tool: 'WebSearch',
        status: outcome.status === 'results' ? 'ok' : outcome.status,
        ...(outcome.error === undefined ? {} : { errorCode: outcome.error.code }),
        durationMs: performance.now() - startedAt,
        ...(outcome.backend === undefined ? {} : { backend: outcome.backend }),
        requests: budget.requestsUsed - usedBefore,
        requestBudget: budget.limit,
        requestsRemaining: budget.requestsRemaining,
        cooldownSkips: outcome.providers.filter((report) => report.disposition === 'cooldown').length,
        quotaSkips: outcome.providers.filter((report) => report.disposition === 'quota_skipped').length,
        nextAction: outcome.nextAction,
        ...(outcome.retryAt === undefined ? {} : { retryAt: outcome.retryAt }),
        cacheHit: outcome.cacheHit || outcome.sharedInFlight,
        truncated: result.truncated,
      });
      return {
        text: result.text,
        isError: result.isError,
        ...(outcome.error === undefined ? {} : { code: outcome.error.code }),
        data: outcome,
      };
    },

    async webFetch(args, callOptions = {}) {
      ensureOpen();
      const startedAt = performance.now();
      const parsed = parseToolArguments(WebFetchInput, args);
      if (!parsed.ok)
        return { text: `WebFetch status: error | error: validation_error\n${parsed.message}`, isError: true };
      const value = parsed.value;
      const format = value.format ?? 'markdown';
      const requestedRender = value.render ?? 'never';
      if (format === 'raw' && requestedRender !== 'never') {
        return {
          text: 'WebFetch status: error | error: validation_error\nformat raw requires render never',
          isError: true,
        };
      }
      // Config `never` is a ceiling: every call stays static. Rendering is not built yet, so a call
      // that insists on a browser under a config that allows one fails clearly instead of degrading.
      if (requestedRender === 'always' && options.config.fetch.render !== 'never') {
        return {
          text: 'WebFetch status: error | error: unsupported_content\nbrowser rendering is not available in this version',
          isError: true,
        };
      }
      const headers = { ...(value.headers ?? {}) } as Record<string, string>;
      const key = extract.documentCacheKey({
        url: value.url,
        headers,
        format,
        policy,
        settings: { render: 'never' },
      });
      const fail = (
        outcome: Extract<FetchOutcome, { status: 'error' }>,
        truncated = false,
      ): ToolCallResult => {
        emit({
          tool: 'WebFetch',
          status: 'error',
          errorCode: outcome.code,
          durationMs: performance.now() - startedAt,
          ...(outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus }),
          ...(outcome.retryAt === undefined ? {} : { retryAt: outcome.retryAt }),
          cacheHit: false,
          truncated,
        });
        return { text: renderFetchOutcome(outcome), isError: true, code: outcome.code, data: outcome };
      };

      let fetched: {
        document: import('@mono-agent/extract').ExtractedDocument;
        url: string;
        status: number;
        redirects: number;
        cacheHit: boolean;
      };
      const cached = documents.get(key);
      if (cached !== undefined) {
        fetched = { document: cached, url: cached.url, status: 200, redirects: 0, cacheHit: true };
      } else {
        const result = await share(`fetch:${key}`, async () => {
          const admission = createFetchAdmission(coordinator);
          try {
            return await extract.fetchDocument(value.url, {
              policy,
              headers,
              format,
              deadlineMs: FETCH_DEADLINE_MS,
              signal: signalFor(callOptions.signal),
              beforeAttempt: admission.beforeAttempt,
              afterAttempt: admission.afterAttempt,
            });
          } finally {
            await admission.releaseAll();
          }
        });
        if (!result.ok) {
          const status = result.error.details.status;
          return fail({
            status: 'error',
            code: result.error.code,
            ...(typeof status === 'number' ? { httpStatus: status } : {}),
            ...(result.error.retryAt === undefined ? {} : { retryAt: result.error.retryAt }),
          });
        }
        documents.set(key, result.document);
        fetched = {
          document: result.document,
          url: result.url,
          status: result.status,
          redirects: result.redirects,
          cacheHit: false,
        };
      }

      let slice: import('@mono-agent/extract').DocumentSlice;
      try {
        slice = extract.sliceDocument(fetched.document.content, {
          startLine: value.start_line,
          maxLines: value.max_lines,
          maxOutputChars: value.max_output_chars ?? DEFAULT_FETCH_OUTPUT_CHARS,
        });
      } catch (error) {
        if (!WebToolError.isInstance(error)) throw error;
        const code = error.code;
        const text = `WebFetch status: error | error: ${code}\n${error.message}`;
        emit({
          tool: 'WebFetch',
          status: 'error',
          errorCode: code,
          durationMs: performance.now() - startedAt,
          cacheHit: fetched.cacheHit,
          truncated: false,
        });
        return { text, isError: true, code };
      }
      const rendered = renderFetchOutcome({
        status: 'ok',
        url: fetched.url,
        httpStatus: fetched.status,
        redirects: fetched.redirects,
        document: fetched.document,
        slice,
        cacheHit: fetched.cacheHit,
      });
      const result = await guarded('WebFetch', rendered, false);
      emit({
        tool: 'WebFetch',
        status: 'ok',
        durationMs: performance.now() - startedAt,
        httpStatus: fetched.status,
        contentKind: fetched.document.kind,
        charset: fetched.document.charset,
        extractionStage: fetched.document.stage,
        parserFailures: fetched.document.parserFailures.length,
        byteCount: Buffer.byteLength(slice.content),
        cacheHit: fetched.cacheHit,
        truncated: result.truncated || slice.truncatedByChars,
        rendered: false,
      });
      return {
        text: result.text,
        isError: false,
        data: {
          status: 'ok',
          url: fetched.url,
          httpStatus: fetched.status,
          redirects: fetched.redirects,
          cacheHit: fetched.cacheHit,
          document: {
            kind: fetched.document.kind,
            format: fetched.document.format,
            title: fetched.document.title,
            charset: fetched.document.charset,
            charsetSource: fetched.document.charsetSource,
            stage: fetched.document.stage,
            replacementCount: fetched.document.replacementCount,
            parserFailures: fetched.document.parserFailures,
          },
          slice,
        },
      };
    },

    async close() {
      if (closed) return;
      closed = true;
      runController.abort(new WebToolError({ code: 'cancelled', message: 'the run was closed' }));
      await Promise.allSettled([...inFlight.values()]);
      documents.clear();
      await codex?.close();
    },
  };
}
