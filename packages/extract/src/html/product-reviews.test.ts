import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const url = 'https://shop.example/products/kettle';
const PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Copper kettle"}</script>';

const description = Array.from(
  { length: 6 },
  (_, index) =>
    `Detail ${index + 1}: the copper kettle boils a litre of water in four minutes on gas or induction.`,
).join(' ');
const review = (name: string, index: number) =>
  `<div class="review-item"><p>${name}</p><p>Review ${index}: we bought it for the cabin and it has worked every morning since the winter began.</p></div>`;
const reviews = ['Ann', 'Bo', 'Cy', 'Di'].map(review).join('');

const page = (head: string, section: string, box = 'product') =>
  `<!doctype html><html><head><title>Copper kettle</title>${head}</head><body>
<main><div class="${box}"><h1>Copper kettle</h1><p class="price">$89.00</p><p>${description}</p></div>
${section}</main></body></html>`;

describe('extractHtml: customer reviews on a product’s page', () => {
  it('leaves out the reviews a section, a widget or microdata names, and keeps the description', async () => {
    for (const section of [
      `<section id="reviews"><h2>Customer reviews</h2>${reviews}</section>`,
      `<div class="product-reviews__list">${reviews}</div>`,
      `<div class="yotpo-main-widget">${reviews}</div>`,
      `<div>${['Ann', 'Bo', 'Cy', 'Di'].map((name, index) => `<div itemprop="review" itemscope itemtype="https://schema.org/Review">${review(name, index)}</div>`).join('')}</div>`,
    ]) {
      const article = await extractHtml(page(PRODUCT, section), url);
      expect(article.text).toContain('Detail 6');
      expect(article.text).toContain('$89.00');
      expect(article.text, section).not.toMatch(/Review \d/);
    }
  });

  it('keeps a product box named after its rating, and an editorial review’s sections', async () => {
    const boxed = await extractHtml(page(PRODUCT, '', 'product-reviews-summary'), url);
    expect(boxed.text).toContain('Detail 6');
    // A roundup names each product it reviews `…-review`: those sections are its text.
    const roundup = await extractHtml(page(PRODUCT, `<div id="kettle-review">${reviews}</div>`), url);
    expect(roundup.text).toContain('Review 3');
  });

  it('keeps the reviews on pages that are not a product’s', async () => {
    const article = await extractHtml(
      page(
        '<meta property="og:type" content="website">',
        `<section id="reviews"><h2>Customer reviews</h2>${reviews}</section>`,
      ),
      url,
    );
    expect(article.text).toContain('Review 3');
  });
});
