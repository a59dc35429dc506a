// The admission policy of admission-policy.ts, as Lua run atomically on the Redis server. Each script is
// one round trip; time is the server's TIME, so the clocks of the machines sharing it never matter.
//
// Layout, per scope (the key is the SHA-256 of the scope name; nothing else about the scope is stored):
//   <prefix>b:<key>  hash  kind spacing last cool cause tstreak fstreak admissions updated probe
//   <prefix>l:<key>  zset  lease id -> expiresAt (lease ids are random UUIDs)
//   <prefix>scopes   zset  key -> the time after which the scope holds nothing worth keeping
// Every key carries one hash tag, so a script's keys share one slot on a clustered server.
import {
  DEFAULT_THROTTLE_COOLDOWN_MS,
  INFRASTRUCTURE_FAILURE_COOLDOWN_MS,
  INFRASTRUCTURE_FAILURE_THRESHOLD,
  MAX_COOLDOWN_MS,
} from './admission-policy.js';

/** Extra life given to Redis keys past the moment their scope holds nothing worth keeping. */
export const REDIS_KEY_GRACE_MS = 60_000;

const COMMON = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucketKey, leaseKey, indexKey = KEYS[1], KEYS[2], KEYS[3]

local function load()
  local fields = redis.call('HGETALL', bucketKey)
  local b = { kind = 'search', spacing = 0, last = 0, cool = 0, cause = '', tstreak = 0, fstreak = 0,
    admissions = 0, updated = now, probe = '' }
  for index = 1, #fields, 2 do
    local name, value = fields[index], fields[index + 1]
    if name == 'kind' or name == 'probe' or name == 'cause' then b[name] = value else b[name] = tonumber(value) end
  end
  return b
end

