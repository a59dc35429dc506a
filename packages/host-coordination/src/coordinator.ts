import { WebToolError } from '@mono-agent/budget-policy';
import {
  type AdmissionDecision,
  applyRelease,
  createBucket,
  decideAdmission,
  MAX_COOLDOWN_MS,
  type ReleaseOutcome,
  reclaimLeases,
} from './admission-policy.js';
import type { BucketState, BucketTable, CooldownCause } from './bucket-state.js';
import { type Clock, cancelledError, systemClock } from './clock.js';
import type { CoordinationStore, StoreContext } from './coordination-store.js';
import { createHostStateStore } from './host-state-store.js';
import { createMemoryStore } from './memory-store.js';
import { scopeKey } from './scope-key.js';
import type { ScopeKind } from './scope-limits.js';
import { MAX_LEASES_PER_BUCKET } from './state-file.js';

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

/** Where the coordinator keeps limits: this process only, or every opted-in process of this OS user. */
export type CoordinationMode = 'process' | 'host';

const RELEASE_OUTCOMES: readonly ReleaseOutcome[] = [
  'success',
  'throttled',
  'infrastructure_failure',
  'abandoned',
];

/** Options of {@link createCoordinator}. */
export interface CoordinatorOptions {
  /** `process` (default) keeps state in memory; `host` shares it through the state file. */
  mode?: CoordinationMode;
  /** The host state directory (host mode; default `~/.mono-agent/web-control`). */
  stateDirectory?: string;
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
  /** Epoch milliseconds of admission. */
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

/** Operational metadata of one scope, keyed by its hash. */
export interface ScopeStatus {
  /** SHA-256 of the scope name. */
  key: string;
  /** What the scope guards. */
  kind: ScopeKind;
  /** Requests in flight (live leases). */
  activeRequests: number;
  /** Whether a cooldown is running. */
  coolingDown: boolean;
  /** Epoch milliseconds the cooldown ends, while cooling down. */
  cooldownUntil?: number;
  /** What opened the cooldown, while cooling down or probing. */
  cooldownCause?: CooldownCause;
  /** Whether the cooldown ended and the next admission will be the probe. */
  probeDue: boolean;
  /** Whether the probe is out. */
  probeInFlight: boolean;
  /** Consecutive throttles. */
  throttleStreak: number;
  /** Consecutive infrastructure failures. */
  failureStreak: number;
  /** Epoch milliseconds of the last start, if any. */
  lastStartAt?: number;
  /** Admissions since the scope was first seen. */
  admissions: number;
}

/** What `web-control status --json` prints. */
export interface CoordinatorStatus {
  /** The coordination mode. */
  mode: CoordinationMode;
  /** The state file, in host mode. */
  stateFile?: string;
  /** Epoch milliseconds of the report. */
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
  | { mode: CoordinationMode; stateFile?: string; reset: true; clearedBuckets: number }
  | {
      mode: CoordinationMode;
      stateFile?: string;
      reset: false;
      reason: 'active_requests';
      activeRequests: number;
    };

/** Admission, cooldowns and status for every scope of one mode. */
export interface Coordinator {
  /** The coordination mode. */
  readonly mode: CoordinationMode;
  /**
   * Waits for a free slot and the scope's start spacing, then resolves with a permit; resolves at once
   * with a skip while the scope cools down. Rejects with `cancelled` when the signal aborts.
   */
  admit(request: AdmissionRequest, options?: AdmitOptions): Promise<Admission>;
  /** Operational metadata only: hashed keys, counts, times. */
  status(): Promise<CoordinatorStatus>;
  /** Clears all validated state when no request is active; refuses otherwise. Never repairs unsafe state. */
  reset(): Promise<ResetReport>;
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

function scopeStatus(key: string, bucket: BucketState, context: StoreContext): ScopeStatus {
  const live = structuredClone(bucket);
  reclaimLeases(live, context);
  const coolingDown = live.cooldownUntil > context.now;
  const probeInFlight = !coolingDown && live.cooldownUntil !== 0 && live.leases.some((lease) => lease.probe);
  return {
    key,
    kind: live.kind,
    activeRequests: live.leases.length,
    coolingDown,
    ...(coolingDown ? { cooldownUntil: live.cooldownUntil } : {}),
    ...(live.cooldownUntil !== 0 && live.cooldownCause !== undefined
      ? { cooldownCause: live.cooldownCause }
      : {}),
    probeDue: !coolingDown && live.cooldownUntil !== 0 && !probeInFlight,
    probeInFlight,
    throttleStreak: live.throttleStreak,
    failureStreak: live.failureStreak,
    ...(live.lastStartAt === 0 ? {} : { lastStartAt: live.lastStartAt }),
    admissions: live.admissions,
  };
}

interface QueueEntry {
  wake?: () => void;
}

/** Creates a coordinator; `process` mode unless told otherwise. */
export function createCoordinator(options: CoordinatorOptions = {}): Coordinator {
  const mode = options.mode ?? 'process';
  if (mode !== 'process' && mode !== 'host') throw invalid('mode', 'mode must be process or host', mode);
  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  if (!isIntegerIn(leaseTtlMs, MIN_LEASE_TTL_MS, MAX_LEASE_TTL_MS)) {
    throw invalid(
      'leaseTtlMs',
      `leaseTtlMs must be an integer from ${MIN_LEASE_TTL_MS} through ${MAX_LEASE_TTL_MS}`,
    );
  }
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    (mode === 'host'
      ? createHostStateStore({
          clock,
          ...(options.stateDirectory === undefined ? {} : { stateDirectory: options.stateDirectory }),
        })
      : createMemoryStore({ clock }));
  const description = store.describe();
  const location = description.stateFile === undefined ? {} : { stateFile: description.stateFile };

  // One poller per scope per process: later callers queue here in arrival order, so in-process
  // admission is first come first served and only the head of the queue touches the store.
  const queues = new Map<string, QueueEntry[]>();

  async function takeTurn(key: string, signal: AbortSignal | undefined): Promise<() => void> {
    let queue = queues.get(key);
    if (queue === undefined) {
      queue = [];
      queues.set(key, queue);
    }
    const line = queue;
    const entry: QueueEntry = {};
    line.push(entry);
    const leave = () => {
      const index = line.indexOf(entry);
      if (index === -1) return;
      line.splice(index, 1);
      if (line.length === 0) queues.delete(key);
      else if (index === 0) line[0]?.wake?.();
    };
    if (line[0] !== entry) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          leave();
          reject(cancelledError(signal));
        };
        entry.wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    return leave;
  }

