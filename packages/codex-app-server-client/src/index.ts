export {
  MAX_STDERR_BYTES,
  SHUTDOWN_KILL_GRACE_MS,
  SHUTDOWN_STDIN_GRACE_MS,
  SHUTDOWN_TERM_GRACE_MS,
  type ShutdownGrace,
} from './app-server-process.js';
export { isCredentialVariable } from './child-environment.js';
export {
  CLIENT_VERSION,
  type CodexAppServerClient,
  type CodexAppServerClientOptions,
  type CodexSearchRequest,
  type CodexSearchResponse,
  createCodexAppServerClient,
  DEFAULT_APP_SERVER_ARGS,
  type ReadinessOptions,
  type SearchAdmission,
  type SearchAdmissionOutcome,
  type SearchAdmissionTicket,
} from './codex-app-server-client.js';
export { DEFAULT_REQUEST_TIMEOUT_MS } from './json-rpc-connection.js';
export { MAX_LINE_BYTES } from './line-decoder.js';
export {
  CODEX_LIMIT_ID,
  QUOTA_MAX_AGE_MS,
  QUOTA_RESERVE_THRESHOLD_PERCENT,
  type QuotaSkipReason,
  type QuotaStatus,
  type RateLimitSnapshot,
  type RateLimitWindow,
} from './rate-limit-quota.js';
export { DEFAULT_CODEX_MODEL, MAX_MODEL_LIST_PAGES, type Readiness } from './readiness.js';
export { MAX_LANGUAGE_TAG_LENGTH, TIME_RANGES, type TimeRange } from './search-parameters.js';
export { MAX_SEARCH_RESULTS, type SearchResult } from './search-results.js';
export { DEFAULT_TURN_TIMEOUT_MS, INTERRUPT_TIMEOUT_MS } from './search-turn.js';
