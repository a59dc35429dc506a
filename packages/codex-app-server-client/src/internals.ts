// The client's readers of what `codex app-server` sends, one layer below `createCodexAppServerClient`:
// the line decoder, the JSON-RPC connection, the refusal of server requests, the parsers of search
// results and rate limits, and the quota check. Exported as
// `@mono-agent/codex-app-server-client/internals` so that the repository's fuzz benchmark can feed
// them hostile input; not part of the API, and free to change in any release.
export {
  createJsonRpcConnection,
  type JsonRpcConnection,
  type JsonRpcConnectionOptions,
  type ServerNotification,
  type ServerRequest,
  type ServerRequestReply,
} from './json-rpc-connection.js';
export { createLineDecoder, type LineDecoder, type LineDecoderHandlers } from './line-decoder.js';
export { evaluateQuota, mergeRateLimitsUpdate, parseRateLimitsResult } from './rate-limit-quota.js';
export { parseSearchResults } from './search-results.js';
export { refuseServerRequest } from './server-request-refusal.js';
