import { describe, expect, it } from 'vitest';
import { createSearchCache, SEARCH_CACHE_MAX_ENTRIES, SEARCH_CACHE_TTL_MS } from './search-cache.js';

describe('the process search cache', () => {
  it('keeps an entry for 15 minutes and not a millisecond longer', () => {
    let clock = 0;
    const cache = createSearchCache<string>({ now: () => clock });
    expect(SEARCH_CACHE_TTL_MS).toBe(15 * 60 * 1000);
    cache.set('key', 'value');
    clock = SEARCH_CACHE_TTL_MS - 1;
    expect(cache.get('key')).toBe('value');
    clock = SEARCH_CACHE_TTL_MS;
    expect(cache.get('key')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most 256 entries, dropping the oldest first', () => {
    const cache = createSearchCache<number>();
    expect(SEARCH_CACHE_MAX_ENTRIES).toBe(256);
    for (let index = 0; index < SEARCH_CACHE_MAX_ENTRIES; index += 1) cache.set(`k${index}`, index);
    expect(cache.size).toBe(SEARCH_CACHE_MAX_ENTRIES);
    expect(cache.get('k0')).toBe(0);
    cache.set('one more', -1);
    expect(cache.size).toBe(SEARCH_CACHE_MAX_ENTRIES);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k1')).toBe(1);
    expect(cache.get('one more')).toBe(-1);
  });

  it('shares one piece of work between identical keys while it runs', async () => {
    const cache = createSearchCache<number>();
    let runs = 0;
    const work = async () => {
      runs += 1;
      return 7;
    };
    const first = cache.share('same', work);
    const second = cache.share('same', work);
    expect([first.leader, second.leader]).toEqual([true, false]);
    expect(await Promise.all([first.promise, second.promise])).toEqual([7, 7]);
    expect(runs).toBe(1);
    expect(cache.share('same', work).leader).toBe(true);
  });

  it('keeps scoped views apart while they share storage and bounds', async () => {
    const cache = createSearchCache<string>();
    const one = cache.scoped('configuration one');
    const two = cache.scoped('configuration two');
    one.set('query', 'from one');
    expect(one.get('query')).toBe('from one');
    expect(two.get('query')).toBeUndefined();
    expect(cache.get('query')).toBeUndefined();
    expect(cache.scoped('configuration one').get('query')).toBe('from one');
    two.set('query', 'from two');
    expect([one.size, two.size, cache.size]).toEqual([1, 1, 2]);
    // In-flight work is shared within a view, never across views.
    let release!: (value: string) => void;
    const led = one.share('slow', () => new Promise<string>((resolve) => (release = resolve)));
    expect(one.share('slow', async () => 'other').leader).toBe(false);
    const elsewhere = two.share('slow', async () => 'two ran');
    expect(elsewhere.leader).toBe(true);
    release('one ran');
    expect([await led.promise, await elsewhere.promise]).toEqual(['one ran', 'two ran']);
    one.clear();
    expect([one.size, two.size]).toEqual([0, 1]);
  });
});
