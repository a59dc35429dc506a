// The speed-ups extraction gives the linkedom module it loads, installed together (see README.md in
// this folder for what each one reads or replaces of linkedom, and what it buys). Each checks, on
// the module it is given, that linkedom still works as it expects, and leaves the module as it is
// otherwise; the report says which ones took.
import type { SelectorCompiler } from './compiled-queries.js';
import { speedUpElementAccessors } from './element-accessors.js';
import { deferListenerMaps } from './listener-maps.js';
import { installSelectorCache } from './selector-cache.js';

/** The speed-ups, by name. */
export const LINKEDOM_SPEEDUPS = [
  'selectorCache',
  'subtreeIndexes',
  'elementAccessors',
  'listenerMaps',
] as const;

export type LinkedomSpeedup = (typeof LINKEDOM_SPEEDUPS)[number];

/**
 * What became of one speed-up: installed; left out on request; not installed because the thread is
 * the process's main thread (the listener maps, see listener-maps.ts); or not installed because
 * linkedom did not answer its probe as the pinned version does.
 */
export type SpeedupState = 'installed' | 'skipped' | 'main-thread' | 'unrecognised';

/** What {@link installLinkedomSpeedups} did to one linkedom module, speed-up by speed-up. */
export type LinkedomSpeedups = Record<LinkedomSpeedup, SpeedupState>;

/** The parts of a loaded linkedom module (its `linkedom/worker` build) the speed-ups change. */
export type LinkedomModule = Parameters<typeof installSelectorCache>[0] &
  Parameters<typeof speedUpElementAccessors>[0] & { EventTarget: unknown };

/** Options of {@link installLinkedomSpeedups}. */
export interface SpeedupOptions {
  /** Speed-ups to leave out, for measuring what each one buys; none by default. */
  skip?: readonly LinkedomSpeedup[];
}

const installed = new WeakMap<object, LinkedomSpeedups>();

/**
 * Installs every speed-up on `linkedom`, with `compiler` (css-select) compiling the selectors:
 * - `selectorCache`: `matches`, `closest`, `querySelector` and `querySelectorAll` compile each
 *   selector once and match lists by their alternatives' subjects (selector-cache.ts);
 * - `subtreeIndexes`: those methods also answer from indexes of unchanged subtrees and from what
 *   they found nothing for (subtree-indexes.ts); not without `selectorCache`;
 * - `elementAccessors`: `className`, `tagName` and `nodeName` answer from strings made once per
 *   value (element-accessors.ts);
 * - `listenerMaps`: nodes get their listener map when something listens (listener-maps.ts), in a
 *   worker thread only.
 * A module is changed once: a later call returns the first call's report and changes nothing.
 */
export function installLinkedomSpeedups(
  linkedom: LinkedomModule,
  compiler: SelectorCompiler,
  { skip = [] }: SpeedupOptions = {},
): LinkedomSpeedups {
  const known = installed.get(linkedom);
  if (known !== undefined) return known;
  const wanted = (speedup: LinkedomSpeedup) => !skip.includes(speedup);
  const state = (done: boolean): SpeedupState => (done ? 'installed' : 'unrecognised');

  const cache = wanted('selectorCache')
    ? installSelectorCache(linkedom, compiler, { indexes: wanted('subtreeIndexes') })
    : undefined;
  const listeners = wanted('listenerMaps')
    ? deferListenerMaps(linkedom.EventTarget as new () => object)
    : undefined;
  const accessors = wanted('elementAccessors') ? speedUpElementAccessors(linkedom) : undefined;
  const report: LinkedomSpeedups = {
    selectorCache: cache === undefined ? 'skipped' : state(cache.installed),
    subtreeIndexes:
      cache === undefined || !wanted('subtreeIndexes') ? 'skipped' : state(cache.installed && cache.indexed),
    elementAccessors: accessors === undefined ? 'skipped' : state(accessors.installed),
    listenerMaps:
      listeners === undefined
        ? 'skipped'
        : listeners.reason === 'main-thread'
          ? 'main-thread'
          : state(listeners.deferred),
  };
  installed.set(linkedom, report);
  return report;
}
