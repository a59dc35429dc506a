import { describe, expect, it } from 'vitest';
import {
  createIdleRunRotation,
  DEFAULT_RUN_IDLE_SECONDS,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from './idle-run-rotation.js';

function harness(idleSeconds = DEFAULT_RUN_IDLE_SECONDS) {
  let clock = 0;
  const runs: { id: number; notice: { freshAfterIdleSeconds?: number }; closed: boolean }[] = [];
  const rotation = createIdleRunRotation({
    idleSeconds,
    now: () => clock,
    startRun(notice) {
      const run = {
        id: runs.length + 1,
        notice,
        closed: false,
        async close() {
          run.closed = true;
        },
      };
      runs.push(run);
      return run;
    },
  });
  return {
    rotation,
    runs,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('idle run rotation', () => {
  it('keeps a burst of calls on one run and starts a fresh one after the idle gap', async () => {
    const { rotation, runs, advance } = harness(300);
    const ids: number[] = [];
    for (let call = 0; call < 5; call += 1) {
      ids.push(await rotation.use(async (run) => run.id));
      advance(299_999);
    }
    expect(ids).toEqual([1, 1, 1, 1, 1]);
    advance(1);
    expect(await rotation.use(async (run) => run.id)).toBe(2);
    expect(runs[0]?.closed).toBe(true);
    expect(runs[0]?.notice).toEqual({});
    expect(runs[1]?.notice).toEqual({ freshAfterIdleSeconds: 300 });
  });

  it("never replaces a run while a call is in flight, and measures idleness from the last call's end", async () => {
    const { rotation, advance } = harness(1);
    let release!: () => void;
    const long = rotation.use(
      (run) =>
        new Promise<number>((resolve) => {
          release = () => resolve(run.id);
        }),
    );
    advance(10_000);
    expect(await rotation.use(async (run) => run.id)).toBe(1);
    release();
    expect(await long).toBe(1);
    advance(999);
    expect(await rotation.use(async (run) => run.id)).toBe(1);
    advance(1_000);
    expect(await rotation.use(async (run) => run.id)).toBe(2);
  });

  it('closes every run on close()', async () => {
    const { rotation, runs } = harness();
    await rotation.use(async () => undefined);
    await rotation.close();
    expect(runs.every((run) => run.closed)).toBe(true);
  });

  it('accepts the bounds and refuses past them', () => {
    for (const seconds of [MIN_RUN_IDLE_SECONDS, MAX_RUN_IDLE_SECONDS])
      expect(() => harness(seconds)).not.toThrow();
    for (const seconds of [MIN_RUN_IDLE_SECONDS - 1, MAX_RUN_IDLE_SECONDS + 1, 1.5]) {
      expect(() => harness(seconds)).toThrow(/from 1 through 86400 seconds/);
    }
  });
});
