// linkedom keeps every node's event listeners in one module-private WeakMap, and its EventTarget
// constructor gives each node it builds (element, text, comment, attribute) an entry there: a new,
// empty Map. Extraction builds hundreds of thousands of nodes on a large page, in the parse and in
// every clone Defuddle makes, and adds a listener to none of them. Those entries cost about a tenth
// of extraction's CPU time in the constructor, and much of the garbage collector's: a WeakMap's
// entries are ephemerons, which every collection must trace. This module lets that store make a
// node's map when linkedom first asks for it (adding, removing or dispatching an event) instead of
// when the node is built; listeners behave exactly as before.
//
// Finding that store means replacing `WeakMap.prototype.set` for the length of one constructor call,
// and no code may see a built-in of its host changed, even that briefly: the store is deferred only
// in a worker thread (the extraction pool's), whose built-ins no other code shares. In a process's
// main thread, where a library user may call extract() directly, it is left as linkedom makes it;
// extraction's output is the same either way, only its speed differs.
import { isMainThread } from 'node:worker_threads';

/** What {@link deferListenerMaps} did to one EventTarget class's listener store. */
export interface ListenerMaps {
  /** Whether the store now makes a node's map on first use. */
  deferred: boolean;
  /**
   * Why it does not: the call was made in the process's main thread, or the class files its maps
   * otherwise than linkedom 0.18 does (another DOM, another linkedom).
   */
  reason?: 'main-thread' | 'unrecognised';
  /** Whether the store holds a map for `node` (for tests: a node nothing listened to has none). */
  holds(node: object): boolean;
}

type Store = WeakMap<object, Map<unknown, unknown>>;

const results = new WeakMap<object, ListenerMaps>();

/** The answer in a main thread, where nothing is probed. */
const IN_MAIN_THREAD: ListenerMaps = { deferred: false, reason: 'main-thread', holds: () => false };

/**
 * Finds the listener store of linkedom's `EventTarget` class by building one target (its constructor
 * files the new target's empty map there), then gives that one WeakMap its own `set` and `get`:
 * `set` drops the constructor's empty map, and `get` makes and files a node's map the first time it
 * is asked for it, which is what the constructor's map was there for. A class whose constructor does
 * not file exactly one empty Map for the new target (another DOM, another linkedom) is left alone.
 * Deferring the same class again returns the first answer. In the main thread nothing is done.
 */
export function deferListenerMaps(EventTarget: new () => object): ListenerMaps {
  if (isMainThread) return IN_MAIN_THREAD;
  const known = results.get(EventTarget);
  if (known !== undefined) return known;
  const fileMap = WeakMap.prototype.set;
  const readMap = WeakMap.prototype.get;
  const filed: [WeakMap<object, unknown>, object, unknown][] = [];
  let probe: object | undefined;
  // Every WeakMap write is seen for the length of one constructor call, nothing else runs meanwhile.
  WeakMap.prototype.set = function see(this: WeakMap<object, unknown>, key: object, value: unknown) {
    filed.push([this, key, value]);
    return fileMap.call(this, key, value);
  };
  try {
    probe = new EventTarget();
  } catch {
    probe = undefined;
  } finally {
    WeakMap.prototype.set = fileMap;
  }
  const writes = filed.filter(([, key, value]) => key === probe && value instanceof Map && value.size === 0);
  const store = writes.length === 1 ? (writes[0]?.[0] as Store | undefined) : undefined;
  const result: ListenerMaps =
    store === undefined
      ? { deferred: false, reason: 'unrecognised', holds: () => false }
      : { deferred: true, holds: (node) => readMap.call(store, node) !== undefined };
  if (store !== undefined) {
    // The probe's own entry goes too, as every later target's never comes.
    store.delete(probe as object);
    Object.defineProperties(store, {
      set: {
        value(this: Store, key: object, value: Map<unknown, unknown>) {
          // The constructor's map: nothing listens yet, and `get` makes one when something does.
          if (value instanceof Map && value.size === 0) return this;
          return fileMap.call(this, key, value);
        },
        configurable: true,
        writable: true,
      },
      get: {
        value(this: Store, key: object) {
          let map = readMap.call(this, key);
          if (map === undefined) {
            map = new Map();
            fileMap.call(this, key, map);
          }
          return map;
        },
        configurable: true,
        writable: true,
      },
    });
  }
  results.set(EventTarget, result);
  return result;
}
