import { CALLOUT_MARKUP, markCallouts } from './callouts.js';
import { cleanCodeBlocks } from './code-blocks.js';
import { EDITOR_MARKUP, writeEditorCode } from './code-editors.js';
import { dropLineNumbers } from './code-gutters.js';
import { keepCodeLines } from './code-lines.js';
import { CONSENT_DIALOG_MARKUP, dropConsentDialogs } from './consent-dialogs.js';
import { CONTROL_MENU_SELECTOR } from './control-menus.js';
import { keepCrossReferences } from './cross-references.js';
import { revealDisclosurePanels, revealStyledParts } from './disclosure-panels.js';
import { joinEmphasisRuns } from './emphasis-runs.js';
import { ESCAPED_TAG_MARKUP, parseEscapedMarkup } from './escaped-markup.js';
import { parseEscapedNoscripts } from './escaped-noscript.js';
import { keepHeadingWords, spaceHeadingLines } from './heading-words.js';
import { dropHiddenContent } from './hidden-content.js';
import { dropExtraLineBreaks } from './html-to-markdown.js';
import { normalizeImageSources } from './image-sources.js';
import { unwrapInertLinks } from './inert-links.js';
import { spaceJoinedElements } from './joined-elements.js';
import { dropLayoutClasses } from './layout-classes.js';
import { findMarkers } from './markup-markers.js';
import { DELIMITED_MATH_MARKUP, placeDelimitedFormulas } from './math-delimiters.js';
import { MATH_SCRIPT_MARKUP, placeMathScripts } from './math-scripts.js';
import { markMathLatex } from './mathml-latex.js';
import { linkMediaEmbeds } from './media-embeds.js';
import { unwrapContentNoscripts } from './noscript-content.js';
import { NOSCRIPT_IMAGE_MARKUP, placeNoscriptImages } from './noscript-images.js';
import { parseHtmlDocument } from './parse-html-document.js';
import { signPosts } from './post-authors.js';
import { dropScreenVariants } from './screen-variants.js';
import { placeShadowRoots, SHADOW_ROOT_MARKUP } from './shadow-roots.js';
import { dropSkipLinks } from './skip-links.js';
import { resolveStreamedParts } from './suspense-boundaries.js';

/**
 * Elements removed right after parsing: never article text (JSON-LD stays, Defuddle reads its
 * metadata), the Markdown drops them anyway, and their text and subtrees slow down every selector
 * pass of both extractors; and the menus of the page's controls (`control-menus.ts`).
 */
const NON_CONTENT_SELECTOR = `script:not([type="application/ld+json"]), style, template, svg, noscript, iframe, object, embed, canvas, button, select, textarea, input, ${CONTROL_MENU_SELECTOR}`;

/**
 * Markup without which a page has no disclosure widget to open: a control's `aria-controls` or
 * `aria-expanded`, a tab panel or region, or a button at the start of a heading. Most pages have
 * none and skip the walk {@link revealDisclosurePanels} makes.
 */