local function save(b, scope)
  redis.call('HSET', bucketKey, 'kind', b.kind, 'spacing', b.spacing, 'last', b.last, 'cool', b.cool, 'cause', b.cause,
    'tstreak', b.tstreak, 'fstreak', b.fstreak, 'admissions', b.admissions, 'updated', b.updated,
    'probe', b.probe)
  -- The scope is worth keeping while a lease lives, the spacing runs, a cooldown or probe is due,
  -- or a streak is younger than the longest cooldown (the same rule as the host file's eviction).
  local keep = math.max(now, b.last + b.spacing)
  local newest = redis.call('ZRANGE', leaseKey, -1, -1, 'WITHSCORES')
  if newest[2] then keep = math.max(keep, tonumber(newest[2])) end
  if b.cool ~= 0 then keep = math.max(keep, b.cool + ${MAX_COOLDOWN_MS}) end
  if b.tstreak + b.fstreak > 0 then keep = math.max(keep, b.updated + ${MAX_COOLDOWN_MS}) end
  redis.call('ZADD', indexKey, keep, scope)
  redis.call('PEXPIREAT', bucketKey, keep + ${REDIS_KEY_GRACE_MS})
  if newest[2] then redis.call('PEXPIREAT', leaseKey, keep + ${REDIS_KEY_GRACE_MS}) end
end

local function reclaim(b)
  redis.call('ZREMRANGEBYSCORE', leaseKey, '-inf', now)
  if b.probe ~= '' and not redis.call('ZSCORE', leaseKey, b.probe) then b.probe = '' end
end
`;

/**
 * Admission. KEYS: bucket, leases, index. ARGV: scope key, kind, concurrency, spacing, lease TTL,
 * commit margin, new lease id, most scopes. Returns one of
 * `{'granted', leaseId, probe, startAt, now}`, `{'skipped', reason, retryAt, cause, now}`,
 * `{'wait', reason, waitMs, now}`, `{'capacity', limit, now}`.
 */
export const ADMIT_SCRIPT = `${COMMON}
local scope, kind = ARGV[1], ARGV[2]
local concurrency, spacing, ttl, margin = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local leaseId, maxScopes = ARGV[7], tonumber(ARGV[8])
if redis.call('EXISTS', bucketKey) == 0 then
  redis.call('ZREMRANGEBYSCORE', indexKey, '-inf', '(' .. now)
  if not redis.call('ZSCORE', indexKey, scope) and redis.call('ZCARD', indexKey) >= maxScopes then
    return { 'capacity', maxScopes, now }
  end
end
local b = load()
b.kind, b.spacing = kind, spacing
reclaim(b)
if b.cool > now then
  save(b, scope)
  return { 'skipped', 'cooldown', b.cool, b.cause, now }
end
local probing = b.cool ~= 0
if probing and b.probe ~= '' then
  local expires = tonumber(redis.call('ZSCORE', leaseKey, b.probe))
  save(b, scope)
  return { 'skipped', 'probe_in_flight', expires, b.cause, now }
end
if redis.call('ZCARD', leaseKey) >= concurrency then
  local earliest = redis.call('ZRANGE', leaseKey, 0, 0, 'WITHSCORES')
  save(b, scope)
  return { 'wait', 'slot', math.max(1, tonumber(earliest[2]) - now), now }
end
local soonest = now
if spacing > 0 then soonest = now + margin end
local slot = soonest
if b.last ~= 0 then slot = math.max(soonest, b.last + spacing) end
if slot > soonest then
  save(b, scope)
  return { 'wait', 'spacing', math.max(1, slot - soonest), now }
end
redis.call('ZADD', leaseKey, slot + ttl, leaseId)
local probe = 0
if probing then
  b.probe = leaseId
  probe = 1
end
b.last, b.admissions, b.updated = slot, b.admissions + 1, now
save(b, scope)
return { 'granted', leaseId, probe, slot, now }
`;

/**
 * Release. KEYS: bucket, leases, index. ARGV: scope key, lease id, outcome, Retry-After ms or '',
 * the lease's start slot, when the caller really started or ''. Returns
 * `{leaseHeld, cooldownUntil, cause, now}` (cooldownUntil 0 and cause '' when not cooling down).
 */
export const RELEASE_SCRIPT = `${COMMON}
local scope, leaseId, outcome = ARGV[1], ARGV[2], ARGV[3]
local retryAfter, startAt, startedAt = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if redis.call('EXISTS', bucketKey) == 0 then return { 0, 0, now } end
local b = load()
local expires = redis.call('ZSCORE', leaseKey, leaseId)
local held = redis.call('ZREM', leaseKey, leaseId) == 1
local probe = held and b.probe == leaseId
if b.probe == leaseId then b.probe = '' end
-- The caller's estimate of when it started may be ahead of this clock by its admission's round trip;
-- it is kept (bounded by the lease's expiry), so the next start is a full spacing after it.
if held and startedAt and startAt == b.last and startedAt > b.last then b.last = math.min(startedAt, tonumber(expires)) end
local coolingDown = b.cool > now
b.updated = now
local function capped(ms) return math.min(ms, ${MAX_COOLDOWN_MS}) end
if outcome == 'success' then
  if probe or b.cool == 0 then b.cool, b.cause, b.tstreak, b.fstreak = 0, '', 0, 0 end
elseif outcome == 'throttled' then
  if coolingDown and not probe then
    if retryAfter then b.cool = math.max(b.cool, now + capped(retryAfter)) end
  else
    b.tstreak = b.tstreak + 1
    local delay
    if retryAfter then
      delay = capped(retryAfter)
    else
      local base = ${DEFAULT_THROTTLE_COOLDOWN_MS.search}
      if b.kind == 'fetch' then base = ${DEFAULT_THROTTLE_COOLDOWN_MS.fetch} end
      delay = capped(base * 2 ^ math.max(0, b.tstreak - 1))
    end
    b.cool = now + delay
    b.cause = 'throttled'
  end
elseif outcome == 'infrastructure_failure' then
  b.fstreak = b.fstreak + 1
  if b.fstreak >= ${INFRASTRUCTURE_FAILURE_THRESHOLD} then
    local until_failure = now + ${INFRASTRUCTURE_FAILURE_COOLDOWN_MS}
    -- A throttle cooldown that ends later keeps its cause: it is what the wait is for.
    if until_failure > b.cool then b.cool, b.cause = until_failure, 'infrastructure_failure' end
  end
end
save(b, scope)
local held_flag = 0
if held then held_flag = 1 end
local until_, cause = 0, ''
if b.cool > now then until_, cause = b.cool, b.cause end
return { held_flag, until_, cause, now }
`;

const EVERY_SCOPE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local prefix, indexKey = ARGV[1], KEYS[1]
local scopes = redis.call('ZRANGE', indexKey, 0, -1)
`;

/**
 * Every scope's state. KEYS: index. ARGV: key prefix. Returns `{now, n, then n rows}`, each row
 * `{key, kind, last, cool, tstreak, fstreak, admissions, liveLeases, probeLive, cause}`.
 */
export const STATUS_SCRIPT = `${EVERY_SCOPE}
local rows = {}
for _, scope in ipairs(scopes) do
  local bucketKey, leaseKey = prefix .. 'b:' .. scope, prefix .. 'l:' .. scope
  local f = redis.call('HMGET', bucketKey, 'kind', 'last', 'cool', 'tstreak', 'fstreak', 'admissions', 'probe', 'cause')
  if f[1] then
    local live = redis.call('ZCOUNT', leaseKey, '(' .. now, '+inf')
    local probeLive = 0
    if f[7] and f[7] ~= '' then
      local expires = redis.call('ZSCORE', leaseKey, f[7])
      if expires and tonumber(expires) > now then probeLive = 1 end
    end
    table.insert(rows, { scope, f[1], tonumber(f[2]), tonumber(f[3]), tonumber(f[4]), tonumber(f[5]),
      tonumber(f[6]), live, probeLive, f[8] or '' })
  end
end
return { now, rows }
`;

/** Reset. KEYS: index. ARGV: key prefix. Returns `{1, cleared}` or `{0, activeRequests}`. */
export const RESET_SCRIPT = `${EVERY_SCOPE}
local active, cleared = 0, 0
for _, scope in ipairs(scopes) do
  active = active + redis.call('ZCOUNT', prefix .. 'l:' .. scope, '(' .. now, '+inf')
end
if active > 0 then return { 0, active } end
for _, scope in ipairs(scopes) do
  cleared = cleared + redis.call('DEL', prefix .. 'b:' .. scope)
  redis.call('DEL', prefix .. 'l:' .. scope)
end
redis.call('DEL', indexKey)
return { 1, cleared }
`;
