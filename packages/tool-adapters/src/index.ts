export { type AiSdkWebTool, type AiSdkWebTools, createAiSdkTools } from './adapters/ai-sdk-tools.js';
export {
  createMcpServer,
  DEFAULT_MCP_SERVER_NAME,
  DEFAULT_MCP_SERVER_VERSION,
  MCP_PROGRESS_INTERVAL_MS,
  type McpServerOptions,
  type McpStdioOptions,
  serveMcpOverStdio,
} from './adapters/mcp-server.js';
export { createPiAgentTools, type PiWebTool } from './adapters/pi-agent-tools.js';
export type { ToolCallOptions, ToolCallResult, WebTools } from './adapters/web-tools.js';
export {
  ARTIFACT_SWEEP_INTERVAL_MS,
  ARTIFACT_SWEEP_START_BUDGET_MS,
  type ArtifactRetention,
  type ArtifactSweepOptions,
  type ArtifactSweepReport,
  type KeptReason,
  RUN_OWNER_FILE,
  sweepToolOutput,
  TOOL_OUTPUT_FOLDER,
} from './artifact-retention.js';
export {
  type ArtifactSink,
  type GuardedOutput,
  type GuardOptions,
  guardToolOutput,
  TOOL_OUTPUT_HEAD_SHARE,
  TOOL_OUTPUT_IMAGE_BUDGET_BYTES,
  TOOL_OUTPUT_OMISSION_SEPARATOR,
  TOOL_OUTPUT_TEXT_BUDGET_BYTES,
  type ToolOutputBlock,
} from './bloat-guard.js';
export { type ArgumentProblem, describeArgumentProblem } from './describe-argument-problem.js';
export { createFileArtifactSink, type FileArtifactSinkOptions, runFolderName } from './file-artifact-sink.js';
export { FRAME_NAMES, findMarkerSpans, type MarkerEdge, type MarkerSpan } from './find-marker-spans.js';
export {
  MAX_DESCRIPTION_LINE_CHARS,
  MAX_METADATA_LINE_CHARS,
  type PageMetadataFields,
  pageMetadataFields,
  pageMetadataLines,
} from './page-metadata-lines.js';
export {
  BROWSER_RECOMMENDATION_HINTS,
  type BrowserRecommendation,
  type FetchOutcome,
  type FetchRenderReason,
  MAX_DOCUMENT_TITLE_CHARS,
  renderFetchOutcome,
} from './render-fetch-outcome.js';
export {
  MAX_RENDERED_ENGINES,
  MAX_SEARCH_BODY_BYTES,
  MAX_SNIPPET_CHARS,
  MAX_TITLE_CHARS,
  type RenderSearchOptions,
  renderSearchOutcome,
  SNIPPET_TRUNCATED_MARKER,
} from './render-search-outcome.js';
export {
  DEFAULT_FETCH_OUTPUT_CHARS,
  MAX_ALTERNATE_QUERIES,
  MAX_DOMAIN_ENTRIES,
  MAX_FETCH_LINES,
  MAX_FETCH_OUTPUT_CHARS,
  MAX_QUERY_CHARS,
  type ParsedArguments,
  parseToolArguments,
  SEARCH_LIMIT_RANGE,
  TOOL_NAMES,
  WEB_FETCH_DESCRIPTION,
  WEB_SEARCH_DESCRIPTION,
  type WebFetchArguments,
  WebFetchInput,
  type WebSearchArguments,
  WebSearchInput,
} from './tool-definitions.js';
export { webFetchJsonSchema, webSearchJsonSchema } from './tool-json-schemas.js';
export {
  frame,
  neutralizeBidiControls,
  neutralizeMarkers,
  SEARCH_RESULTS_BEGIN,
  SEARCH_RESULTS_END,
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
  WEB_CONTENT_BEGIN,
  WEB_CONTENT_END,
} from './untrusted-frame.js';
export { utf8ByteLength, utf8Prefix, utf8Suffix } from './utf8.js';
