import { WebToolError } from '@mono-agent/budget-policy';
import type { CooldownCause } from './bucket-state.js';
import { type Clock, cancelledError, systemClock } from './clock.js';
import type {
  CoordinationStore,
  StoreAdmission,
  StoreDescription,
  StoreOperationOptions,
} from './coordination-store.js';
import { loadRedisClient, type RedisClientImporter } from './redis-client.js';
import { ADMIT_SCRIPT, RELEASE_SCRIPT, RESET_SCRIPT, STATUS_SCRIPT } from './redis-scripts.js';
import type { ScopeKind } from './scope-limits.js';
import type { ScopeStatus } from './scope-status.js';

/** The most scopes a Redis store keeps, the same bound as the host file. */
export const MAX_REDIS_SCOPES = 512;
/** How long connecting to Redis may take before an admission fails closed. */
export const REDIS_CONNECT_TIMEOUT_MS = 1_000;
/** How long one script may take before an admission fails closed. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** The prefix of every key the store writes; the braces are one hash tag, so every key shares a slot. */
export const DEFAULT_REDIS_KEY_PREFIX = '{mono-agent-web}:coordination:v1:';
/** The shortest lead of a spaced start slot in redis mode. */
export const REDIS_MIN_COMMIT_MARGIN_MS = 2;
/** The longest lead of a spaced start slot in redis mode. */
export const REDIS_MAX_COMMIT_MARGIN_MS = 100;
/** The first pause of a redis-mode waiter polling for a free slot. */
export const REDIS_POLL_MIN_MS = 2;
/** The longest pause of a redis-mode waiter polling for a free slot. */
export const REDIS_POLL_MAX_MS = 50;
const ROUND_TRIP_SAMPLES = 16;
const INITIAL_COMMIT_MARGIN_MS = 10;

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  url: string;
  /** Key prefix (default {@link DEFAULT_REDIS_KEY_PREFIX}); tests use one per run. */
  keyPrefix?: string;
  /** Measures round trips and sleeps between polls (default the system clock). */
  clock?: Clock;
  /**
   * Imports the client package, `@redis/client` (default: the import itself); tests stand in for a
   * client that is not installed.
   */
  importClient?: RedisClientImporter;
}

/** A minimal view of the node-redis client, so the module is loaded only when redis mode is used. */
interface RedisConnection {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  close(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  sendCommand<T>(args: readonly string[], options?: { timeout?: number }): Promise<T>;
}

function invalidUrl(message: string): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details: { rule: 'url' } });
}

/** The server as `redis://host:port/db`: no user name or password ever reaches status output or errors. */
export function redactRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

function parseServerUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl('the Redis url is not a URL; expected redis://host:port or rediss://host:port');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw invalidUrl(`the Redis url must start with redis:// or rediss://, not ${parsed.protocol}//`);
  }
  if (parsed.hostname === '') throw invalidUrl('the Redis url names no host');
  return redactRedisUrl(url);
}

