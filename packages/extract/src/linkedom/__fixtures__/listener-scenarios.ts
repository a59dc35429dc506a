// What the listener-map tests (listener-maps.test.ts) look at, run in a worker thread (see
// elsewhere.ts), where the speed-up is installed: each function answers with plain data.
import { parseHTML as referenceParseHTML } from 'linkedom';
import { loadLinkedom } from '../../lazy-modules.js';
import { deferListenerMaps } from '../listener-maps.js';

const PAGE =
  '<!doctype html><html><head><title>t</title></head><body><main id="main"><section id="section"><p id="leaf">text <b>bold</b></p><button id="button">go</button></section></main></body></html>';

/** Drives listeners through one document and logs what ran, in order. */
function listenerScenario(document: Document, window: { Event: typeof Event }): string[] {
  const log: string[] = [];
  const byId = (id: string) => document.getElementById(id) as HTMLElement;
  const [main, section, leaf, button] = ['main', 'section', 'leaf', 'button'].map(byId) as HTMLElement[];
  const Event = window.Event;
  const record =
    (name: string) =>
    (event: Event): void => {
      log.push(`${name}:${event.type}:${(event.target as Element).id}:${event.eventPhase}`);
    };

  leaf?.addEventListener('ping', record('leaf'));
  section?.addEventListener('ping', record('section'));
  main?.addEventListener('ping', record('main'));
  document.addEventListener('ping', record('document'));
  log.push(`bubbling returned ${leaf?.dispatchEvent(new Event('ping', { bubbles: true }))}`);
  log.push(`flat returned ${leaf?.dispatchEvent(new Event('ping'))}`);

  // once, handleEvent objects, removal.
  const onceListener = record('once');
  section?.addEventListener('pong', onceListener, { once: true });
  section?.addEventListener('pong', { handleEvent: record('object') });
  const removed = record('removed');
  section?.addEventListener('pong', removed);
  section?.removeEventListener('pong', removed);
  section?.dispatchEvent(new Event('pong'));
  section?.dispatchEvent(new Event('pong'));

  // stopPropagation and stopImmediatePropagation.
  leaf?.addEventListener('stop', (event) => {
    log.push('leaf stops propagation');
    event.stopPropagation();
  });
  main?.addEventListener('stop', record('main (must not run)'));
  leaf?.dispatchEvent(new Event('stop', { bubbles: true }));
  section?.addEventListener('halt', (event) => {
    log.push('first stops immediately');
    event.stopImmediatePropagation();
  });
  section?.addEventListener('halt', record('second (must not run)'));
  section?.dispatchEvent(new Event('halt', { bubbles: true }));

  // preventDefault and the value dispatchEvent returns.
  main?.addEventListener('cancel', (event) => event.preventDefault());
  log.push(
    `cancelled returned ${leaf?.dispatchEvent(new Event('cancel', { bubbles: true, cancelable: true }))}`,
  );

  // A node made after parsing, and click().
  const made = document.createElement('span');
  made.id = 'made';
  button?.appendChild(made);
  made.addEventListener('click', record('made'));
  button?.addEventListener('click', record('button'));
  made.click();
  button?.click();
  // Removing a listener from a node that never had one is a no-op.
  leaf?.removeEventListener('never', record('never'));
  log.push(`never returned ${leaf?.dispatchEvent(new Event('never', { bubbles: true }))}`);
  return log;
}

/**
 * Whether the nodes of a parsed page (and of a clone) hold a listener map, before and after a
 * listener is added to one of them.
 */
export async function mapsOfParsedNodes() {
  const linkedom = await loadLinkedom();
  const { document } = linkedom.parseHTML(PAGE);
  // The loader deferred them already: this returns its answer (deferring now would be too late).
  const maps = deferListenerMaps(linkedom.EventTarget as unknown as new () => object);
  const leaf = document.getElementById('leaf') as unknown as Element;
  const nodes = [
    document,
    document.body,
    leaf,
    leaf.firstChild,
    leaf.getAttributeNode('id'),
    (leaf.cloneNode(true) as Element).firstChild,
  ] as object[];
  const before = nodes.map((node) => maps.holds(node));
  leaf.addEventListener('ping', () => {});
  return { deferred: maps.deferred, before, leaf: maps.holds(leaf), body: maps.holds(document.body as object) };
}

/** The scenario's log on a deferred document and on one of linkedom's own build. */
export async function listenerLogs() {
  const linkedom = await loadLinkedom();
  const deferred = deferListenerMaps(linkedom.EventTarget as unknown as new () => object).deferred;
  const ours = linkedom.parseHTML(PAGE);
  const reference = referenceParseHTML(PAGE);
  const expected = listenerScenario(
    reference.document as unknown as Document,
    reference.window as unknown as { Event: typeof Event },
  );
  const actual = listenerScenario(
    ours.document as unknown as Document,
    ours.window as unknown as { Event: typeof Event },
  );
  return { deferred, expected, actual };
}

/** What deferring does to classes that file no listener map as linkedom does, and to WeakMap. */
export function otherClasses() {
  const set = WeakMap.prototype.set;
  class Plain {}
  class Throwing {
    constructor() {
      throw new Error('no targets here');
    }
  }
  const store = new WeakMap<object, unknown>();
  class TwoMaps {
    constructor() {
      store.set(this, new Map());
      store.set({}, new Map());
      store.set(this, new Map());
    }
  }
  const answers = [Plain, Throwing, TwoMaps].map((EventTarget) => {
    const maps = deferListenerMaps(EventTarget);
    return {
      deferred: maps.deferred,
      reason: maps.reason,
      holds: maps.holds(new Plain()),
      weakMapSet: WeakMap.prototype.set === set,
    };
  });
  return { answers, storeHasOwnSet: Object.hasOwn(store, 'set') };
}

/** Targets built by deferring linkedom's class again, and by deferring a class seen for the first time. */
export async function targetsBuiltBySecondCalls() {
  const linkedom = await loadLinkedom();
  const EventTarget = linkedom.EventTarget as unknown as new () => object;
  const first = deferListenerMaps(EventTarget);
  let built = 0;
  const counting = new Proxy(EventTarget, {
    construct(target, args) {
      built++;
      return Reflect.construct(target, args);
    },
  });
  const same = deferListenerMaps(EventTarget) === first;
  const builtAgain = built;
  deferListenerMaps(counting);
  return { same, builtAgain, builtForNewClass: built };
}
