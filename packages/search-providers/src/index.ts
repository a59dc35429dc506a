export {
  type DomainFilterOutcome,
  filterByDomains,
  hostInDomain,
  MAX_DOMAIN_FILTER_ENTRIES,
  parseDomain,
  parseDomainList,
} from './domain-filter.js';
export { normalizeResultUrl, resultIdentity } from './normalize-result-url.js';
export { foldText, hostMatchesSites, type ParsedQuery, parseSearchQuery } from './parse-search-query.js';
export {
  type RankedList,
  RECIPROCAL_RANK_CONSTANT,
  reciprocalRankFusion,
} from './reciprocal-rank-fusion.js';
export {
  applyRelevanceGate,
  isRelevant,
  MAX_PREFIX_MATCH_SUFFIX,
  MIN_PREFIX_MATCH_LENGTH,
  type RelevanceOutcome,
  requiredTermMatches,
} from './relevance-gate.js';
export {
  isTrackingParameter,
  removeTrackingParameters,
  TRACKING_PARAMETER_PREFIXES,
  TRACKING_PARAMETERS,
} from './remove-tracking-parameters.js';
export type { RankedResult, SearchResult } from './search-result.js';
