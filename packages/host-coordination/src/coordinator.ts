import { WebToolError } from '@mono-agent/budget-policy';
import { MAX_COOLDOWN_MS, type ReleaseOutcome } from './admission-policy.js';
import type { CooldownCause } from './bucket-state.js';
import { type Clock, cancelledError, systemClock } from './clock.js';
import type { CoordinationStore, StoreAdmission } from './coordination-store.js';
import { createHostStateStore } from './host-file/host-state-store.js';
import { MAX_LEASES_PER_BUCKET } from './host-file/state-file.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import { scopeKey } from './scope-key.js';
import type { ScopeKind } from './scope-limits.js';
import type { ScopeStatus } from './scope-status.js';
import { createScopeTurns } from './scope-turns.js';

export type { ScopeStatus } from './scope-status.js';

/** The longest scope name accepted (names are hashed, but a bound keeps hashing cheap). */
export const MAX_SCOPE_NAME_LENGTH = 2_048;
/** The largest concurrency one scope may ask for. */
export const MAX_SCOPE_CONCURRENCY = MAX_LEASES_PER_BUCKET;
/** The longest start spacing one scope may ask for. */
export const MAX_SPACING_MS = 60_000;
/** How long a lease lives when its holder never releases it: a little over the 60 s search deadline. */
export const DEFAULT_LEASE_TTL_MS = 120_000;
/** The shortest lease lifetime a coordinator accepts. */
export const MIN_LEASE_TTL_MS = 1_000;
/** The longest lease lifetime a coordinator accepts. */
export const MAX_LEASE_TTL_MS = MAX_COOLDOWN_MS;

/**
 * Where the coordinator keeps limits: this process only, every opted-in process of this OS user (the
 * host state file), or every process of a fleet sharing one Redis server.
 */
export type CoordinationMode = 'process' | 'host' | 'redis';

const RELEASE_OUTCOMES: readonly ReleaseOutcome[] = [
  'success',
  'throttled',
  'infrastructure_failure',
  'abandoned',
];

/** Options of {@link createCoordinator}. */
export interface CoordinatorOptions {
  /**
   * `process` (default) keeps state in memory; `host` shares it through the state file; `redis` shares it
   * through the Redis server at `url`.
   */
  mode?: CoordinationMode;
  /** The host state directory (host mode; default `~/.mono-agent/web-control`). */
  stateDirectory?: string;
  /** The Redis server (redis mode), e.g. `redis://127.0.0.1:6379/0`; `rediss://` for TLS. */
  url?: string;
  /** The time source and timer (default the system clock). */
  clock?: Clock;
  /** A ready store, replacing the one `mode` would pick (e.g. a shared database). */
  store?: CoordinationStore;
  /** How long an unreleased lease lives (1 s to 1 h, default 120 s). */
  leaseTtlMs?: number;
}

/** What to admit. */
export interface AdmissionRequest {
  /** The scope's name, e.g. `searxng:http://127.0.0.1:8088` or a fetch origin; hashed before storage. */
  scope: string;
  /** `search` (default: 5-minute throttle cooldown) or `fetch` (1 minute). */
  kind?: ScopeKind;
  /** Requests allowed in flight at once in this scope (1–64). */
  concurrency: number;
  /** Minimum milliseconds between two starts in this scope (0–60000). */
  spacingMs: number;
}

/** Options of one admission. */
export interface AdmitOptions {
  /** Stops waiting; an aborted admission holds nothing afterwards. */
  signal?: AbortSignal;
}

/** How the request ended, given back on release. */
export interface ReleaseOptions {
  /** Success, throttling, infrastructure failure, or abandoned (no verdict). */
  outcome: ReleaseOutcome;
  /** The server's Retry-After in milliseconds, when it sent one. */
  retryAfterMs?: number;
}

/** What a release left behind. */
export interface ReleaseResult {
  /** False when the permit had already been released. */
  released: boolean;
  /** Whether the scope is now cooling down. */
  coolingDown: boolean;
  /** Epoch milliseconds the cooldown ends, when cooling down. */
  retryAt?: number;
  /** Milliseconds until then, when cooling down. */
  retryAfterMs?: number;
  /** What opened the cooldown, when cooling down. */
  cause?: CooldownCause;
}

