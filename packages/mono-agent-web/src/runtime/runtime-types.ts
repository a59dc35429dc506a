// The runtime's types, below every module that builds or runs it: the call modules return
// `ToolCallResult`, the run context holds `WebRuntimeOptions`, and `web-runtime.ts` imports both.
import type { FailureCode } from '@mono-agent/budget-policy';
import type { Coordinator } from '@mono-agent/host-coordination';
import type { ToolCallResult as AdapterToolCallResult, ArtifactSweepReport } from '@mono-agent/tool-adapters';
import type { WebConfig } from '../config/index.js';
import type { CallOptions } from './call-progress.js';
import type { PartialWebConfig } from './runtime-config.js';
import type { TimingEvent } from './timing-event.js';

/**
 * The result of one tool call: the adapters' text and error flag (the text of a failure names only a
 * category), with the category and the outcome as data for hosts that read more than the text.
 */
export interface ToolCallResult extends AdapterToolCallResult {
  /** The failure category, when the call failed. */
  code?: FailureCode;
  /** The outcome as data (a `SearchOutcome`, or the fetch summary), for hosts and `--json`. */
  data?: unknown;
}

/** Options of {@link createWebRuntime}. */
export interface WebRuntimeOptions {
  /** The loaded configuration. */
  config: WebConfig;
  /** An agent configuration file, read only when `config` is left out or given in part. */
  configFile?: string;
  /** A coordinator to share (default: one for `config.coordination`). */
  coordinator?: Coordinator;
  /** Receives one bounded event per tool call. */
  onTiming?: (event: TimingEvent) => void;
  /** The environment the Ollama key variable is read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides of the keyless engines' endpoints (tests and demos point them at a local replay). */
  keylessEndpoints?: { duckduckgo?: string; startpage?: string };
  /**
   * Whether successful searches go to the process-wide cache shared with every runtime configured
   * alike (default `true`). `false` gives this runtime a cache of its own: a liveness probe must reach
   * the backend and leave no answer for the agents of the process.
   */
  processCache?: boolean;
  /** Host state directory for `host` coordination (default `~/.mono-agent/web-control`). */
  stateDirectory?: string;
  /** The `codex` executable for subscription search (default `codex` on the PATH). */
  codexCommand?: string;
  /**
   * The browser renderer used when `tools.web.fetch.render` allows rendering (default: agent-browser
   * run as `tools.web.fetch.browserCommand`). Ignored when the ceiling is `never`.
   */
  renderer?: import('@mono-agent/extract').DocumentRenderer;
  /**
   * Whether this runtime's host owns the sweep of `artifacts.dir/tool-output/`: it sweeps once when
   * the runtime is made (bounded by {@link ARTIFACT_SWEEP_START_BUDGET_MS}) and every
   * {@link ARTIFACT_SWEEP_INTERVAL_MS} while it lives. The CLI and the MCP server set it.
   */
  artifactSweep?: boolean;
}

/** One model run: its own budget, deferrals, in-flight work and document cache. */
export interface WebRun {
  /** A random id, naming the run's artifact folder. */
  readonly id: string;
  /** Runs WebSearch with model-supplied arguments. */
  webSearch(args: unknown, options?: CallOptions): Promise<ToolCallResult>;
  /** Runs WebFetch with model-supplied arguments. */
  webFetch(args: unknown, options?: CallOptions): Promise<ToolCallResult>;
  /** Ends the run: cancels what is in flight, forgets its caches and stops its Codex child process. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link WebRuntime.startRun}. */
export interface StartRunOptions {
  /** The idle gap, in seconds, after which the host started this run in place of the previous one. */
  freshAfterIdleSeconds?: number;
}

/**
 * The host-level runtime. In process mode its coordinator and search cache are the process's: every
 * runtime of the process shares them (the cache split by backend configuration).
 */
export interface WebRuntime {
  /** The configuration in force. */
  readonly config: WebConfig;
  /** The coordinator (for `web-control status` / `reset`). */
  readonly coordinator: Coordinator;
  /**
   * Starts a run. A long-lived host that starts it because the previous run sat idle passes
   * `freshAfterIdleSeconds`, and the run's first search says that a fresh run (and budget) began.
   */
  startRun(options?: StartRunOptions): WebRun;
  /**
   * Sweeps `artifacts.dir/tool-output/` under `artifacts.retention` (a dry run when asked), keeping
   * the folders of this runtime's open runs; undefined when no artifacts directory is configured.
   */
  sweepArtifacts(options?: { dryRun?: boolean; budgetMs?: number }): Promise<ArtifactSweepReport | undefined>;
  /** Closes every run still open. */
  close(): Promise<void>;
}

/** What {@link createWebRuntime} takes: the options with the configuration optional or partial. */
export type CreateWebRuntimeOptions = Omit<WebRuntimeOptions, 'config'> & { config?: PartialWebConfig };