  function createPermit(
    scope: string,
    key: string,
    decision: Extract<AdmissionDecision, { type: 'granted' }>,
  ): Permit {
    let released = false;
    const { lease } = decision;
    return {
      status: 'admitted',
      scope,
      probe: lease.probe,
      admittedAt: lease.acquiredAt,
      async release(releaseOptions) {
        validateRelease(releaseOptions);
        if (released) return { released: false, coolingDown: false };
        released = true;
        const effect = await store.update(key, (bucket, context) => {
          if (bucket === undefined) return { bucket, result: undefined };
          return {
            bucket,
            result: {
              ...applyRelease(
                bucket,
                lease.id,
                releaseOptions.outcome,
                releaseOptions.retryAfterMs,
                context.now,
              ),
              now: context.now,
            },
          };
        });
        if (effect?.cooldownUntil === undefined) return { released: true, coolingDown: false };
        return {
          released: true,
          coolingDown: true,
          retryAt: effect.cooldownUntil,
          retryAfterMs: effect.cooldownUntil - effect.now,
          ...(effect.cooldownCause === undefined ? {} : { cause: effect.cooldownCause }),
        };
      },
    };
  }

  return {
    mode,
    async admit(request, admitOptions = {}) {
      const { scope, kind, concurrency, spacingMs } = validateRequest(request);
      const { signal } = admitOptions;
      if (signal?.aborted) throw cancelledError(signal);
      const key = scopeKey(scope);
      const leave = await takeTurn(key, signal);
      try {
        for (let attempt = 0; ; attempt += 1) {
          const decision = await store.update(
            key,
            (bucket, context) => {
              const state = bucket ?? createBucket(kind, spacingMs, context.now);
              const result = decideAdmission(state, { kind, concurrency, spacingMs, leaseTtlMs }, context);
              return { bucket: state, result };
            },
            signal === undefined ? {} : { signal },
          );
          if (decision.type === 'granted') {
            const permit = createPermit(scope, key, decision);
            if (signal?.aborted) {
              await permit.release({ outcome: 'abandoned' });
              throw cancelledError(signal);
            }
            return permit;
          }
          if (decision.type === 'skipped') {
            const now = clock.now();
            return {
              status: 'skipped',
              scope,
              code: 'cooldown',
              reason: decision.reason,
              retryAt: decision.retryAt,
              retryAfterMs: Math.max(0, decision.retryAt - now),
              ...(decision.cause === undefined ? {} : { cause: decision.cause }),
            };
          }
          // Spacing only ever ends later, never sooner, so it is slept exactly; a slot may free any time.
          if (decision.reason === 'spacing') await clock.sleep(decision.waitMs, signal);
          else
            await store.waitForChange(key, {
              maxMs: decision.waitMs,
              attempt,
              ...(signal === undefined ? {} : { signal }),
            });
        }
      } finally {
        leave();
      }
    },
    async status() {
      const { buckets, bytes, context } = await store.read();
      const scopes = Object.entries(buckets).map(([key, bucket]) => scopeStatus(key, bucket, context));
      return {
        mode,
        ...location,
        generatedAt: context.now,
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
    reset() {
      return store.updateAll(
        (buckets: BucketTable, context): { buckets: BucketTable | undefined; result: ResetReport } => {
          let activeRequests = 0;
          for (const bucket of Object.values(buckets)) {
            reclaimLeases(bucket, context);
            activeRequests += bucket.leases.length;
          }
          if (activeRequests > 0) {
            return {
              buckets: undefined,
              result: { mode, ...location, reset: false, reason: 'active_requests', activeRequests },
            };
          }
          return {
            buckets: {},
            result: { mode, ...location, reset: true, clearedBuckets: Object.keys(buckets).length },
          };
        },
      );
    },
  };
}
