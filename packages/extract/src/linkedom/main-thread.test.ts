// A library user may call extract() in the main thread of their process, beside code of their own:
// the linkedom speed-ups must not change anything of that thread's but linkedom's own classes, not
// even for a moment (see listener-maps.ts, which would, and so installs only in a worker thread).
import { describe, expect, it } from 'vitest';
import { changesToBuiltIns } from './__fixtures__/built-in-watch.js';
import { inProcess } from './__fixtures__/elsewhere.js';
import type { changesDuringFirstExtraction } from './__fixtures__/main-thread-extract.js';

describe('extract() in the main thread', { timeout: 90_000 }, () => {
  // In a process of its own: the test runner's module loader, which swaps the timers of the global
  // object while it loads a module, is not there to be seen.
  it('loads linkedom with its speed-ups and changes no built-in of the thread, not even briefly', async () => {
    const { changes, content } = await inProcess<Awaited<ReturnType<typeof changesDuringFirstExtraction>>>(
      new URL('./__fixtures__/main-thread-extract.ts', import.meta.url),
      'changesDuringFirstExtraction',
    );
    expect(content).toContain('A paragraph of the article');
    expect(changes).toEqual([]);
  });

  it('is watched by a watch that sees a built-in swapped and put back', async () => {
    const changes = await changesToBuiltIns(async () => {
      const set = WeakMap.prototype.set;
      WeakMap.prototype.set = function (this: WeakMap<object, unknown>, key: object, value: unknown) {
        return set.call(this, key, value);
      };
      WeakMap.prototype.set = set;
      // Defined anew twice, the second time with the value it had.
      const get = Map.prototype.get;
      const method = { writable: true, enumerable: false, configurable: true };
      Object.defineProperty(Map.prototype, 'get', { ...method, value: () => undefined });
      Object.defineProperty(Map.prototype, 'get', { ...method, value: get });
      (globalThis as Record<string, unknown>).aGlobalOfItsOwn = 1;
      // An object's own property of a name its prototype has is the object's alone.
      const map = new WeakMap();
      (map as unknown as Record<string, unknown>).set = 'own';
    });
    expect(changes.sort()).toEqual([
      'Map.prototype.get redefined',
      'WeakMap.prototype.set written',
      'globalThis.aGlobalOfItsOwn added',
    ]);
    delete (globalThis as Record<string, unknown>).aGlobalOfItsOwn;
    expect(Object.getOwnPropertyDescriptor(WeakMap.prototype, 'set')?.value).toBeTypeOf('function');
  });
});
