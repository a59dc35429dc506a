import { describe, expect, it, vi } from 'vitest';
import { enterSearchQueue } from './search-queue.js';

describe('enterSearchQueue', () => {
  it('admits one at a time, in order, and skips entrants cancelled while waiting', async () => {
    const order: string[] = [];
    const leaveFirst = await enterSearchQueue();
    const controller = new AbortController();
    const second = enterSearchQueue(controller.signal);
    const third = enterSearchQueue().then((leave) => {
      order.push('third');
      return leave;
    });
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'cancelled' });
    await Promise.resolve();
    expect(order).toEqual([]);
    leaveFirst();
    const leaveThird = await third;
    expect(order).toEqual(['third']);
    leaveThird();
    leaveThird();
    (await enterSearchQueue())();
  });

  it('rejects at once when the signal is already aborted', async () => {
    await expect(enterSearchQueue(AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
    (await enterSearchQueue())();
  });

  it('shares one queue between copies of the module', async () => {
    vi.resetModules();
    const copy = await import('./search-queue.js');
    expect(copy.enterSearchQueue).not.toBe(enterSearchQueue);
    const leave = await enterSearchQueue();
    let entered = false;
    const other = copy.enterSearchQueue().then((release) => {
      entered = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(entered).toBe(false);
    leave();
    (await other)();
    expect(entered).toBe(true);
  });
});