/** A granted admission: send the request, then release with its outcome. */
export interface Permit {
  /** Always `admitted`. */
  status: 'admitted';
  /** The scope's name as given. */
  scope: string;
  /** Whether this is the single probe after a cooldown. */
  probe: boolean;
  /**
   * Epoch milliseconds (the store's clock) at which the caller was let go: the granted start slot, or
   * later when the commit or the timer overran it.
   */
  admittedAt: number;
  /** Frees the slot and records the outcome; a second call does nothing. */
  release(options: ReleaseOptions): Promise<ReleaseResult>;
}

/** A refused admission: the scope is cooling down, so no request may be sent. */
export interface AdmissionSkip {
  /** Always `skipped`. */
  status: 'skipped';
  /** The scope's name as given. */
  scope: string;
  /** Always `cooldown`. */
  code: 'cooldown';
  /** `cooldown` while it runs; `probe_in_flight` after it, while another request probes the scope. */
  reason: 'cooldown' | 'probe_in_flight';
  /** Epoch milliseconds after which admission can succeed again. */
  retryAt: number;
  /** Milliseconds until `retryAt`. */
  retryAfterMs: number;
  /** What opened the cooldown: throttling or repeated infrastructure failures (when recorded). */
  cause?: CooldownCause;
}

/** The result of {@link Coordinator.admit}. */
export type Admission = Permit | AdmissionSkip;

/** What `web-control status --json` prints. */
export interface CoordinatorStatus {
  /** The coordination mode. */
  mode: CoordinationMode;
  /** The state file, in host mode. */
  stateFile?: string;
  /** The Redis server without credentials, in redis mode. */
  server?: string;
  /** Epoch milliseconds of the report (the store's clock). */
  generatedAt: number;
  /** The store's bounds. */
  limits: { maxBuckets: number; maxBytes?: number };
  /** Bytes of the state file, in host mode. */
  bytes?: number;
  /** Scopes stored. */
  bucketCount: number;
  /** Requests in flight across all scopes. */
  activeRequests: number;
  /** Scopes cooling down. */
  coolingDownCount: number;
  /** Every stored scope. */
  scopes: ScopeStatus[];
}

/** What `web-control reset --json` prints. */
export type ResetReport =
  | { mode: CoordinationMode; stateFile?: string; server?: string; reset: true; clearedBuckets: number }
  | {
      mode: CoordinationMode;
      stateFile?: string;
      server?: string;
      reset: false;
      reason: 'active_requests';
      activeRequests: number;
    };

/** Admission, cooldowns and status for every scope of one mode. */
export interface Coordinator {
  /** The coordination mode. */
  readonly mode: CoordinationMode;
  /**
   * Waits for a free slot and the scope's start slot, then resolves with a permit; resolves at once
   * with a skip while the scope cools down. Rejects with `cancelled` when the signal aborts.
   *
   * Spacing is guaranteed where callers see it: two resolutions of `admit()` for one scope, in any
   * processes sharing the store, are at least `spacingMs` apart. A caller let go later than its slot
   * has the next slot measured from its real start, recorded at its release; with concurrency above 1
   * a caller admitted before that release can be closer by the overrun (see the package README).
   */
  admit(request: AdmissionRequest, options?: AdmitOptions): Promise<Admission>;
  /** Operational metadata only: hashed keys, counts, times. */
  status(): Promise<CoordinatorStatus>;
  /** Clears all validated state when no request is active; refuses otherwise. Never repairs unsafe state. */
  reset(): Promise<ResetReport>;
  /** Closes the store's connections (redis mode); the coordinator is unusable afterwards. */
  close(): Promise<void>;
}

