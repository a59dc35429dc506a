import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DOM_QUIET_MS, DOM_SETTLE_MAX_MS, domQuietPredicate } from './dom-quiet-predicate.js';

/**
 * A page as the predicate sees it: a document whose `readyState` and clock the test sets, and a
 * MutationObserver whose callback the test calls to stand for a change of the DOM.
 */
function fakePage() {
  const page = { readyState: 'interactive', now: 0, mutate: () => {} };
  const context = {
    document: {
      get readyState() {
        return page.readyState;
      },
    },
    Date: { now: () => page.now },
    MutationObserver: class {
      constructor(callback: () => void) {
        page.mutate = callback;
      }
      observe() {}
    },
  } as Record<string, unknown>;
  context.window = context;
  const settled = () => runInNewContext(domQuietPredicate(), context) as boolean;
  return { page, settled };
}

describe('domQuietPredicate', () => {
  it('is never true before the load event, however long the page has been shown (open may return early)', () => {
    const { page, settled } = fakePage();
    for (const now of [0, DOM_QUIET_MS, DOM_SETTLE_MAX_MS, DOM_SETTLE_MAX_MS + 1, 60_000]) {
      page.now = now;
      expect([now, settled()]).toEqual([now, false]);
    }
  });

  it('after the load event, is true once the DOM has been quiet for DOM_QUIET_MS', () => {
    const { page, settled } = fakePage();
    page.now = 10_000;
    page.readyState = 'complete';
    expect(settled()).toBe(false);
    page.now += DOM_QUIET_MS - 1;
    expect(settled()).toBe(false);
    page.mutate();
    page.now += DOM_QUIET_MS - 1;
    expect(settled()).toBe(false);
    page.now += 1;
    expect(settled()).toBe(true);
  });

  it('after the load event, gives up waiting for quiet DOM_SETTLE_MAX_MS after its first check, not before', () => {
    const { page, settled } = fakePage();
    page.now = 30_000;
    page.readyState = 'complete';
    const loaded = page.now;
    expect(settled()).toBe(false);
    for (; page.now < loaded + DOM_SETTLE_MAX_MS - 1; page.now += 100) {
      page.mutate();
      expect(settled()).toBe(false);
    }
    page.now = loaded + DOM_SETTLE_MAX_MS - 1;
    page.mutate();
    expect(settled()).toBe(false);
    page.now += 1;
    page.mutate();
    expect(settled()).toBe(true);
  });
});
