import type { CoordinatorStatus, ResetReport, ScopeStatus } from '@mono-agent/host-coordination';

/** Options of {@link formatCoordinatorStatus}. */
export interface StatusFormatOptions {
  /** The time zone local times are shown in (default: the process's own). */
  timeZone?: string;
}

const CAUSES: Record<NonNullable<ScopeStatus['cooldownCause']>, string> = {
  throttled: 'the backend throttled requests',
  infrastructure_failure: 'repeated infrastructure failures',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A duration as hours, minutes and seconds, rounded up to the second ("4 min 12 s"). */
export function formatDuration(milliseconds: number): string {
  let seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts = [];
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds} s`);
  return parts.join(' ');
}

/** An instant as local date and time with the zone's offset ("2026-12-04 19:42:10 UTC+01:00"). */
export function formatLocalTime(epochMs: number, timeZone?: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      ...(timeZone === undefined ? {} : { timeZone }),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(epochMs)
      .map((part) => [part.type, part.value]),
  );
  const offset =
    parts.timeZoneName === 'GMT' ? 'UTC+00:00' : String(parts.timeZoneName).replace('GMT', 'UTC');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

function where(report: { mode: string; stateFile?: string; server?: string }): string {
  if (report.mode === 'host') return `host mode, shared through ${report.stateFile ?? 'the host state file'}`;
  if (report.mode === 'redis') return `redis mode, shared through ${report.server ?? 'the Redis server'}`;
  return 'process mode: limits live in each process and nothing is shared, so this process has no history';
}

/**
 * `web-control status` as an operator reads it: the mode and where state lives, the scopes by kind,
 * requests in flight, and every cooldown with its cause, its end in local time and the time left.
 */
export function formatCoordinatorStatus(
  status: CoordinatorStatus,
  options: StatusFormatOptions = {},
): string {
  const lines = [
    `Coordination: ${where(status)}`,
    `Report time: ${formatLocalTime(status.generatedAt, options.timeZone)}`,
    scopesLine(status),
    `Active requests: ${status.activeRequests}`,
    ...cooldownLines(status, options),
    ...probeLines(status.scopes),
    ...inFlightLines(status.scopes),
  ];
  if (status.scopes.length > 0)
    lines.push('Scope keys are hashes of the backend or origin; add --json for every field.');
  return `${lines.join('\n')}\n`;
}

/** How many scopes there are of how many allowed, by kind, and how large the state file is. */
function scopesLine(status: CoordinatorStatus): string {
  const byKind = new Map<string, number>();
  for (const scope of status.scopes) byKind.set(scope.kind, (byKind.get(scope.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([kind, count]) => `${count} ${kind}`).join(', ');
  const size =
    status.bytes === undefined
      ? ''
      : `; state file ${status.bytes} bytes${status.limits.maxBytes === undefined ? '' : ` of ${status.limits.maxBytes}`}`;
  return `Scopes: ${status.bucketCount} of ${status.limits.maxBuckets}${kinds === '' ? '' : ` (${kinds})`}${size}`;
}

function scopeLabel(scope: ScopeStatus): string {
  return `${scope.kind} scope ${scope.key.slice(0, 12)}`;
}

/** How many times in a row the cause struck, when that says more than the cause alone. */
function streakOf(scope: ScopeStatus): string {
  if (scope.cooldownCause === 'throttled' && scope.throttleStreak > 1)
    return ` (${scope.throttleStreak} in a row)`;
  if (scope.cooldownCause === 'infrastructure_failure')
    return ` (${plural(scope.failureStreak, 'failure')} in a row)`;
  return '';
}

/** Every running cooldown: its cause, when it ends in local time, and how long that is from now. */
function cooldownLines(status: CoordinatorStatus, options: StatusFormatOptions): string[] {
  const now = status.generatedAt;
  const cooling = status.scopes.filter((scope) => scope.coolingDown);
  if (cooling.length === 0) return ['Cooldowns: none'];
  return [
    `Cooldowns: ${cooling.length}`,
    ...cooling.map((scope) => {
      const until = scope.cooldownUntil ?? now;
      const cause = scope.cooldownCause === undefined ? 'cause not recorded' : CAUSES[scope.cooldownCause];
      return `  ${scopeLabel(scope)}: ${cause}${streakOf(scope)}; until ${formatLocalTime(until, options.timeZone)}, ${formatDuration(until - now)} left`;
    }),
  ];
}

/** The scopes whose cooldown is over: their next request, or the one already out, is the probe. */
function probeLines(scopes: readonly ScopeStatus[]): string[] {
  return scopes
    .filter((scope) => scope.probeDue || scope.probeInFlight)
    .map(
      (scope) =>
        `  ${scopeLabel(scope)}: cooldown over; ${scope.probeInFlight ? 'one probe request is out' : 'the next request is the probe'}`,
    );
}

function inFlightLines(scopes: readonly ScopeStatus[]): string[] {
  const active = scopes.filter((scope) => scope.activeRequests > 0);
  if (active.length === 0) return [];
  return [
    'In flight:',
    ...active.map((scope) => `  ${scopeLabel(scope)}: ${plural(scope.activeRequests, 'request')}`),
  ];
}

/** `web-control reset` as an operator reads it: what was cleared, or why nothing was. */
export function formatResetReport(report: ResetReport): string {
  const lines = [`Coordination: ${where(report)}`];
  if (report.reset) {
    lines.push(
      report.clearedBuckets === 0
        ? 'Reset: there was no state to clear.'
        : `Reset: cleared ${plural(report.clearedBuckets, 'scope')}, with their cooldowns and counters.`,
    );
  } else {
    lines.push(
      `Reset refused: ${plural(report.activeRequests, 'request')} ${report.activeRequests === 1 ? 'is' : 'are'} in flight, and reset clears state only when none is. Try again when they finish.`,
    );
  }
  return `${lines.join('\n')}\n`;
}
