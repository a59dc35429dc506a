/** Review widgets shops embed, by the prefix of their class names: Yotpo, Judge.me, Stamped, Okendo. */
const REVIEW_WIDGETS = ['yotpo', 'jdgm', 'stamped', 'okendo'];

/**
 * Elements that may hold a product's customer reviews: schema.org `Review` microdata, and elements
 * whose id or class names reviews or a review widget (checked by {@link REVIEW_NAME}).
 */
const REVIEW_CANDIDATES = [
  '[itemprop~="review" i]',
  '[itemtype*="schema.org/Review" i]',
  ...['review', ...REVIEW_WIDGETS].flatMap((name) => [`[id*="${name}" i]`, `[class*="${name}" i]`]),
].join(', ');

/**
 * An id or class that names a section of reviews (`reviews`, `customer-reviews`, `product_review`…)
 * or a review widget. A single `review` is left alone: an editorial roundup names each of its
 * sections `…-review`, and a testimonial card is a `review-card`; those are the page's own text.
 */
const REVIEW_NAME = new RegExp(
  `(?:^|[\\s_-])(?:reviews|customer-?reviews?|product-?reviews?|${REVIEW_WIDGETS.join('|')})(?:$|[\\s_-])`,
  'i',
);

/**
 * Removes the customer reviews from a product's page, which WebFetch reads for the product's
 * description, specifications and prices: the reviews are what buyers say of it, often more words
 * than the description, and Defuddle keeps them as part of the article. An element holding the
 * page's `<h1>` is never removed (a shop may name the whole product box after its rating).
 */
export function dropCustomerReviews(document: Document): void {
  const heading = document.querySelector('h1');
  for (const element of Array.from(document.querySelectorAll(REVIEW_CANDIDATES))) {
    if (!element.isConnected || element === document.body || element === document.documentElement) continue;
    const named =
      /(?:^|\s)review(?:\s|$)/i.test(element.getAttribute('itemprop') ?? '') ||
      /schema\.org\/Review\b/i.test(element.getAttribute('itemtype') ?? '') ||
      REVIEW_NAME.test(element.id) ||
      REVIEW_NAME.test(element.getAttribute('class') ?? '');
    if (!named || (heading !== null && element.contains(heading))) continue;
    element.remove();
  }
}
