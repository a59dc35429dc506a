export {
  DEFAULT_THROTTLE_COOLDOWN_MS,
  FETCH_THROTTLE_COOLDOWN_MS,
  INFRASTRUCTURE_FAILURE_COOLDOWN_MS,
  INFRASTRUCTURE_FAILURE_THRESHOLD,
  MAX_COOLDOWN_MS,
  type ReleaseOutcome,
  SEARCH_THROTTLE_COOLDOWN_MS,
} from './admission-policy.js';
export type { BucketState, BucketTable, CooldownCause, Lease, LeaseOwner } from './bucket-state.js';
export { type Clock, createManualClock, type ManualClock, systemClock } from './clock.js';
export type {
  CoordinationStore,
  StoreAdmission,
  StoreAdmitRequest,
  StoreDescription,
  StoreOperationOptions,
  StoreRelease,
  StoreReleaseResult,
  StoreResetResult,
  StoreSnapshot,
} from './coordination-store.js';
export {
  type Admission,
  type AdmissionRequest,
  type AdmissionSkip,
  type AdmitOptions,
  type CoordinationMode,
  type Coordinator,
  type CoordinatorOptions,
  type CoordinatorStatus,
  createCoordinator,
  DEFAULT_LEASE_TTL_MS,
  MAX_LEASE_TTL_MS,
  MAX_SCOPE_CONCURRENCY,
  MAX_SCOPE_NAME_LENGTH,
  MAX_SPACING_MS,
  MIN_LEASE_TTL_MS,
  type Permit,
  type ReleaseOptions,
  type ReleaseResult,
  type ResetReport,
} from './coordinator.js';
export {
  HOST_INITIAL_COMMIT_MARGIN_MS,
  HOST_MAX_COMMIT_MARGIN_MS,
  HOST_MIN_COMMIT_MARGIN_MS,
} from './host-file/commit-timer.js';
export {
  LOCK_RETRY_MAX_MS,
  LOCK_RETRY_MIN_MS,
  LOCK_WAIT_TIMEOUT_MS,
  TICKET_STALE_MS,
} from './host-file/file-lock.js';
export {
  createHostStateStore,
  defaultStateDirectory,
  HOST_POLL_MAX_MS,
  HOST_POLL_MIN_MS,
  type HostStateStoreOptions,
  STATE_FILE_NAME,
} from './host-file/host-state-store.js';
export { LOCK_RECORD_GRACE_MS } from './host-file/lock-record.js';
export {
  MAX_LEASES_PER_BUCKET,
  MAX_STATE_BUCKETS,
  MAX_STATE_BYTES,
  type StateProblem,
} from './host-file/state-file.js';
export { WAITER_TICKET_REFRESH_MS, WAITER_TICKET_STALE_MS } from './host-file/waiting-line.js';
export { createMemoryStore, MAX_MEMORY_BUCKETS, type MemoryStoreOptions } from './memory-store.js';
export {
  createRedisStore,
  DEFAULT_REDIS_KEY_PREFIX,
  MAX_REDIS_SCOPES,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_CONNECT_TIMEOUT_MS,
  REDIS_MAX_COMMIT_MARGIN_MS,
  REDIS_MIN_COMMIT_MARGIN_MS,
  REDIS_POLL_MAX_MS,
  REDIS_POLL_MIN_MS,
  type RedisStoreOptions,
  redactRedisUrl,
} from './redis-store.js';
export { scopeKey } from './scope-key.js';
export { HOST_SCOPE_LIMITS, type ScopeKind, type ScopeLimits } from './scope-limits.js';
export type { ScopeStatus } from './scope-status.js';
export type {
  BucketChange,
  BucketTableStore,
  StoreContext,
  TableBackedStore,
  TableChange,
} from './table-store.js';
