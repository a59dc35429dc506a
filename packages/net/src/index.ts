export {
  type AddressTarget,
  checkAddress,
  checkHost,
  type HostTarget,
  type PolicyDecision,
} from './check-address.js';
export { type AddressClass, classifyAddress } from './classify-address.js';
export { DEFAULT_DEADLINE_MS, MAX_DEADLINE_MS } from './deadline.js';
export { ACCEPT_ENCODING, MAX_CONTENT_ENCODINGS } from './decode-stream.js';
export {
  CONNECT_TIMEOUT_MS,
  createGuardedConnector,
  type GuardedConnectorOptions,
  type LookupAnswer,
  type LookupFunction,
  resolveCheckedAddress,
  systemLookup,
} from './guarded-connector.js';
export {
  type AttemptInfo,
  type AttemptOutcome,
  type HttpRequestOptions,
  type HttpResponse,
  httpRequest,
  MAX_REDIRECTS,
  type RedirectMode,
  type SleepFunction,
} from './http-request.js';
export {
  MAX_ALLOW_ENTRIES,
  NETWORK_MODES,
  type NetworkMode,
  type NetworkPolicy,
  parseNetworkPolicy,
} from './network-policy.js';
export { MAX_DECODED_BYTES, MAX_WIRE_BYTES } from './read-body.js';
export {
  isRetryableStatus,
  MAX_RETRIES,
  MAX_RETRY_AFTER_WAIT_MS,
  parseRetryAfter,
  RETRY_BACKOFF_BASE_MS,
} from './retry-policy.js';
export {
  ALLOWED_REQUEST_HEADERS,
  type AllowedRequestHeader,
  MAX_HEADER_VALUE_LENGTH,
  MAX_URL_LENGTH,
} from './validate-request.js';
