export {
  CODEX_FILTER_SUPPORT,
  CODEX_LIMITS,
  CODEX_SCOPE,
  type CodexClientLike,
  type CodexProviderOptions,
  type CodexReadinessCheck,
  type CodexSearchProvider,
  createCodexProvider,
  DEFAULT_CODEX_SEARCH_MODEL,
} from './codex-provider.js';
export { CODEX_DESTINATION, refuseUnlessPolicyAllows } from './destination-policy.js';
export {
  type DomainFilterOutcome,
  filterByDomains,
  hostInDomain,
  MAX_DOMAIN_FILTER_ENTRIES,
  normalizeHost,
  parseDomain,
  parseDomainList,
} from './domain-filter.js';
export { STEMMED_LANGUAGES, type Stemmer, stemmersForQuery } from './inflection.js';
export {
  createDuckDuckGoProvider,
  createStartpageProvider,
  DUCKDUCKGO_FILTER_SUPPORT,
  DUCKDUCKGO_LIMITS,
  type KeylessProviderOptions,
  PROCESS_KEYLESS_LIMITS,
  STARTPAGE_FILTER_SUPPORT,
  STARTPAGE_LIMITS,
} from './keyless-provider.js';
export { normalizeResultUrl, resultIdentity } from './normalize-result-url.js';
export { DEFAULT_OLLAMA_BASE_URL, OLLAMA_HOSTED_ORIGIN } from './ollama-origins.js';
export {
  classifyOllamaOrigin,
  classifyOllamaResponse,
  createOllamaProvider,
  OLLAMA_FILTER_SUPPORT,
  OLLAMA_LIMITS,
  OLLAMA_LOCAL_SEARCH_PATH,
  OLLAMA_SEARCH_PATH,
  type OllamaOriginKind,
  type OllamaProviderOptions,
} from './ollama-provider.js';
export { isLoopbackHost, operatorEndpointPolicy, parseLoopbackEndpoint } from './operator-endpoint.js';
export {
  foldText,
  type ParsedQuery,
  parseSearchQuery,
  parseSiteOperator,
  type SiteOperator,
  urlMatchesSites,
  urlUnderSite,
} from './parse-search-query.js';
export { type RankedList, RECIPROCAL_RANK_CONSTANT, reciprocalRankFusion } from './reciprocal-rank-fusion.js';
export {
  applyRelevanceGate,
  isRelevant,
  MAX_INFLECTION_ENDING,
  MAX_PREFIX_MATCH_SUFFIX,
  MIN_PREFIX_MATCH_LENGTH,
  type RelevanceOptions,
  type RelevanceOutcome,
  requiredTermMatches,
} from './relevance-gate.js';
export {
  isTrackingParameter,
  removeTrackingParameters,
  TRACKING_PARAMETER_PREFIXES,
  TRACKING_PARAMETERS,
} from './remove-tracking-parameters.js';
export {
  createSearchCache,
  SEARCH_CACHE_MAX_ENTRIES,
  SEARCH_CACHE_TTL_MS,
  type SearchCache,
  type SearchCacheOptions,
} from './search-cache.js';
export {
  type ConfiguredProviders,
  createSearchChain,
  SEARCH_BACKENDS,
  SEARCH_DEADLINE_MS,
  type SearchBackend,
  type SearchChain,
  type SearchChainOptions,
} from './search-chain.js';
export type { NextAction, ProviderDisposition, ProviderReport, SearchOutcome } from './search-outcome.js';
export {
  type FilterSupport,
  type FilterSupportLevel,
  PROVIDER_IDS,
  type ProviderAdmission,
  type ProviderAnswer,
  type ProviderCallContext,
  type ProviderId,
  type ProviderLimits,
  type ProviderSearchRequest,
  type SearchProvider,
  TIME_RANGES,
  type TimeRange,
} from './search-provider.js';
export {
  DEFAULT_RESULT_LIMIT,
  MAX_ALTERNATE_QUERIES,
  MAX_LANGUAGE_CHARS,
  MAX_QUERY_CHARS,
  MAX_RESULT_LIMIT,
  MIN_RESULT_LIMIT,
  parseSearchRequest,
  type SearchRequest,
  type SearchRequestInput,
} from './search-request.js';
export type { RankedResult, SearchResult } from './search-result.js';
export type { SearchRunContext } from './search-run-context.js';
export {
  describeEngineFailures,
  ENGINE_FAILURE_REASONS,
  type EngineFailure,
  type EngineFailureReason,
  isThrottleReason,
  MAX_ENGINE_NAME_CHARS,
  MAX_REPORTED_ENGINES,
  parseUnresponsiveEngines,
  stableEngineReason,
} from './searxng-engine-health.js';
export {
  AUTO_SEARXNG_STAGE_MS,
  classifySearxngResponse,
  createSearxngProvider,
  SEARXNG_FILTER_SUPPORT,
  SEARXNG_LIMITS,
  SEARXNG_STRICT_REQUEST_TIMEOUT_MS,
  type SearxngProviderOptions,
} from './searxng-provider.js';
