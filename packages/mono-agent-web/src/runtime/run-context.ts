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
import type { WebRuntimeOptions } from './runtime-types.js';
import type { TimingEvent } from './timing-event.js';

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
  /**
   * Identical concurrent calls in one run share one execution, each caller keeping its own
   * cancellation: a caller whose `signal` fires gets `cancelled` at once while the others keep
   * waiting, and the shared work's signal fires only when every caller has gone (or the run ends).
   */
  shareCall<Value>(
    key: string,
    work: (signal: AbortSignal) => Promise<Value>,
    signal: AbortSignal | undefined,
  ): Promise<Value>;
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
  const calls = new Map<string, SharedCall>();
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
    shareCall<Value>(
      key: string,
      work: (signal: AbortSignal) => Promise<Value>,
      signal: AbortSignal | undefined,
    ): Promise<Value> {
      let call = calls.get(key);
      if (call === undefined) {
        const controller = new AbortController();
        const started: SharedCall = { controller, callers: 0, result: Promise.resolve() };
        // Started on the next tick: a work that settles at once still finds its first caller counted.
        started.result = Promise.resolve()
          .then(() => work(AbortSignal.any([runController.signal, controller.signal])))
          .finally(() => {
            if (calls.get(key) === started) calls.delete(key);
            inFlight.delete(`call:${key}`);
          });
        // A run's close waits for shared work too; its failure is each caller's to read.
        inFlight.set(
          `call:${key}`,
          started.result.catch(() => undefined),
        );
        calls.set(key, started);
        call = started;
      }
      return joinCall(call, signal, () => {
        // The last caller left: stop the work, and let the next identical call start afresh.
        if (calls.get(key) === call) calls.delete(key);
        call.controller.abort(
          new WebToolError({ code: 'cancelled', message: 'every caller of this shared call cancelled it' }),
        );
      }) as Promise<Value>;
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

/** Work shared by identical concurrent calls: its own abort controller and how many callers wait on it. */
interface SharedCall {
  /** Aborts the work when the last caller has gone. */
  controller: AbortController;
  /** Callers still waiting for the result. */
  callers: number;
  /** The work's result. */
  result: Promise<unknown>;
}

/**
 * One caller's wait on shared work: the work's result, or `cancelled` as soon as the caller's own
 * signal fires. A caller that leaves that way uncounts itself; `lastLeft` runs when none remain.
 */
function joinCall(call: SharedCall, signal: AbortSignal | undefined, lastLeft: () => void): Promise<unknown> {
  const cancelled = () =>
    new WebToolError({ code: 'cancelled', message: 'the call was cancelled', cause: signal?.reason });
  if (signal?.aborted) {
    if (call.callers === 0) lastLeft();
    return Promise.reject(cancelled());
  }
  call.callers += 1;
  return new Promise((resolve, reject) => {
    let left = false;
    const leave = () => {
      if (left) return false;
      left = true;
      signal?.removeEventListener('abort', onAbort);
      call.callers -= 1;
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      if (call.callers === 0) lastLeft();
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    call.result.then(
      (value) => {
        if (leave()) resolve(value);
      },
      (error: unknown) => {
        if (leave()) reject(error);
      },
    );
  });
}
