// Watches the built-in objects of this thread for changes while some code runs: every property of
// every global constructor, of its prototype, of the global namespaces (Math, JSON, Reflect…), of the
// intrinsic prototypes that have no global name (iterators, typed arrays, generators) and of
// globalThis. Each writable property is made an accessor for the run, so that a write is seen even
// when the old value is put back right after (a brief swap); a property defined anew, even with its
// old value, loses that accessor, and a property added or deleted shows in the keys. The accessor
// answers reads as the property did and, for a write through an object that inherits the property,
// gives that object its own property as an ordinary write would.

/** A property of a watched object, and the name it is reported by. */
interface Watched {
  name: string;
  target: object;
  key: PropertyKey;
  before: PropertyDescriptor;
  /** The accessor standing for a writable property during the run. */
  trap?: PropertyDescriptor;
}

const defineProperty = Reflect.defineProperty;
const describe = Reflect.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;

/** The built-in objects of this realm, each with the name changes are reported by. */
function builtIns(): Map<object, string> {
  const found = new Map<object, string>();
  const add = (value: unknown, name: string) => {
    if ((typeof value === 'function' || (typeof value === 'object' && value !== null)) && !found.has(value))
      found.set(value, name);
  };
  add(globalThis, 'globalThis');
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    // Node makes many globals on first read (atob, TextDecoder, crypto…): an accessor whose getter
    // defines the global as a value in its place. Each is read first, as any code may read it, so
    // that what is watched is the value.
    if (describe(globalThis, name)?.get?.name === `get ${name}`) void (globalThis as Record<string, unknown>)[name];
    const descriptor = describe(globalThis, name);
    if (descriptor === undefined || !('value' in descriptor) || !/^[A-Z]/.test(name)) continue;
    const value: unknown = descriptor.value;
    add(value, name);
    if (typeof value === 'function') add((value as { prototype?: unknown }).prototype, `${name}.prototype`);
  }
  const protoOf = Object.getPrototypeOf as (value: unknown) => unknown;
  const TypedArray = protoOf(Uint8Array) as { prototype: object };
  add(TypedArray, '%TypedArray%');
  add(TypedArray.prototype, '%TypedArray%.prototype');
  const arrayIterator = protoOf([][Symbol.iterator]());
  add(arrayIterator, '%ArrayIteratorPrototype%');
  add(protoOf(arrayIterator), '%IteratorPrototype%');
  add(protoOf(new Map()[Symbol.iterator]()), '%MapIteratorPrototype%');
  add(protoOf(new Set()[Symbol.iterator]()), '%SetIteratorPrototype%');
  add(protoOf(''[Symbol.iterator]()), '%StringIteratorPrototype%');
  add(protoOf('a'.matchAll(/a/g)), '%RegExpStringIteratorPrototype%');
  const generator = protoOf(function* () {}) as { prototype: object };
  add(generator, '%GeneratorFunction.prototype%');
  add(generator.prototype, '%GeneratorPrototype%');
  const asyncGenerator = protoOf(async function* () {}) as { prototype: object };
  add(asyncGenerator, '%AsyncGeneratorFunction.prototype%');
  add(asyncGenerator.prototype, '%AsyncGeneratorPrototype%');
  add(protoOf(asyncGenerator.prototype), '%AsyncIteratorPrototype%');
  add(protoOf(async () => {}), '%AsyncFunction.prototype%');
  return found;
}

/**
 * Runs `run` with every built-in watched and lists what changed, one line a property (`WeakMap.
 * prototype.set written`, `… redefined`, `… added`, `… deleted`); the built-ins are as before after.
 */
export async function changesToBuiltIns(run: () => Promise<unknown>): Promise<string[]> {
  const watched: Watched[] = [];
  const keysBefore = new Map<object, PropertyKey[]>();
  const changes = new Set<string>();
  const names = builtIns();
  for (const [target, name] of names) {
    keysBefore.set(target, ownKeys(target));
    for (const key of ownKeys(target)) {
      const before = describe(target, key);
      if (before === undefined) continue;
      const entry: Watched = { name: `${name}.${String(key)}`, target, key, before };
      if (watchesWrites(target, key, before)) {
        const value: unknown = before.value;
        entry.trap = {
          configurable: true,
          enumerable: before.enumerable ?? false,
          get: () => value,
          set(this: unknown, next: unknown) {
            if (this === target) {
              changes.add(`${entry.name} written`);
              defineProperty(target, key, { ...before, value: next });
            } else {
              defineProperty(this as object, key, {
                value: next,
                writable: true,
                enumerable: true,
                configurable: true,
              });
            }
          },
        };
        defineProperty(target, key, entry.trap);
      }
      watched.push(entry);
    }
  }
  try {
    await run();
  } finally {
    for (const { name, target, key, before, trap } of watched) {
      const now = describe(target, key);
      if (now === undefined) changes.add(`${name} deleted`);
      else if (!sameDescriptor(now, trap ?? before) && !changes.has(`${name} written`))
        changes.add(`${name} redefined`);
      defineProperty(target, key, before);
    }
    for (const [target, keys] of keysBefore) {
      for (const key of ownKeys(target)) {
        if (!keys.includes(key)) changes.add(`${names.get(target)}.${String(key)} added`);
      }
    }
  }
  return [...changes];
}

/**
 * Whether a property is made an accessor for the run: it can be written (a writable, configurable
 * value), and it is not one of the two of `Error` that V8 reads as values (an accessor there would
 * turn stack traces off).
 */
function watchesWrites(target: object, key: PropertyKey, descriptor: PropertyDescriptor): boolean {
  if (target === Error && (key === 'stackTraceLimit' || key === 'prepareStackTrace')) return false;
  return 'value' in descriptor && descriptor.writable === true && descriptor.configurable === true;
}

function sameDescriptor(left: PropertyDescriptor, right: PropertyDescriptor): boolean {
  return (
    Object.is(left.value, right.value) &&
    left.get === right.get &&
    left.set === right.set &&
    left.writable === right.writable &&
    left.enumerable === right.enumerable &&
    left.configurable === right.configurable
  );
}