function invalid(rule: string, message: string, received?: unknown): WebToolError {
  return new WebToolError({
    code: 'validation_error',
    message,
    details: received === undefined ? { rule } : { rule, received },
  });
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function validateRequest(request: AdmissionRequest): Required<AdmissionRequest> {
  if (typeof request !== 'object' || request === null)
    throw invalid('request', 'an admission needs a request object');
  const { scope, kind = 'search', concurrency, spacingMs } = request;
  if (typeof scope !== 'string' || scope.length === 0 || scope.length > MAX_SCOPE_NAME_LENGTH) {
    throw invalid('scope', `scope must be a non-empty string of at most ${MAX_SCOPE_NAME_LENGTH} characters`);
  }
  if (kind !== 'search' && kind !== 'fetch') throw invalid('kind', 'kind must be search or fetch', kind);
  if (!isIntegerIn(concurrency, 1, MAX_SCOPE_CONCURRENCY)) {
    throw invalid(
      'concurrency',
      `concurrency must be an integer from 1 through ${MAX_SCOPE_CONCURRENCY}`,
      concurrency,
    );
  }
  if (!isIntegerIn(spacingMs, 0, MAX_SPACING_MS)) {
    throw invalid('spacingMs', `spacingMs must be an integer from 0 through ${MAX_SPACING_MS}`, spacingMs);
  }
  return { scope, kind, concurrency, spacingMs };
}

function validateRelease(options: ReleaseOptions): void {
  if (typeof options !== 'object' || options === null || !RELEASE_OUTCOMES.includes(options.outcome)) {
    throw invalid('outcome', `outcome must be one of ${RELEASE_OUTCOMES.join(', ')}`);
  }
  const { retryAfterMs } = options;
  if (retryAfterMs !== undefined && !(Number.isFinite(retryAfterMs) && retryAfterMs >= 0)) {
    throw invalid(
      'retryAfterMs',
      'retryAfterMs must be a finite number of milliseconds, 0 or more',
      retryAfterMs,
    );
  }
}

/** Creates a coordinator; `process` mode unless told otherwise. */
export function createCoordinator(options: CoordinatorOptions = {}): Coordinator {
  const mode = options.mode ?? 'process';
  if (mode !== 'process' && mode !== 'host' && mode !== 'redis') {
    throw invalid('mode', 'mode must be process, host or redis', mode);
  }
  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  if (!isIntegerIn(leaseTtlMs, MIN_LEASE_TTL_MS, MAX_LEASE_TTL_MS)) {
    throw invalid(
      'leaseTtlMs',
      `leaseTtlMs must be an integer from ${MIN_LEASE_TTL_MS} through ${MAX_LEASE_TTL_MS}`,
    );
  }
  const clock = options.clock ?? systemClock;
  const store = options.store ?? createModeStore(mode, options, clock);
  const description = store.describe();
  const location = {
    ...(description.stateFile === undefined ? {} : { stateFile: description.stateFile }),
    ...(description.server === undefined ? {} : { server: description.server }),
  };

  // One poller per scope per process: later callers queue here in arrival order, so in-process
  // admission is first come first served and only the head of the queue touches the store.
  const turns = createScopeTurns();

  return {
    mode,
    async admit(request, admitOptions = {}) {
      const { scope, kind, concurrency, spacingMs } = validateRequest(request);
      const { signal } = admitOptions;
      if (signal?.aborted) throw cancelledError(signal);
      const key = scopeKey(scope);
      const leave = await turns.take(key, signal);
      try {
        for (let attempt = 0; ; attempt += 1) {
          const decision = await store.admit(
            key,
            { kind, concurrency, spacingMs, leaseTtlMs },
            signal === undefined ? {} : { signal },
          );
          const receivedAt = clock.now();
          // Decided: the next waiter of the line (in any process) may try now.
          if (decision.type !== 'wait') store.stopWaiting?.(key);
          if (decision.type === 'granted')
            return await startPermit(store, clock, scope, key, decision, receivedAt, signal);
          if (decision.type === 'skipped') return cooldownSkip(scope, decision);
          await waitAsTold(store, clock, key, decision, attempt, signal);
        }
      } finally {
        store.stopWaiting?.(key);
        leave();
      }
    },
    async status() {
      const { scopes, bytes, now } = await store.snapshot();
      return {
        mode,
        ...location,
        generatedAt: now,
        limits: {
          maxBuckets: description.maxBuckets,
          ...(description.maxBytes === undefined ? {} : { maxBytes: description.maxBytes }),
        },
        ...(bytes === undefined ? {} : { bytes }),
        bucketCount: scopes.length,
        activeRequests: scopes.reduce((sum, scopeState) => sum + scopeState.activeRequests, 0),
        coolingDownCount: scopes.filter((scopeState) => scopeState.coolingDown).length,
        scopes,
      };
    },
    async reset() {
      const outcome = await store.reset();
      if (outcome.reset) return { mode, ...location, reset: true, clearedBuckets: outcome.clearedBuckets };
      return {
        mode,
        ...location,
        reset: false,
        reason: 'active_requests',
        activeRequests: outcome.activeRequests,
      };
    },
    close: () => store.close(),
  };
}

/** The skip a cooldown answer of the store becomes. */
function cooldownSkip(scope: string, decision: Extract<StoreAdmission, { type: 'skipped' }>): AdmissionSkip {
  return {
    status: 'skipped',
    scope,
    code: 'cooldown',
    reason: decision.reason,
    retryAt: decision.retryAt,
    retryAfterMs: Math.max(0, decision.retryAt - decision.now),
    ...(decision.cause === undefined ? {} : { cause: decision.cause }),
  };
}

/**
 * Waits as a `wait` answer of the store says before the next attempt. Spacing only ever ends later,
 * never sooner, so it is slept exactly; a slot may free any time, so the store is watched for it.
 */
async function waitAsTold(
  store: CoordinationStore,
  clock: Clock,
  key: string,
  decision: Extract<StoreAdmission, { type: 'wait' }>,
  attempt: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (decision.reason === 'spacing') {
    await clock.sleep(decision.waitMs, signal);
    return;
  }
  await store.waitForChange(key, {
    maxMs: decision.waitMs,
    attempt,
    ...(signal === undefined ? {} : { signal }),
  });
}

/**
 * Turns a grant into a permit at its start slot. Store times are converted through the store's `now`
 * in the answer and this process's clock since the answer arrived, so a store on another clock (a
 * Redis server) needs no synchronised clocks.
 */
async function startPermit(
  store: CoordinationStore,
  clock: Clock,
  scope: string,
  key: string,
  grant: Extract<StoreAdmission, { type: 'granted' }>,
  receivedAt: number,
  signal: AbortSignal | undefined,
): Promise<Permit> {
  let released = false;
  let startedAt: number | undefined;
  const permit: Permit = {
    status: 'admitted',
    scope,
    probe: grant.probe,
    admittedAt: grant.startAt,
    async release(releaseOptions) {
      validateRelease(releaseOptions);
      if (released) return { released: false, coolingDown: false };
      released = true;
      const effect = await store.release(key, {
        leaseId: grant.leaseId,
        startAt: grant.startAt,
        outcome: releaseOptions.outcome,
        ...(releaseOptions.retryAfterMs === undefined ? {} : { retryAfterMs: releaseOptions.retryAfterMs }),
        ...(startedAt === undefined ? {} : { startedAt }),
      });
      if (effect.cooldownUntil === undefined) return { released: true, coolingDown: false };
      return {
        released: true,
        coolingDown: true,
        retryAt: effect.cooldownUntil,
        retryAfterMs: Math.max(0, effect.cooldownUntil - effect.now),
        ...(effect.cooldownCause === undefined ? {} : { cause: effect.cooldownCause }),
      };
    },
  };
  const leadMs = grant.startAt - grant.now - (clock.now() - receivedAt);
  try {
    if (leadMs > 0) await clock.sleep(leadMs, signal);
    if (signal?.aborted) throw cancelledError(signal);
  } catch (error) {
    await permit.release({ outcome: 'abandoned' });
    throw error;
  }
  // The moment the caller is let go, in store time (its latest estimate); a release spaces the next
  // start from it.
  startedAt = Math.max(
    grant.startAt,
    grant.now + (grant.clockUncertaintyMs ?? 0) + (clock.now() - receivedAt),
  );
  permit.admittedAt = startedAt;
  return permit;
}

function createModeStore(
  mode: CoordinationMode,
  options: CoordinatorOptions,
  clock: Clock,
): CoordinationStore {
  if (mode === 'host') {
    return createHostStateStore({
      clock,
      ...(options.stateDirectory === undefined ? {} : { stateDirectory: options.stateDirectory }),
    });
  }
  if (mode === 'redis') {
    if (typeof options.url !== 'string' || options.url.length === 0) {
      throw invalid('url', 'redis coordination needs the Redis server url, e.g. redis://127.0.0.1:6379');
    }
    return createRedisStore({ url: options.url });
  }
  return createMemoryStore({ clock });
}
