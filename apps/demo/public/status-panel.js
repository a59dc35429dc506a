// The coordination status panel: the scopes, their cooldowns and the reset button, apart from the
// search and fetch panels because it polls on its own and shares no state with them.

import { api, byId, cell, labelled, text, timeOf } from './console-api.js';

const COOLDOWN_CAUSES = { throttled: 'throttled', infrastructure_failure: 'repeated failures' };

/** A duration as minutes and seconds, rounded up ("4 min 12 s"). */
function duration(milliseconds) {
  const total = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return [
    hours ? `${hours} h` : '',
    minutes ? `${minutes} min` : '',
    seconds || total === 0 ? `${seconds} s` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** One scope's cooldown in words: its cause, its end in local time and the time left. */
function cooldownOf(scope, now) {
  const cause = COOLDOWN_CAUSES[scope.cooldownCause] ?? 'cause not recorded';
  if (scope.coolingDown && scope.cooldownUntil)
    return `${cause}: until ${timeOf(scope.cooldownUntil)}, ${duration(scope.cooldownUntil - now)} left`;
  if (scope.probeInFlight) return `over (${cause}); one probe request is out`;
  if (scope.probeDue) return `over (${cause}); the next request is the probe`;
  return 'none';
}

export async function refreshStatus() {
  try {
    const status = await api('GET', '/api/status');
    text('status-mode', status.mode + (status.stateFile ? ` (${status.stateFile})` : ''));
    text('status-buckets', `${status.bucketCount} of ${status.limits.maxBuckets}`);
    text('status-active', String(status.activeRequests));
    text('status-cooling', String(status.coolingDownCount));
    text('status-updated', timeOf(status.generatedAt));
    const body = byId('scopes-table').tBodies[0];
    body.replaceChildren();
    for (const scope of status.scopes) {
      const row = body.insertRow();
      labelled(row, 'Kind', scope.kind);
      const key = labelled(row, 'Scope', scope.key.slice(0, 8));
      key.title = `SHA-256 of the backend or origin: ${scope.key}`;
      key.className = 'key';
      labelled(row, 'Active', String(scope.activeRequests));
      labelled(row, 'Cooldown', cooldownOf(scope, status.generatedAt));
      labelled(row, 'Admitted', String(scope.admissions));
    }
    if (status.scopes.length === 0) {
      const row = body.insertRow();
      cell(row, 'No scope yet: a search or fetch creates one.').colSpan = 5;
    }
  } catch (error) {
    text('status-updated', `status unavailable: ${error.message}`);
  }
}

export async function reset() {
  try {
    const report = await api('POST', '/api/reset');
    text(
      'reset-message',
      report.reset
        ? `Cleared ${report.clearedBuckets} scope${report.clearedBuckets === 1 ? '' : 's'}.`
        : `Refused: ${report.activeRequests} request${report.activeRequests === 1 ? ' is' : 's are'} active; reset clears state only when nothing is in flight.`,
    );
  } catch (error) {
    text('reset-message', `Refused: ${error.message}`);
  }
  await refreshStatus();
}
