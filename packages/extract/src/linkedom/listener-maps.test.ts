// The deferred listener maps (src/linkedom/listener-maps.ts): the nodes extraction builds carry no listener
// map until something listens, and every listener behaviour is linkedom's own.
import { parseHTML as referenceParseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { loadLinkedom } from '../lazy-modules.js';
import { deferListenerMaps } from './listener-maps.js';

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

describe('deferred listener maps', () => {
  it('leave the nodes of a parsed page without a listener map until one is asked for', async () => {
    const linkedom = await loadLinkedom();
    const { document } = linkedom.parseHTML(PAGE);
    // The loader deferred them already: this returns its answer (deferring now would be too late).
    const maps = deferListenerMaps(linkedom.EventTarget as unknown as new () => object);
    expect(maps.deferred).toBe(true);
    const leaf = document.getElementById('leaf') as unknown as Element;
    const nodes = [
      document,
      document.body,
      leaf,
      leaf.firstChild,
      leaf.getAttributeNode('id'),
      (leaf.cloneNode(true) as Element).firstChild,
    ] as object[];
    for (const node of nodes) expect(maps.holds(node)).toBe(false);
    leaf.addEventListener('ping', () => {});
    expect(maps.holds(leaf)).toBe(true);
    expect(maps.holds(document.body as object)).toBe(false);
  });

  it('keep every listener behaviour of linkedom’s own build', async () => {
    const linkedom = await loadLinkedom();
    expect(deferListenerMaps(linkedom.EventTarget as unknown as new () => object).deferred).toBe(true);
    const deferred = linkedom.parseHTML(PAGE);
    const reference = referenceParseHTML(PAGE);
    const expected = listenerScenario(
      reference.document as unknown as Document,
      reference.window as unknown as { Event: typeof Event },
    );
    const actual = listenerScenario(
      deferred.document as unknown as Document,
      deferred.window as unknown as { Event: typeof Event },
    );
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

  it('leave a class alone whose constructor files no listener map, and WeakMap as it was', () => {
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
    for (const EventTarget of [Plain, Throwing, TwoMaps]) {
      const maps = deferListenerMaps(EventTarget);
      expect(maps.deferred).toBe(false);
      expect(maps.holds(new Plain())).toBe(false);
      expect(WeakMap.prototype.set).toBe(set);
    }
    expect(Object.hasOwn(store, 'set')).toBe(false);
  });

  it('answer a second call for the same class as the first, without building a target', async () => {
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
    expect(deferListenerMaps(EventTarget)).toBe(first);
    expect(built).toBe(0);
    // A class seen for the first time is built once.
    deferListenerMaps(counting);
    expect(built).toBe(1);
  });
});