function sha1(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha1').update(text).digest('hex');
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

type Row = [string, string, number, number, number, number, number, number, number, string];

function causeOf(value: unknown): CooldownCause | undefined {
  return value === 'throttled' || value === 'infrastructure_failure' ? value : undefined;
}

/**
 * The `redis`-mode store: the same admission contract as the host file, shared by every machine that
 * reaches one Redis server. Each admission and release is one Lua script (one round trip), timed by the
 * server's TIME; leases expire by TTL alone, because a lease holder on another machine cannot be judged
 * dead from here. When Redis is down or answers too slowly, every operation fails closed with
 * `backend_unavailable` (nothing is admitted uncoordinated), and the next operation after the server
 * returns connects again. The client, `@redis/client`, is an optional peer loaded by the first
 * operation; when it is not installed, every operation fails with `configuration_error` naming it.
 */
export function createRedisStore(options: RedisStoreOptions): CoordinationStore {
  const server = parseServerUrl(options.url);
  const { url } = options;
  const prefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  const clock = options.clock ?? systemClock;
  const indexKey = `${prefix}scopes`;
  const roundTrips: number[] = [];
  let connection: RedisConnection | undefined;
  let connecting: Promise<RedisConnection> | undefined;
  let closed = false;

  const unavailable = (what: string, cause: unknown) =>
    new WebToolError({
      code: 'backend_unavailable',
      message: `the Redis coordination store at ${server} ${what}; no request was admitted (coordination fails closed until it answers again)`,
      details: { store: 'redis', server },
      cause,
    });

  function drop(current: RedisConnection): void {
    if (connection === current) connection = undefined;
    try {
      current.destroy();
    } catch {
      // Already gone.
    }
  }

  async function open(): Promise<RedisConnection> {
    // An optional peer: loaded at the first operation, and a configuration_error when not installed.
    const { createClient } = await loadRedisClient(options.importClient);
    const client = createClient({
      url,
      // Commands fail at once while disconnected instead of queueing until the server returns.
      disableOfflineQueue: true,
      // No background reconnecting: the next operation connects again, so a process never keeps timers
      // alive for a server that is gone.
      socket: { connectTimeout: REDIS_CONNECT_TIMEOUT_MS, reconnectStrategy: false },
    }) as unknown as RedisConnection;
    // Failures surface through the command that meets them; an unhandled 'error' event would crash.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      drop(client);
      throw unavailable('cannot be reached', error);
    }
    return client;
  }

  async function ready(): Promise<RedisConnection> {
    if (closed) throw unavailable('was closed', undefined);
    if (connection?.isReady) return connection;
    if (connection !== undefined) drop(connection);
    connecting ??= open().finally(() => {
      connecting = undefined;
    });
    connection = await connecting;
    return connection;
  }

  async function run<T>(script: string, keys: string[], args: string[], signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw cancelledError(signal);
    const client = await ready();
    const tail = [String(keys.length), ...keys, ...args];
    const started = performance.now();
    try {
      let reply: T;
      try {
        reply = await client.sendCommand<T>(['EVALSHA', sha1(script), ...tail], {
          timeout: REDIS_COMMAND_TIMEOUT_MS,
        });
      } catch (error) {
        // A server that restarted has forgotten the script; send it whole once.
        if (!isNoScript(error)) throw error;
        reply = await client.sendCommand<T>(['EVAL', script, ...tail], { timeout: REDIS_COMMAND_TIMEOUT_MS });
      }
      roundTrips.push(performance.now() - started);
      if (roundTrips.length > ROUND_TRIP_SAMPLES) roundTrips.shift();
      return reply;
    } catch (error) {
      if (error instanceof WebToolError) throw error;
      drop(client);
      throw unavailable('did not answer', error);
    }
  }

  const bucketKeys = (key: string) => [`${prefix}b:${key}`, `${prefix}l:${key}`, indexKey];

  function marginMs(): number {
    if (roundTrips.length === 0) return INITIAL_COMMIT_MARGIN_MS;
    // A grant reaches the caller within one round trip of the server's decision.
    const slowest = Math.max(...roundTrips);
    return Math.min(
      REDIS_MAX_COMMIT_MARGIN_MS,
      Math.max(REDIS_MIN_COMMIT_MARGIN_MS, Math.ceil(slowest * 1.5) + 1),
    );
  }

  const description: StoreDescription = { mode: 'redis', server, maxBuckets: MAX_REDIS_SCOPES };

  return {
    describe: () => description,
    async admit(key, request, operation: StoreOperationOptions = {}) {
      const reply = await run<(string | number)[]>(
        ADMIT_SCRIPT,
        bucketKeys(key),
        [
          key,
          request.kind,
          String(request.concurrency),
          String(request.spacingMs),
          String(request.leaseTtlMs),
          String(marginMs()),
          process.getBuiltinModule('node:crypto').randomUUID(),
          String(MAX_REDIS_SCOPES),
        ],
        operation.signal,
      );
      const [type] = reply;
      // The server's clock when it decided. By the time the answer arrives it is later by anything up
      // to the round trip (a reply can wait in the socket while this process is descheduled), so waits
      // count from this lower bound and the recorded start from the upper one.
      const now = Number(reply[reply.length - 1]);
      const roundTrip = roundTrips[roundTrips.length - 1] ?? 0;
      let answer: StoreAdmission;
      if (type === 'granted') {
        answer = {
          type: 'granted',
          leaseId: String(reply[1]),
          probe: Number(reply[2]) === 1,
          startAt: Number(reply[3]),
          now,
          clockUncertaintyMs: Math.ceil(roundTrip),
        };
      } else if (type === 'skipped') {
        const cause = causeOf(reply[3]);
        answer = {
          type: 'skipped',
          reason: reply[1] === 'probe_in_flight' ? 'probe_in_flight' : 'cooldown',
          retryAt: Number(reply[2]),
          ...(cause === undefined ? {} : { cause }),
          now,
        };
      } else if (type === 'wait') {
        answer = {
          type: 'wait',
          reason: reply[1] === 'spacing' ? 'spacing' : 'slot',
          waitMs: Number(reply[2]),
          now,
        };
      } else {
        throw new WebToolError({
          code: 'capacity_exceeded',
          message: `the Redis coordination store already tracks ${MAX_REDIS_SCOPES} active scopes; a new scope is refused`,
          details: { limit: MAX_REDIS_SCOPES },
        });
      }
      return answer;
    },
    async release(key, release, operation: StoreOperationOptions = {}) {
      const [held, cooldownUntil, causeText, now] = await run<[number, number, string, number]>(
        RELEASE_SCRIPT,
        bucketKeys(key),
        [
          key,
          release.leaseId,
          release.outcome,
          release.retryAfterMs === undefined ? '' : String(Math.ceil(release.retryAfterMs)),
          String(release.startAt),
          release.startedAt === undefined ? '' : String(Math.ceil(release.startedAt)),
        ],
        operation.signal,
      );
      return {
        leaseHeld: Number(held) === 1,
        ...(Number(cooldownUntil) > 0 ? { cooldownUntil: Number(cooldownUntil) } : {}),
        ...(causeOf(causeText) === undefined ? {} : { cooldownCause: causeOf(causeText) as CooldownCause }),
        now: Number(now),
      };
    },
    async snapshot(operation: StoreOperationOptions = {}) {
      const [now, rows] = await run<[number, Row[]]>(STATUS_SCRIPT, [indexKey], [prefix], operation.signal);
      const scopes = rows.map(
        ([key, kind, last, cool, throttleStreak, failureStreak, admissions, live, probeLive, causeText]) => {
          const coolingDown = Number(cool) > Number(now);
          const cause = Number(cool) === 0 ? undefined : causeOf(causeText);
          const status: ScopeStatus = {
            key,
            kind: kind as ScopeKind,
            activeRequests: Number(live),
            coolingDown,
            ...(coolingDown ? { cooldownUntil: Number(cool) } : {}),
            ...(cause === undefined ? {} : { cooldownCause: cause }),
            probeDue: !coolingDown && Number(cool) !== 0 && Number(probeLive) === 0,
            probeInFlight: !coolingDown && Number(cool) !== 0 && Number(probeLive) === 1,
            throttleStreak: Number(throttleStreak),
            failureStreak: Number(failureStreak),
            ...(Number(last) === 0 ? {} : { lastStartAt: Number(last) }),
            admissions: Number(admissions),
          };
          return status;
        },
      );
      return { scopes, now: Number(now) };
    },
    async reset(operation: StoreOperationOptions = {}) {
      const [done, count] = await run<[number, number]>(RESET_SCRIPT, [indexKey], [prefix], operation.signal);
      return Number(done) === 1
        ? { reset: true, clearedBuckets: Number(count) }
        : { reset: false, activeRequests: Number(count) };
    },
    async waitForChange(_key, { maxMs, attempt, signal }) {
      const poll = Math.min(REDIS_POLL_MAX_MS, REDIS_POLL_MIN_MS * 2 ** Math.min(attempt, 16));
      await clock.sleep(maxMs === undefined ? poll : Math.min(maxMs, poll), signal);
    },
    async close() {
      closed = true;
      const current =
        connection ?? (connecting === undefined ? undefined : await connecting.catch(() => undefined));
      connection = undefined;
      if (current === undefined) return;
      try {
        await current.close();
      } catch {
        current.destroy();
      }
    },
  };
}
