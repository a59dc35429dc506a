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
  const now = status.generatedAt;
  const byKind = new Map<string, number>();
  for (const scope of status.scopes) byKind.set(scope.kind, (byKind.get(scope.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([kind, count]) => `${count} ${kind}`).join(', ');
  const size =
    status.bytes === undefined
      ? ''
      : `; state file ${status.bytes} bytes${status.limits.maxBytes === undefined ? '' : ` of ${status.limits.maxBytes}`}`;
  const lines = [
    `Coordination: ${where(status)}`,
    `Report time: ${formatLocalTime(now, options.timeZone)}`,
    `Scopes: ${status.bucketCount} of ${status.limits.maxBuckets}${kinds === '' ? '' : ` (${kinds})`}${size}`,
    `Active requests: ${status.activeRequests}`,
  ];
  const cooling = status.scopes.filter((scope) => scope.coolingDown);
  const probing = status.scopes.filter((scope) => scope.probeDue || scope.probeInFlight);
  if (cooling.length === 0) lines.push('Cooldowns: none');
  else {
    lines.push(`Cooldowns: ${cooling.length}`);
    for (const scope of cooling) {
      const until = scope.cooldownUntil ?? now;
      const cause = scope.cooldownCause === undefined ? 'cause not recorded' : CAUSES[scope.cooldownCause];
      const streak =
        scope.cooldownCause === 'throttled' && scope.throttleStreak > 1
          ? ` (${scope.throttleStreak} in a row)`
          : scope.cooldownCause === 'infrastructure_failure'
            ? ` (${plural(scope.failureStreak, 'failure')} in a row)`
            : '';
      lines.push(
        `  ${scope.kind} scope ${scope.key.slice(0, 12)}: ${cause}${streak}; until ${formatLocalTime(until, options.timeZone)}, ${formatDuration(until - now)} left`,
      );
    }
  }
  for (const scope of probing) {
    lines.push(
      `  ${scope.kind} scope ${scope.key.slice(0, 12)}: cooldown over; ${scope.probeInFlight ? 'one probe request is out' : 'the next request is the probe'}`,
    );
  }
  if (status.scopes.some((scope) => scope.activeRequests > 0)) {
    lines.push('In flight:');
    for (const scope of status.scopes.filter((entry) => entry.activeRequests > 0))
      lines.push(
        `  ${scope.kind} scope ${scope.key.slice(0, 12)}: ${plural(scope.activeRequests, 'request')}`,
      );
  }
  if (status.scopes.length > 0)
    lines.push('Scope keys are hashes of the backend or origin; add --json for every field.');
  return `${lines.join('\n')}\n`;
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
