import {
  createRunBudget,
  createRunDeferrals,
  type RunBudget,
  type RunDeferrals,
  WebToolError,
} from '@mono-agent/budget-policy';
import type { Coordinator } from '@mono-agent/host-coordination';
import type { NetworkPolicy } from '@mono-agent/net';
import type { CodexSearchProvider, SearchChain } from '@mono-agent/search-providers';
import { type ArtifactSink, guardToolOutput } from '@mono-agent/tool-adapters';
import type { TimingEvent } from './timing-event.js';
import type { WebRuntimeOptions } from './web-runtime.js';

/** What a run is built from: the host-level parts it shares and the providers it owns. */
export interface RunDependencies {
  /** The runtime's options (configuration, observers, overrides). */
  options: WebRuntimeOptions;
  /** The process's coordinator. */
  coordinator: Coordinator;
  /** The resolved network policy. */
  policy: NetworkPolicy;
  /** The run's search chain. */
  chain: SearchChain;
  /** The run's Codex provider, when subscription search is in the chain. */
  codex: CodexSearchProvider | undefined;
  /** Where the bloat guard saves whole outputs, when the host configured artifacts. */
  sink: ArtifactSink | undefined;
  /**
   * The extraction package and the browser renderer, loaded by the runtime at the first fetch of any of
   * its runs (a process that only searches never loads them).
   */
  fetchParts: () => Promise<FetchParts>;
  /** Set when this run replaced one that sat idle this many seconds (a long-lived server's next burst). */
  freshAfterIdleSeconds?: number;
}

/** What fetching needs beyond a search: shared by every run of a runtime. */
export interface FetchParts {
  /** The extraction package. */
  extract: typeof import('@mono-agent/extract');
  /** The browser renderer, when the configuration's ceiling allows rendering. */
  renderer: import('@mono-agent/extract').DocumentRenderer | undefined;
}

/** A run's context with what its fetches need loaded. */
export interface FetchContext extends RunContext, FetchParts {
  /** Extracted documents of this run. */
  readonly documents: ReturnType<typeof import('@mono-agent/extract').createDocumentCache>;
}

/** The bounded output of the bloat guard for one text block. */
export interface GuardedText {
  /** The text the model reads. */
  text: string;
  /** Whether the call failed. */
  isError: boolean;
  /** Whether the guard cut the text. */
  truncated: boolean;
  /** Where the guard saved the whole text, when it cut it and a sink took it. */
  artifact?: string;
}

/** Where one whole output was saved, or why it could not be. */
export type SavedArtifact = { path: string } | { unavailable: string };

/** What the model is told when no artifact directory is configured. */
export const NO_ARTIFACT_SINK =
  'no artifact directory is configured (set artifacts.dir or MONO_AGENT_ARTIFACT_DIR)';

/**
 * The state one model run shares between its tool calls: budget, deferrals, document cache,
 * in-flight work and the signal that ends them all. Each tool call is a function over it.
 */
export interface RunContext extends RunDependencies {
  /** A random id, naming the run's artifact folder. */
  readonly id: string;
  /** The run's search request budget. */
  readonly budget: RunBudget;
  /** Providers deferred for the rest of the run. */
  readonly deferrals: RunDeferrals;
  /** This context with the extraction package, the renderer and the run's document cache loaded. */
  fetchContext(): Promise<FetchContext>;
  /** Sends one timing event to the host's observer; a broken observer never breaks the call. */
  emit(event: TimingEvent): void;
  /** The run's signal joined with a call's own. */
  signalFor(signal: AbortSignal | undefined): AbortSignal;
  /** Throws `cancelled` once the run is closed. */
  ensureOpen(): void;
  /** Passes one text block through the tool-output bloat guard. */
  guarded(toolName: string, text: string, isError: boolean): Promise<GuardedText>;
  /** Saves a whole output the model cannot read in one result (an over-long line) to the artifact sink. */
  saveArtifact(toolName: string, text: string): Promise<SavedArtifact>;
  /** Identical concurrent calls in one run share one execution. */
  share<Value>(key: string, work: () => Promise<Value>): Promise<Value>;
  /** Ends the run: cancels in-flight work, forgets caches, stops the Codex child. Safe to call twice. */
  close(): Promise<void>;
}

/** Builds the shared state of one run. */
export function createRunContext(dependencies: RunDependencies): RunContext {
  const { options, sink, codex } = dependencies;
  // Made when first asked for (an artifact, a host reading it): a refused search never loads crypto.
  let id: string | undefined;
  const runId = () => {
    id ??= process.getBuiltinModule('node:crypto').randomUUID();
    return id;
  };
  const budget = createRunBudget({ limit: options.config.search.maxRequestsPerRun });
  const deferrals = createRunDeferrals();
  const runController = new AbortController();
  const inFlight = new Map<string, Promise<unknown>>();
  let closed = false;
  let fetching: Promise<FetchContext> | undefined;

  const context: RunContext = {
    ...dependencies,
    get id() {
      return runId();
    },
    budget,
    deferrals,
    fetchContext() {
      // A failed load is not kept, so the next fetch of the run tries again.
      fetching ??= dependencies.fetchParts().then(
        (parts): FetchContext => ({ ...context, ...parts, documents: parts.extract.createDocumentCache() }),
        (error: unknown) => {
          fetching = undefined;
          throw error;
        },
      );
      return fetching;
    },
    emit(event) {
      try {
        options.onTiming?.(event);
      } catch {
        // A broken observer must not break the tool call it observes.
      }
    },
    signalFor(signal) {
      return signal === undefined ? runController.signal : AbortSignal.any([runController.signal, signal]);
    },
    ensureOpen() {
      if (closed) throw new WebToolError({ code: 'cancelled', message: 'this run is closed' });
    },
    async guarded(toolName, text, isError) {
      const result = await guardToolOutput([{ type: 'text', text }], {
        // Read only when an artifact is saved.
        get runId() {
          return runId();
        },
        toolName,
        ...(sink ? { sink } : {}),
      });
      const block = result.blocks[0];
      const artifact = result.savedPaths[0];
      return {
        text: block?.type === 'text' ? block.text : text,
        isError,
        truncated: result.truncated,
        ...(artifact === undefined ? {} : { artifact }),
      };
    },
    async saveArtifact(toolName, text) {
      if (sink === undefined) return { unavailable: NO_ARTIFACT_SINK };
      try {
        return {
          path: await sink.save({ runId: runId(), toolName, index: 0, block: { type: 'text', text } }),
        };
      } catch (error) {
        // A failed save is reported to the model, never a reason to fail the call.
        return {
          unavailable: `the artifact could not be saved (${(error as Error)?.message ?? String(error)})`,
        };
      }
    },
    share<Value>(key: string, work: () => Promise<Value>): Promise<Value> {
      const running = inFlight.get(key) as Promise<Value> | undefined;
      if (running !== undefined) return running;
      const promise = work().finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise;
    },
    async close() {
      if (closed) return;
      closed = true;
      runController.abort(new WebToolError({ code: 'cancelled', message: 'the run was closed' }));
      await Promise.allSettled([...inFlight.values()]);
      (await fetching?.catch(() => undefined))?.documents.clear();
      await codex?.close();
    },
  };
  return context;
}
