// The host adapters, re-exported so an agent runtime needs this one dependency. Each takes a run
// (`runtime.startRun()`) directly: a run is the `WebTools` the adapters serve. The SDKs load only when
// an adapter is built, and the published types name an SDK only where its adapter does, so a
// TypeScript project type-checks with just the SDKs it uses installed.
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
} from '@mono-agent/tool-adapters';
