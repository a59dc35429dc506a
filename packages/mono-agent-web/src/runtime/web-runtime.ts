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
  type SearchOutcome,
} from '@mono-agent/search-providers';
import {
  ARTIFACT_SWEEP_INTERVAL_MS,
  ARTIFACT_SWEEP_START_BUDGET_MS,
  type ArtifactSink,
  type ArtifactSweepReport,
  createFileArtifactSink,
  runFolderName,
  sweepToolOutput,
} from '@mono-agent/tool-adapters';
import { DEFAULT_ARTIFACT_MAX_AGE_HOURS, DEFAULT_ARTIFACT_MAX_RUNS } from '../config/config-constants.js';
import { processCoordinator, processSearchCache } from './process-shared.js';
import { resolveNetworkPolicy } from './resolve-network-policy.js';
import { createRunContext, type FetchParts, type RunDependencies } from './run-context.js';
import { resolveRuntimeConfig } from './runtime-config.js';
import type { CreateWebRuntimeOptions, WebRun, WebRuntime, WebRuntimeOptions } from './runtime-types.js';
import { webFetchCall } from './web-fetch-call.js';
import { webSearchCall } from './web-search-call.js';

export { FETCH_DEADLINE_MS } from './fetch-page.js';

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
      // chatgpt.com is a destination like any other: a policy that refuses it never spawns Codex.
      policy,
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
 * Builds the host-level runtime. The coordinator and the cache of successful searches are shared
 * process-wide (see {@link WebRuntime}); everything else belongs to a run. With no configuration (or
 * part of one) the rest comes from the defaults, `configFile` and the environment, as the CLI loads
 * them.
 */
export async function createWebRuntime(given: CreateWebRuntimeOptions = {}): Promise<WebRuntime> {
  const config = await resolveRuntimeConfig(given);
  const options: WebRuntimeOptions = { ...given, config };
  // In process mode the coordinator is the process's one, shared with every other runtime; a host or
  // Redis coordinator is this runtime's own connection to the shared state.
  const ownCoordinator =
    options.coordinator === undefined && config.coordination !== 'process'
      ? (await import('@mono-agent/host-coordination')).createCoordinator({
          mode: config.coordination,
          ...(options.stateDirectory === undefined ? {} : { stateDirectory: options.stateDirectory }),
          ...(config.redis === undefined ? {} : { url: config.redis.url }),
        })
      : undefined;
  const coordinator = options.coordinator ?? ownCoordinator ?? processCoordinator();
  const policy = resolveNetworkPolicy(config);
  const ollamaKeyEnv = config.search.ollama?.apiKeyEnv;
  const ollamaKey = ollamaKeyEnv === undefined ? undefined : (options.env ?? process.env)[ollamaKeyEnv];
  const cache =
    options.processCache === false
      ? createSearchCache<SearchOutcome>()
      : processSearchCache({
          config,
          ...(options.keylessEndpoints === undefined ? {} : { keylessEndpoints: options.keylessEndpoints }),
          ...(options.codexCommand === undefined ? {} : { codexCommand: options.codexCommand }),
          ...(ollamaKey === undefined ? {} : { ollamaKey }),
        });
  const sink: ArtifactSink | undefined =
    config.artifacts === undefined ? undefined : createFileArtifactSink({ directory: config.artifacts.dir });
  // Loaded at the first fetch: a process that only searches never loads the extraction stack. A failed
  // load is not kept, so a later fetch tries again.
  let fetchParts: Promise<FetchParts> | undefined;
  const loadFetchParts = () => {
    fetchParts ??= import('@mono-agent/extract').then(
      (extract): FetchParts => ({
        extract,
        // Under the `never` ceiling no renderer exists at all, so no call can start a browser.
        renderer:
          config.fetch.render === 'never'
            ? undefined
            : (options.renderer ??
              extract.createAgentBrowserRenderer({ command: config.fetch.browserCommand })),
      }),
      (error: unknown) => {
        fetchParts = undefined;
        throw error;
      },
    );
    return fetchParts;
  };
  const openRuns = new Set<WebRun>();
  const sweepArtifacts = async (
    sweepOptions: { dryRun?: boolean; budgetMs?: number } = {},
  ): Promise<ArtifactSweepReport | undefined> => {
    const artifacts = config.artifacts;
    if (artifacts === undefined) return undefined;
    const active = new Set([...openRuns].map((run) => runFolderName(run.id)));
    return await sweepToolOutput({
      directory: artifacts.dir,
      // A configuration assembled by hand may leave the policy out: the documented defaults apply.
      retention: {
        maxAgeHours: artifacts.retention?.maxAgeHours ?? DEFAULT_ARTIFACT_MAX_AGE_HOURS,
        maxRuns: artifacts.retention?.maxRuns ?? DEFAULT_ARTIFACT_MAX_RUNS,
        dryRun: sweepOptions.dryRun ?? artifacts.retention?.dryRun ?? false,
      },
      isActive: (folder) => active.has(folder),
      ...(sweepOptions.budgetMs === undefined ? {} : { budgetMs: sweepOptions.budgetMs }),
    });
  };
  let sweepTimer: NodeJS.Timeout | undefined;
  if (options.artifactSweep === true && config.artifacts !== undefined) {
    // A sweep that fails (an unreadable folder) never stops the host from starting or serving.
    await sweepArtifacts({ budgetMs: ARTIFACT_SWEEP_START_BUDGET_MS }).catch(() => undefined);
    sweepTimer = setInterval(() => {
      sweepArtifacts({ budgetMs: ARTIFACT_SWEEP_START_BUDGET_MS }).catch(() => undefined);
    }, ARTIFACT_SWEEP_INTERVAL_MS);
    // The sweep never keeps a process alive that has nothing else to do.
    sweepTimer.unref();
  }
  return {
    config,
    coordinator,
    startRun(runOptions = {}) {
      // Providers belong to the run, so a Codex child process started by one run ends with it; the
      // cache and coordinator are shared by every run of the process.
      const { providers, codex } = providersFor(options, policy);
      const chain = createSearchChain({ backend: config.search.backend, providers, coordinator, cache });
      const run = startRun({
        options,
        coordinator,
        policy,
        chain,
        codex,
        sink,
        fetchParts: loadFetchParts,
        ...(runOptions.freshAfterIdleSeconds === undefined
          ? {}
          : { freshAfterIdleSeconds: runOptions.freshAfterIdleSeconds }),
      });
      openRuns.add(run);
      const close = run.close.bind(run);
      return Object.assign(run, {
        async close() {
          openRuns.delete(run);
          await close();
        },
      });
    },
    sweepArtifacts,
    async close() {
      clearInterval(sweepTimer);
      await Promise.all([...openRuns].map((run) => run.close()));
      // A coordinator this runtime made is this runtime's to close (a Redis connection); a shared one is not.
      await ownCoordinator?.close();
    },
  };
}

function startRun(dependencies: RunDependencies): WebRun {
  const context = createRunContext(dependencies);
  return {
    get id() {
      return context.id;
    },
    webSearch: (args, callOptions) => webSearchCall(context, args, callOptions),
    webFetch: (args, callOptions) => webFetchCall(context, args, callOptions),
    close: () => context.close(),
  };
}
