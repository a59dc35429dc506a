import { countWords } from './choose-article.js';
import { HEADING_SELECTOR } from './element-names.js';

/**
 * The captions of a story's pictures, removed on the article route (see {@link dropCaptions}).
 * A photo's description and its credit line are not the story's text: neither benchmark's truth
 * holds them (of the `<figcaption>`s kept on WCXB article pages, 44 of 492 were in the truth, on
 * Zyte 5 of 49), and Readability keeps them inside its block. Other pages keep theirs: a reference
 * page's figure captions are its text.
 */
const CAPTION_SELECTOR = 'figcaption';

/** Elements a site names as a caption or a credit, taken as one when they look like it. */
const NAMED_CAPTION_SELECTOR = '[class*="caption" i], [class*="credit" i], [id*="caption" i]';

/** The most words an element named as a caption may hold to be taken as one. */
const CAPTION_MAX_WORDS = 50;

/**
 * Removes the captions of a story's pictures: every `<figcaption>`, and the elements a site names as
 * a caption or credit (`class="caption"`, `"wp-caption-text"`, `"image-credit"`, …) that hold
 * {@link CAPTION_MAX_WORDS} words or fewer, no heading and no picture, and are not beside a heading.
 * Sites name other things "caption" too: a box wrapping a picture and its caption (whose picture
 * is shown by its alt text), and the line under a heading that some themes call the heading's
 * caption, which is text of the page.
 */
export function dropCaptions(document: Document): void {
  for (const element of Array.from(document.querySelectorAll(CAPTION_SELECTOR))) element.remove();
  for (const element of Array.from(document.querySelectorAll(NAMED_CAPTION_SELECTOR))) {
    if (!element.isConnected) continue;
    if (element.querySelector(`${HEADING_SELECTOR}, img, picture, video`) !== null) continue;
    if (element.parentElement?.querySelector(HEADING_SELECTOR)) continue;
    if (countWords(element.textContent ?? '') <= CAPTION_MAX_WORDS) element.remove();
  }
}