const DISCLOSURE_MARKUP =
  /aria-(?:controls|expanded)|role\s*=\s*["']?(?:tabpanel|region)|<h[1-6]\b[^>]*>\s*<button/i;

/**
 * The id of a part a React page streams in (`id="S:3"`): without one there is nothing for
 * {@link resolveStreamedParts} to move, and its walks are skipped.
 */
const STREAMED_PART_MARKUP = /\bid\s*=\s*["']?S:/i;

/**
 * An inline `opacity` of zero or `display: none`, without which a page hides nothing in its style
 * and skips the walk {@link revealStyledParts} makes.
 */
const STYLE_HIDDEN_MARKUP = /opacity\s*:\s*\.?0|display\s*:\s*none/i;

/**
 * A MathML formula, without which (or a formula script, see `math-scripts.ts`) a page has nothing
 * for {@link markMathLatex} to write as TeX.
 */
const MATH_MARKUP = /<math\b/i;

/**
 * An `href` that may take the reader nowhere (see `inert-links.ts`) or to a place on the page (see
 * `heading-words.ts` and `skip-links.ts`); most pages have one.
 */
const INERT_LINK_MARKUP = /\bhref\s*=\s*["']?\s*(?:#|javascript:)/i;

/** A `<noscript>`, without which a page has nothing for the `<noscript>` steps to read. */
const NOSCRIPT_MARKUP = /<noscript\b/i;

/**
 * A `<pre>` or `<code>` element, without which (or markup a page escaped, in a `<noscript>` or
 * elsewhere, once parsed: see `escaped-noscript.ts` and `escaped-markup.ts`) a page has no code for
 * {@link cleanCodeBlocks} to clean.
 */
const CODE_MARKUP = /<(?:pre|code)\b/i;

/** A microdata author, which the posts of a thread name (see `post-authors.ts`). */
const POST_AUTHOR_MARKUP = /\bitemprop\s*=\s*["']?(?:author|creator)\b/i;

/** A frame, which may be a known player's (see `media-embeds.ts`). */
const FRAME_MARKUP = /<iframe\b/i;

/**
 * The markup each optional step of the preparation needs, found in one pass over the page
 * (`findMarkers`): a page without it skips the step.
 */
const STEP_MARKUP = {
  streamedParts: STREAMED_PART_MARKUP,
  shadowRoots: SHADOW_ROOT_MARKUP,
  mathScripts: MATH_SCRIPT_MARKUP,
  mathSources: DELIMITED_MATH_MARKUP,
  noscripts: NOSCRIPT_MARKUP,
  escapedTags: ESCAPED_TAG_MARKUP,
  noscriptImages: NOSCRIPT_IMAGE_MARKUP,
  code: CODE_MARKUP,
  editors: EDITOR_MARKUP,
  callouts: CALLOUT_MARKUP,
  math: MATH_MARKUP,
  disclosures: DISCLOSURE_MARKUP,
  styleHidden: STYLE_HIDDEN_MARKUP,
  frames: FRAME_MARKUP,
  consentDialogs: CONSENT_DIALOG_MARKUP,
  inertLinks: INERT_LINK_MARKUP,
  postAuthors: POST_AUTHOR_MARKUP,
};

type StepMarkup = ReadonlySet<keyof typeof STEP_MARKUP>;

/**
 * Parses the page into the document a reader is shown without scripts running: the parts a React
 * page streams in moved into their places (`resolveStreamedParts`, before scripts go), the shadow
 * trees of its components drawn in their places (`placeShadowRoots`), the formulas
 * kept as source in scripts put in their places as `<math>` (`placeMathScripts`), and those left
 * as TeX between MathJax's delimiters too (`placeDelimitedFormulas`), markup the page
 * escaped as text read as markup (`parseEscapedNoscripts`, `parseEscapedMarkup`), the pictures
 * of lazily drawn images put in place of their placeholders (`placeNoscriptImages`), the
 * content of long `<noscript>`s unwrapped (`unwrapContentNoscripts`), the collapsed panels of
 * accordions and tabs shown (`revealDisclosurePanels`), and what its inline styles hide until the
 * reader acts shown too: panels folded away by class and parts it fades in (`revealStyledParts`);
 * then the links that let a keyboard skip a part of the page (`dropSkipLinks`), what stays hidden
 * from the reader (`dropHiddenContent`) and the extra copies of a block the page draws once per
 * screen (`dropScreenVariants`) removed. `parsed` is `html` already parsed (by `parseHtmlDocument`),
 * which becomes the shown document.
 */
export async function parseShownDocument(html: string, parsed?: Document): Promise<Document> {
  return showDocument(parsed ?? (await parseHtmlDocument(html)), findMarkers(html, STEP_MARKUP));
}

/** {@link parseShownDocument} for a page already parsed, whose markup holds `markup`. */
function showDocument(document: Document, markup: StepMarkup): Document {
  if (markup.has('streamedParts')) resolveStreamedParts(document);
  if (markup.has('shadowRoots')) placeShadowRoots(document);
  if (markup.has('mathScripts')) placeMathScripts(document);
  if (markup.has('mathSources')) placeDelimitedFormulas(document);
  const escaped =
    (markup.has('noscripts') ? parseEscapedNoscripts(document) : 0) +
    (markup.has('escapedTags') ? parseEscapedMarkup(document) : 0);
  if (markup.has('noscriptImages')) placeNoscriptImages(document);
  if (markup.has('noscripts')) unwrapContentNoscripts(document);
  if (markup.has('editors')) writeEditorCode(document);
  if (escaped > 0 || markup.has('code') || markup.has('editors')) {
    dropLineNumbers(document);
    cleanCodeBlocks(document);
    keepCodeLines(document);
  }
  if (markup.has('callouts')) markCallouts(document);
  if (markup.has('mathScripts') || markup.has('mathSources') || markup.has('math')) markMathLatex(document);
  if (markup.has('disclosures')) revealDisclosurePanels(document);
  if (markup.has('styleHidden')) revealStyledParts(document);
  if (markup.has('inertLinks')) dropSkipLinks(document);
  dropHiddenContent(document, markup.has('math'));
  dropScreenVariants(document);
  return document;
}

/**
 * The document the DOM stages read: the page as a reader is shown it ({@link parseShownDocument}),
 * without the elements that are never article text ({@link NON_CONTENT_SELECTOR}), the consent
 * managers' dialogs (`dropConsentDialogs`) and the class names that only lay it out
 * (`dropLayoutClasses`); the links in and around headings that go nowhere (`unwrapInertLinks`) and a
 * heading's words linked to a place on the page (`keepHeadingWords`) made text, a space put where a
 * heading breaks a line (`spaceHeadingLines`) and between inline elements whose words run together
 * (`spaceJoinedElements`), and each run of emphasis made one element (`joinEmphasisRuns`); its
 * images' source sets rewritten (`normalizeImageSources`) and its long runs of line breaks cut
 * (`dropExtraLineBreaks`). `parsed`, when given, is `html` already parsed, which becomes the prepared
 * document.
 */
export async function prepareDocument(html: string, parsed?: Document): Promise<Document> {
  const markup = findMarkers(html, STEP_MARKUP);
  const document = showDocument(parsed ?? (await parseHtmlDocument(html)), markup);
  // Frames of known players become links to their media before every frame is dropped.
  if (markup.has('frames')) linkMediaEmbeds(document);
  for (const element of Array.from(document.querySelectorAll(NON_CONTENT_SELECTOR))) element.remove();
  if (markup.has('consentDialogs')) dropConsentDialogs(document);
  if (markup.has('postAuthors')) signPosts(document);
  if (markup.has('inertLinks')) {
    unwrapInertLinks(document);
    keepHeadingWords(document);
    keepCrossReferences(document);
  }
  spaceHeadingLines(document);
  if (document.body !== null) {
    spaceJoinedElements(document.body);
    // After the spaces: elements whose words were apart are no longer side by side.
    joinEmphasisRuns(document.body);
  }
  dropLayoutClasses(document);
  normalizeImageSources(document);
  dropExtraLineBreaks(document);
  return document;
}

/** The URL relative links resolve against: a safe `<base href>` when present, else the page URL. */
export function documentBaseUrl(
  document: { querySelector(selector: string): Element | null },
  url: string,
): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (href === null || href === undefined) return url;
  try {
    const resolved = new URL(href, url);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : url;
  } catch {
    return url;
  }
}
