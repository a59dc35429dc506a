import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

describe('extract: pictures a page draws late, kept in a <noscript> beside a placeholder', () => {
  it("puts Next.js's picture in place of its placeholder (failing before: the picture was lost)", async () => {
    const content = await markdownOf(
      `<span><span style="display:block"><img alt="" aria-hidden="true" src="data:image/svg+xml,%3csvg%20xmlns=%27http://www.w3.org/2000/svg%27/%3e"></span><img alt="Cross-section of the new deck" src="${PIXEL}" data-nimg="intrinsic"><noscript><img alt="Cross-section of the new deck" loading="lazy" data-nimg="intrinsic" src="/images/deck.png"></noscript></span>`,
    );
    expect(content).toContain('Cross-section of the new deck');
  });

  it('puts the picture of a lazily loaded image in a <picture> in place, once', async () => {
    const content = await markdownOf(
      `<p>The deck at dawn:</p><picture><img class="lazyload" src="${PIXEL}" data-src="/images/dawn.jpg" alt="Steel arches of the deck at dawn"></picture><noscript><picture><source srcset="/images/dawn.webp" type="image/webp"><img src="/images/dawn.jpg" alt="Steel arches of the deck at dawn"></picture></noscript>`,
    );
    expect(content.split('Steel arches of the deck at dawn')).toHaveLength(2);
  });

  it('leaves out a <noscript> image with no placeholder beside it: a tracking pixel, a picture the page already shows', async () => {
    const content = await markdownOf(
      '<noscript><img height="1" width="1" src="https://tracker.example/p?id=7&amp;ev=PageView" alt="Visit counter of the harbour"></noscript>' +
        '<img src="/images/pier.jpg" alt="The pier before the storm"><noscript><img src="/images/pier.jpg" alt="The pier before the storm"></noscript>',
    );
    expect(content).not.toContain('Visit counter of the harbour');
    expect(content.split('The pier before the storm')).toHaveLength(2);
  });
});
