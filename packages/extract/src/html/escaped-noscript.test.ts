import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

describe('extract: escaped markup in <noscript>', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  it('never prints a fallback written as escaped markup as literal tags', async () => {
    const content = await markdownOf(
      `<noscript>&lt;img src="https://example.org/bridge.png" alt="The new deck"&gt;</noscript>` +
        `<noscript>&lt;p&gt;The fallback story tells ${words(60)}.&lt;/p&gt;</noscript>`,
    );
    expect(content).not.toMatch(/<img|<p>|&lt;/);
    expect(content).toContain('The fallback story tells word0');
  });
});
