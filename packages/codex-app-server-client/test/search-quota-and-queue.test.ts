import { afterEach, describe, expect, it } from 'vitest';
import type { SearchAdmissionOutcome } from '../src/codex-app-server-client.js';
import { happyTurn, sampleResults, shapes } from './fake-app-server.js';
import { disposeHarnesses, harness, rejection } from './search-support.js';

afterEach(disposeHarnesses);

const s = shapes.schema;

describe('quota', () => {
  const limits = (primary: number, secondary: number) => ({
    result: {
      ...s.rateLimits,
      rateLimits: {
        ...s.rateLimits.rateLimits,
        primary: { ...s.rateLimits.rateLimits.primary, usedPercent: primary },
        secondary: { ...s.rateLimits.rateLimits.secondary, usedPercent: secondary },
      },
    },
  });

  it('searches at 89 % used', async () => {
    const fake = harness({
      results: sampleResults,
      responses: { 'account/rateLimits/read': limits(89, 89.9) },
      on: { 'turn/start': happyTurn() },
    });
    expect((await fake.client.search({ query: 'q' })).results).toHaveLength(2);
  });

  it.each([
    [90, 10],
    [10, 90],
  ])('skips at primary %s%% and secondary %s%% without a turn', async (primary, secondary) => {
    const fake = harness({ responses: { 'account/rateLimits/read': limits(primary, secondary) } });
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('reserve');
    expect(error.retryAt).toBe((primary >= 90 ? 1796020000 : 1796500000) * 1000);
    expect(fake.requests('thread/start')).toHaveLength(0);
  });

  it('skips when the read fails (signed out)', async () => {
    const fake = harness({
      responses: { 'account/rateLimits/read': { error: shapes.live.rateLimitsSignedOut } },
    });
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(fake.requests('thread/start')).toHaveLength(0);
    await expect(fake.client.rateLimits()).resolves.toMatchObject({ available: false, reason: 'missing' });
  });

  it('skips when the read is never answered', async () => {
    const fake = harness(
      { responses: { 'account/rateLimits/read': { noReply: true } } },
      // The same timeout bounds the fake server's start and `initialize`: room for a busy machine.
      { requestTimeoutMs: 5_000 },
    );
    await fake.client.readiness();
    const error = await rejection(fake.client.search({ query: 'q' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('missing');
  });

  it('skips when the snapshot is invalid', async () => {
    const fake = harness({
      responses: { 'account/rateLimits/read': limits('high' as unknown as number, 5) },
    });
    expect((await rejection(fake.client.search({ query: 'q' }))).details.reason).toBe('invalid');
  });

  it('reuses the snapshot for 60 s, re-reads after, and skips when that read fails', async () => {
    let clock = 1_000_000;
    const fake = harness(
      {
        results: sampleResults,
        responses: {
          'account/rateLimits/read': [limits(10, 10), { error: shapes.live.rateLimitsSignedOut }],
        },
        on: { 'turn/start': happyTurn() },
      },
      { now: () => clock },
    );
    await fake.client.search({ query: 'first' });
    clock += 60_000;
    await fake.client.search({ query: 'at the bound' });
    expect(fake.requests('account/rateLimits/read')).toHaveLength(1);
    clock += 1;
    const error = await rejection(fake.client.search({ query: 'past the bound' }));
    expect(error.code).toBe('quota_unavailable');
    expect(error.details.reason).toBe('stale');
    expect(fake.requests('account/rateLimits/read')).toHaveLength(2);
    expect(fake.requests('turn/start')).toHaveLength(2);
  });

  it('merges an update notification into the cached snapshot', async () => {
    const update = {
      ...s.rateLimitsUpdated,
      params: {
        rateLimits: {
          ...s.rateLimitsUpdated.params.rateLimits,
          primary: { usedPercent: 90, windowDurationMins: 300, resetsAt: 1796020000 },
        },
      },
    };
    const fake = harness(
      // Sent inside the turn, so it is read before the search resolves.
      {
        results: sampleResults,
        on: { 'turn/start': [...happyTurn().slice(0, -1), { send: update }, ...happyTurn().slice(-1)] },
      },
      { now: () => 5_000 },
    );
    await fake.client.search({ query: 'first' });
    const status = await fake.client.rateLimits();
    expect(status).toMatchObject({ available: false, reason: 'reserve' });
    expect(status.snapshot?.secondary?.usedPercent).toBe(12);
    expect((await rejection(fake.client.search({ query: 'second' }))).code).toBe('quota_unavailable');
    expect(fake.requests('account/rateLimits/read')).toHaveLength(1);
  });
});

describe('serialization and cancellation', () => {
  it('never overlaps two searches in one process, even from two clients', async () => {
    const slow = [
      { send: s.turnStarted },
      { send: s.searchStarted },
      { delay: 150 },
      { send: s.searchCompleted },
      { send: s.turnCompleted },
    ];
    const events: string[] = [];
    const make = (name: string) =>
      harness(
        { results: sampleResults, on: { 'turn/start': slow } },
        { onWrite: (line) => line.includes('"turn/start"') && events.push(`${name}:start`) },
      );
    const first = make('a');
    const second = make('b');
    const searches = [first, second, first].map((entry, index) =>
      entry.client
        .search({ query: `q${index}` })
        .then(() => events.push(`${entry === first ? 'a' : 'b'}:done`)),
    );
    await Promise.all(searches);
    expect(events).toHaveLength(6);
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index]).toMatch(/:start$/);
      expect(events[index + 1]).toBe(events[index]!.replace('start', 'done'));
    }
  });

  it('closes the transport before releasing the admission on cancel', async () => {
    const outcomes: { outcome: SearchAdmissionOutcome; alive: boolean }[] = [];
    const fake = harness(
      { on: { 'turn/start': [{ send: s.turnStarted }, { send: s.searchStarted }] } },
      {
        admit: async () => ({
          release: (outcome) => {
            let alive = true;
            try {
              process.kill(fake.childPid(), 0);
            } catch {
              alive = false;
            }
            outcomes.push({ outcome, alive });
          },
        }),
        onWrite: (line) => {
          if (line.includes('"turn/start"')) setTimeout(() => controller.abort(), 50);
        },
      },
    );
    const controller = new AbortController();
    const search = fake.client.search({ query: 'cancel me', signal: controller.signal });
    const error = await rejection(search);
    expect(error.code).toBe('cancelled');
    expect(outcomes).toEqual([{ outcome: { status: 'cancelled' }, alive: false }]);
  });

  it('reports skips and failures to the admission hook', async () => {
    const outcomes: SearchAdmissionOutcome[] = [];
    const fake = harness(
      { responses: { 'account/rateLimits/read': { error: shapes.live.rateLimitsSignedOut } } },
      { admit: async () => ({ release: (outcome) => outcomes.push(outcome) }) },
    );
    await rejection(fake.client.search({ query: 'q' }));
    expect(outcomes).toEqual([{ status: 'skipped', code: 'quota_unavailable' }]);
  });

  it('cancels a search still waiting in the queue without touching the running one', async () => {
    const slow = [
      { send: s.turnStarted },
      { send: s.searchStarted },
      { delay: 200 },
      { send: s.searchCompleted },
      { send: s.turnCompleted },
    ];
    const fake = harness({ results: sampleResults, on: { 'turn/start': slow } });
    const running = fake.client.search({ query: 'running' });
    const controller = new AbortController();
    const waiting = fake.client.search({ query: 'waiting', signal: controller.signal });
    controller.abort();
    expect((await rejection(waiting)).code).toBe('cancelled');
    expect((await running).results).toHaveLength(2);
    expect((await fake.client.search({ query: 'after' })).results).toHaveLength(2);
    expect(
      fake
        .requests('turn/start')
        .map((message) => (message.params?.input as { text: string }[] | undefined)?.[0]?.text),
    ).toEqual(['running', 'after']);
  });
});
