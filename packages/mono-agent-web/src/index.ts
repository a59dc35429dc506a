export {
  type AiSdkWebTool,
  type AiSdkWebTools,
  createAiSdkTools,
  createMcpServer,
  createPiAgentTools,
  DEFAULT_MCP_SERVER_NAME,
  MCP_PROGRESS_INTERVAL_MS,
  type McpServerOptions,
  type McpStdioOptions,
  type PiWebTool,
  serveMcpOverStdio,
  type ToolCallOptions,
  type WebTools,
} from './adapters/agent-adapters.js';
export { MIN_AGENT_BROWSER_VERSION } from './browser-version.js';
export type { CliOutput } from './cli-command.js';
export * from './config/index.js';
export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export { runCli } from './run-cli.js';
export type { CallOptions, CallProgress } from './runtime/call-progress.js';
export {
  COOLDOWN_END_WAIT_MS,
  createFetchAdmission,
  type FetchAdmission,
  type OriginCooldown,
  PROCESS_FETCH_ORIGIN_LIMITS,
} from './runtime/fetch-admission.js';
export type { FetchFailureData } from './runtime/fetch-failure.js';
export {
  createIdleRunRotation,
  DEFAULT_RUN_IDLE_SECONDS,
  type IdleRunRotation,
  type IdleRunRotationOptions,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
  type RotatableRun,
} from './runtime/idle-run-rotation.js';
export { explainPolicyDenial, type PolicyDenial } from './runtime/policy-denial.js';
export { resolveNetworkPolicy } from './runtime/resolve-network-policy.js';
export type { PartialWebConfig } from './runtime/runtime-config.js';
export type {
  CreateWebRuntimeOptions,
  StartRunOptions,
  ToolCallResult,
  WebRun,
  WebRuntime,
  WebRuntimeOptions,
} from './runtime/runtime-types.js';
export type { TimingEvent } from './runtime/timing-event.js';
export { createWebRuntime, FETCH_DEADLINE_MS } from './runtime/web-runtime.js';
export {
  LIVENESS_PROBE_TIMEOUT_MS,
  type ValidateOptions,
  type ValidationCheck,
  type ValidationReport,
  type ValidationStatus,
  validateWebConfig,
} from './validate/validate-web-config.js';
