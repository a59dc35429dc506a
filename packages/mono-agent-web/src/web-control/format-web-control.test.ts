import type { CoordinatorStatus, ScopeStatus } from '@mono-agent/host-coordination';
import { describe, expect, it } from 'vitest';
import {
  formatCoordinatorStatus,
  formatDuration,
  formatLocalTime,
  formatResetReport,
} from './format-web-control.js';

const NOW = Date.UTC(2026, 11, 4, 18, 0, 0);
const scope = (overrides: Partial<ScopeStatus>): ScopeStatus => ({
  key: 'a'.repeat(64),
  kind: 'search',
  activeRequests: 0,
  coolingDown: false,
  probeDue: false,
  probeInFlight: false,
  throttleStreak: 0,
  failureStreak: 0,
  admissions: 1,
  ...overrides,
});
const status = (scopes: ScopeStatus[]): CoordinatorStatus => ({
  mode: 'redis',
  server: 'redis://127.0.0.1:6379/0',
  generatedAt: NOW,
  limits: { maxBuckets: 512 },
  bucketCount: scopes.length,
  activeRequests: scopes.reduce((sum, entry) => sum + entry.activeRequests, 0),
  coolingDownCount: scopes.filter((entry) => entry.coolingDown).length,
  scopes,
});

describe('formatDuration', () => {
  it('rounds up to the second and names hours, minutes and seconds', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(1)).toBe('1 s');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(61_001)).toBe('1 min 2 s');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(-5)).toBe('0 s');
  });
});

describe('formatLocalTime', () => {
  it('shows the wall clock of the zone with its offset', () => {
    expect(formatLocalTime(NOW, 'UTC')).toBe('2026-12-04 18:00:00 UTC+00:00');
    expect(formatLocalTime(NOW, 'America/New_York')).toBe('2026-12-04 13:00:00 UTC-05:00');
    expect(formatLocalTime(NOW, 'Asia/Kolkata')).toBe('2026-12-04 23:30:00 UTC+05:30');
  });
});

describe('formatCoordinatorStatus', () => {
  it('lists scopes by kind, each cooldown with cause, end and time left, probes and requests in flight', () => {
    const text = formatCoordinatorStatus(
      status([
        scope({
          key: `1${'b'.repeat(63)}`,
          coolingDown: true,
          cooldownUntil: NOW + 2 * 3_600_000 + 5_000,
          cooldownCause: 'throttled',
          throttleStreak: 3,
        }),
        scope({
          key: `2${'c'.repeat(63)}`,
          kind: 'fetch',
          probeDue: true,
          cooldownCause: 'infrastructure_failure',
        }),
        scope({ key: `3${'d'.repeat(63)}`, kind: 'fetch', activeRequests: 2 }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(text).toContain('Coordination: redis mode, shared through redis://127.0.0.1:6379/0\n');
    expect(text).toContain('Scopes: 3 of 512 (1 search, 2 fetch)\n');
    expect(text).toContain('Active requests: 2\n');
    expect(text).toContain(
      `  search scope 1${'b'.repeat(11)}: the backend throttled requests (3 in a row); until 2026-12-04 20:00:05 UTC+00:00, 2 h 5 s left\n`,
    );
    expect(text).toContain(
      `  fetch scope 2${'c'.repeat(11)}: cooldown over; the next request is the probe\n`,
    );
    expect(text).toContain(`  fetch scope 3${'d'.repeat(11)}: 2 requests\n`);
  });
});

describe('formatResetReport', () => {
  it('says why a reset was refused and what to do', () => {
    expect(
      formatResetReport({
        mode: 'host',
        stateFile: '/s.json',
        reset: false,
        reason: 'active_requests',
        activeRequests: 1,
      }),
    ).toContain('Reset refused: 1 request is in flight, and reset clears state only when none is.');
    expect(
      formatResetReport({ mode: 'host', stateFile: '/s.json', reset: true, clearedBuckets: 1 }),
    ).toContain('Reset: cleared 1 scope, with their cooldowns and counters.');
  });
});
