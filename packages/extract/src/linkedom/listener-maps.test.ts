// The deferred listener maps (src/linkedom/listener-maps.ts): the nodes extraction builds carry no listener
// map until something listens, and every listener behaviour is linkedom's own. The speed-up installs
// only in a worker thread, so what is looked at runs in one (__fixtures__/listener-scenarios.ts).
import { describe, expect, it } from 'vitest';
import { loadLinkedom } from '../lazy-modules.js';
import { inWorker } from './__fixtures__/elsewhere.js';
import type * as scenarios from './__fixtures__/listener-scenarios.js';
import { deferListenerMaps } from './listener-maps.js';

const SCENARIOS = new URL('./__fixtures__/listener-scenarios.ts', import.meta.url);

/** The answer of one scenario, run in a worker thread. */
const inAWorker = <Name extends keyof typeof scenarios>(name: Name) =>
  inWorker<Awaited<ReturnType<(typeof scenarios)[Name]>>>(SCENARIOS, name);

// A worker's start-up loads tsx and linkedom, which takes seconds on a busy machine.
describe('deferred listener maps', { timeout: 90_000 }, () => {
  it('leave the nodes of a parsed page without a listener map until one is asked for', async () => {
    const answer = await inAWorker('mapsOfParsedNodes');
    expect(answer).toEqual({ deferred: true, before: Array(6).fill(false), leaf: true, body: false });
  });

  it('keep every listener behaviour of linkedom’s own build', async () => {
    const { deferred, expected, actual } = await inAWorker('listenerLogs');
    expect(deferred).toBe(true);
    expect(actual).toEqual(expected);
    // The scenario must exercise what it names, or the comparison proves nothing.
    expect(expected).toEqual(
      expect.arrayContaining([
        'leaf:ping:leaf:2',
        'document:ping:leaf:3',
        'bubbling returned true',
        'once:pong:section:2',
        'object:pong:section:2',
        'leaf stops propagation',
        'first stops immediately',
        'cancelled returned false',
        'made:click:made:2',
        'button:click:made:3',
      ]),
    );
    expect(expected.filter((line) => line.startsWith('once:'))).toHaveLength(1);
    expect(expected.filter((line) => line.startsWith('object:'))).toHaveLength(2);
    expect(expected.some((line) => line.includes('must not run') || line.startsWith('removed'))).toBe(false);
  });

  it('leave a class alone whose constructor files no listener map, and WeakMap as it was', async () => {
    const { answers, storeHasOwnSet } = await inAWorker('otherClasses');
    expect(answers).toEqual(
      Array(3).fill({ deferred: false, reason: 'unrecognised', holds: false, weakMapSet: true }),
    );
    expect(storeHasOwnSet).toBe(false);
  });

  it('answer a second call for the same class as the first, without building a target', async () => {
    // A class seen for the first time is built once.
    expect(await inAWorker('targetsBuiltBySecondCalls')).toEqual({
      same: true,
      builtAgain: 0,
      builtForNewClass: 1,
    });
  });

  it('are not deferred in the main thread, where nothing is built or replaced to find them', async () => {
    const linkedom = await loadLinkedom();
    const set = WeakMap.prototype.set;
    let built = 0;
    const counting = new Proxy(linkedom.EventTarget as unknown as new () => object, {
      construct(target, args) {
        built++;
        return Reflect.construct(target, args);
      },
    });
    const maps = deferListenerMaps(counting);
    expect([maps.deferred, maps.reason, built]).toEqual([false, 'main-thread', 0]);
    expect(WeakMap.prototype.set).toBe(set);
    const { document } = linkedom.parseHTML('<p id="a">a</p>');
    expect(maps.holds(document.getElementById('a') as object)).toBe(false);
  });
});
