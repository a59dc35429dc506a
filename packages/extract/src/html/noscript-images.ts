/**
 * Images a page draws late: a placeholder (an inline `data:` image, or none at all) that a script
 * swaps for the picture, with the picture itself in a `<noscript>` beside it for readers without
 * scripts. Next.js's `next/image`, WordPress's lazy-loading plugins and lazysizes write it so. This
 * extractor runs no scripts and drops every `<noscript>`, so the picture was lost.
 */

/** A `<noscript>` that may hold an image, without which a page has nothing for {@link placeNoscriptImages}. */
export const NOSCRIPT_IMAGE_MARKUP = /<noscript\b[^>]*>\s*<(?:img|picture)\b/i;

/** Attributes a lazy-loading script reads the picture's address from. */
const LAZY_SOURCE_ATTRIBUTES = [
  'data-src',
  'data-lazy-src',
  'data-srcset',
  'data-lazy-srcset',
  'data-original',
];

/**
 * Puts the picture of each image `<noscript>` of `document` in the place of the placeholder beside
 * it (its element sibling just before or after: an `<img>`, or a `<picture>` holding one, whose
 * source is missing or inline, or that a lazy-loading script fills in). A `<noscript>` with no
 * placeholder beside it (a tracking pixel, an image the page already shows) is left to be dropped.
 */
export function placeNoscriptImages(document: Document): void {
  for (const noscript of Array.from(document.body?.getElementsByTagName('noscript') ?? [])) {
    if (noscript.parentNode === null) continue;
    const picture = fallbackPicture(noscript);
    if (picture === undefined) continue;
    const placeholder = [noscript.previousElementSibling, noscript.nextElementSibling].find(isPlaceholder);
    if (placeholder === undefined) continue;
    placeholder.replaceWith(picture);
    noscript.remove();
  }
}

/** The one image a `<noscript>` holds (with no text beside it), when it has a real source. */
function fallbackPicture(noscript: Element): Element | undefined {
  const elements = Array.from(noscript.children);
  const [picture] = elements;
  if (elements.length !== 1 || picture === undefined || (noscript.textContent ?? '').trim() !== '') {
    return undefined;
  }
  const image = pictureImage(picture);
  return image !== undefined && hasRealSource(image) ? picture : undefined;
}

/** The `<img>` an `<img>` or `<picture>` element draws; undefined for any other element. */
function pictureImage(element: Element): Element | undefined {
  if (element.localName === 'img') return element;
  return element.localName === 'picture' ? element.getElementsByTagName('img')[0] : undefined;
}

/** Whether an image names a picture to load: a `src` or `srcset` that is not inline. */
function hasRealSource(image: Element): boolean {
  const source = (image.getAttribute('src') ?? '').trim();
  if (source !== '' && !/^data:/i.test(source)) return true;
  const set = (image.getAttribute('srcset') ?? '').trim();
  return set !== '' && !/^data:/i.test(set);
}

/** Whether `element` stands in for a picture until a script draws it (see {@link placeNoscriptImages}). */
function isPlaceholder(element: Element | null): element is Element {
  const placeholder = element === null ? undefined : pictureImage(element);
  if (placeholder === undefined) return false;
  if (LAZY_SOURCE_ATTRIBUTES.some((name) => placeholder.hasAttribute(name))) return true;
  const source = (placeholder.getAttribute('src') ?? '').trim();
  return source === '' || /^data:/i.test(source);
}
