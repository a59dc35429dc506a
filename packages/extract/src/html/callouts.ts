import type TurndownService from 'turndown';
import { fenceAfter } from './markdown-fences.js';

/**
 * The kinds of a note or a warning: what an `<aside>` is a callout of by its class alone (Google's
 * documentation writes `<aside class="note">`), where a quotation, an example or a summary is not.
 */
const ASIDE_KINDS = new Set([
  'note',
  'tip',
  'hint',
  'info',
  'important',
  'warning',
  'caution',
  'attention',
  'danger',
  'error',
  'success',
  'key-point',
  'key-term',
]);

/**
 * The kinds a documentation theme gives its callouts by a class name of their own (Sphinx and
 * MkDocs write `admonition warning`): the notes' kinds and more. A theme that writes the kind into
 * a prefixed class (`markdown-alert-note`, `theme-admonition-tip`) may use any word.
 */
const CALLOUT_KINDS = new Set([
  ...ASIDE_KINDS,
  'check',
  'done',
  'question',
  'help',
  'faq',
  'failure',
  'fail',
  'missing',
  'bug',
  'example',
  'quote',
  'cite',
  'abstract',
  'summary',
  'tldr',
  'todo',
  'seealso',
]);

/**
 * Prefixed class names that carry a callout's kind (GitHub, Docusaurus, Docsy, Quarto and others;
 * Starlight writes two hyphens, `starlight-aside--tip`).
 */
const KIND_CLASS =
  /^(?:markdown-alert|theme-admonition|admonition|alert|callout|starlight-aside-)-([a-z]+)$/i;

/** Parts of a prefixed class that name a callout's pieces, not its kind. */
const NOT_A_KIND = new Set(['title', 'heading', 'content', 'icon', 'body', 'inner', 'fold', 'container']);

/**
 * Elements that are callouts before they are marked: found by class (Bootstrap's `alert` and
 * Quarto's `callout` with a kind class beside it among them, Starlight's asides, VitePress's and
 * VuePress's `custom-block` and `hint-container` with the kind as a class of its own) or by Obsidian's
 * attribute, and MkDocs' folded admonitions: a `<details>` whose class is the kind.
 */
const CALLOUT_SELECTOR =
  '.markdown-alert, .admonition, [class*="theme-admonition-"], .callout[data-callout], .callout[class*="callout-"], .alert[class*="alert-"], .starlight-aside, .custom-block, .hint-container, details[class], aside[class]';

/**
 * A word every class that {@link CALLOUT_SELECTOR} matches holds: without one the page has no
 * callout, and most pages skip the search for them.
 */
export const CALLOUT_MARKUP =
  /admonition|callout|alert-|markdown-alert|starlight-aside|custom-block|hint-container|<(?:details|aside)\s[^>]*class/i;

/** A callout's title: the element a theme draws the kind or heading in. */
const TITLE_SELECTOR =
  '.markdown-alert-title, .custom-block-title, .hint-container-title, .admonition-header, .admonition-title, .admonition-heading, [class*="admonitionHeading"], .callout-title, .callout-title-container, .alert-heading, .alert-title, .starlight-aside__title';

/** A callout's body, where a theme wraps it apart from the title. */
const BODY_SELECTOR =
  '.callout-content, .callout-body-container, .admonition-content, [class*="admonitionContent"], .details-content, .starlight-aside__content';

/**
 * Rewrites each callout of `document` (GitHub's alerts, Docusaurus, MkDocs and Sphinx admonitions,
 * Obsidian callouts) as a `<blockquote data-callout="kind">` holding its body, with its title in
 * `data-callout-title` unless the title only repeats the kind. Both extractors keep a blockquote and
 * those attributes, where a theme's classes (the only place the kind is written) are dropped, and
 * {@link addCalloutRule} writes the blockquote as a Markdown alert.
 */
export function markCallouts(document: Document): void {
  const body = document.body;
  if (body === null) return;
  // Innermost first, so that a callout inside another is marked before its parent moves it.
  for (const element of Array.from(body.querySelectorAll(CALLOUT_SELECTOR)).reverse()) {
    if (element.parentNode === null) continue;
    const classKind = calloutKind(element);
    if (classKind === undefined) {
      // A Bootstrap box whose colour names no kind (`alert-primary`) stays as written: without its
      // `alert` class Defuddle does not title it with the colour, a word the page never shows.
      element.classList.remove('alert');
      continue;
    }
    // A folded admonition's title is its summary, the line a reader clicks to open it.
    const title = element.localName === 'details' ? ownSummary(element) : ownPart(element, TITLE_SELECTOR);
    const titleText = (title?.textContent ?? '').replace(/\s+/g, ' ').trim();
    // The kind the title names, when it names one ("Note:" over Bootstrap's `alert-info`): a
    // framework's class may give only the colour.
    const kind = titleKind(titleText) ?? classKind;
    title?.remove();
    const content = ownPart(element, BODY_SELECTOR) ?? element;
    // A label in bold that opens the body and only names the kind ("**Note:** Back up first.") is
    // the callout's title, as a title element would be.
    if (title === undefined) leadingLabel(content, kind)?.remove();
    const quote = document.createElement('blockquote');
    quote.setAttribute('data-callout', kind);
    if (titleText !== '' && !repeatsKind(titleText, kind))
      quote.setAttribute('data-callout-title', titleText);
    quote.append(...Array.from(content.childNodes));
    element.replaceWith(quote);
  }
}

/** The kind of callout `element` is, lower-cased; undefined when it is not one. */
function calloutKind(element: Element): string | undefined {
  const declared = element.getAttribute('data-callout');
  if (declared !== null && /^[a-z-]{1,30}$/i.test(declared)) return declared.toLowerCase();
  const names = (element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
  // A folded panel is a callout only when its class is a kind's name (an accordion's item is not).
  // An aside is one by the rules below (Google's documentation writes `<aside class="note">`); a
  // page's sidebar names no kind.
  if (element.localName === 'details')
    return names.find((name) => CALLOUT_KINDS.has(name.toLowerCase()))?.toLowerCase();
  for (const name of names) {
    const kind = KIND_CLASS.exec(name)?.[1]?.toLowerCase();
    if (
      kind !== undefined &&
      !NOT_A_KIND.has(kind) &&
      (CALLOUT_KINDS.has(kind) || !/^(?:admonition|alert|callout)-/i.test(name))
    )
      return kind;
  }
  // An aside named only for its kind is a note of the page's own; a forum's `<aside class="quote">`
  // is the post a reply quotes, which stays a quotation.
  const kinds = element.localName === 'aside' ? ASIDE_KINDS : CALLOUT_KINDS;
  const own = names.find((name) => kinds.has(name.toLowerCase()))?.toLowerCase();
  if (own !== undefined) return own;
  // A `.admonition` of a kind the list does not know ("admonition custom") is still one.
  if (names.includes('admonition') || names.includes('markdown-alert')) return 'note';
  return undefined;
}

/** The first element matching `selector` in `callout` that belongs to it, not to a callout inside it. */
function ownPart(callout: Element, selector: string): Element | undefined {
  for (const part of Array.from(callout.querySelectorAll(selector))) {
    const owner = part.parentElement?.closest(`${CALLOUT_SELECTOR}, blockquote[data-callout]`);
    if (owner === callout || (owner === null && callout.contains(part))) return part;
  }
  return undefined;
}

/** The `<summary>` child of a folded admonition. */
function ownSummary(details: Element): Element | undefined {
  for (const child of Array.from(details.children)) if (child.localName === 'summary') return child;
  return undefined;
}

/**
 * The bold element that opens `content` (or its first paragraph) when its text only names `kind`
 * ("Note:", "Key point:"); else undefined.
 */
function leadingLabel(content: Element, kind: string): Element | undefined {
  let first = firstNode(content);
  if (first?.nodeType === 1 && (first as Element).localName === 'p') first = firstNode(first as Element);
  if (first?.nodeType !== 1) return undefined;
  const label = first as Element;
  if (label.localName !== 'strong' && label.localName !== 'b') return undefined;
  return repeatsKind(label.textContent ?? '', kind) ? label : undefined;
}

/** The first child of `element` that is not whitespace or a comment. */
function firstNode(element: Element): ChildNode | undefined {
  for (const node of Array.from(element.childNodes)) {
    if (node.nodeType === 8 || (node.nodeType === 3 && (node.textContent ?? '').trim() === '')) continue;
    return node;
  }
  return undefined;
}

/** The callout kind a title is no more than ("Note:", "Warning"), lower-cased; else undefined. */
function titleKind(title: string): string | undefined {
  const word = title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return CALLOUT_KINDS.has(word) ? word : undefined;
}

/** Whether a title says only the kind ("Note", "TIP:", "See also" for `seealso`). */
function repeatsKind(title: string, kind: string): boolean {
  return title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '') === kind.replace(/-/g, '');
}

/**
 * Writes a blockquote marked with `data-callout` as a Markdown alert: a blockquote starting
 * `> [!KIND]` (its title after it when the title says more than the kind), then its body. A first
 * line that only repeats the kind is left out.
 */
export function addCalloutRule(service: TurndownService): void {
  service.addRule('callout', {
    // Only the blockquotes {@link markCallouts} made, which carry a kind.
    filter: (node) => {
      if (node.nodeName !== 'BLOCKQUOTE') return false;
      const kind = (node as Element).getAttribute('data-callout');
      return kind !== null && /^[a-z-]{1,30}$/i.test(kind);
    },
    replacement: (content, node) => {
      const element = node as Element;
      const kind = (element.getAttribute('data-callout') ?? 'note').toLowerCase();
      const title = (element.getAttribute('data-callout-title') ?? '').replace(/\s+/g, ' ').trim();
      const lines = content.replace(/^\n+|\s+$/g, '').split('\n');
      const first = lines.findIndex((line) => line.trim() !== '');
      if (first !== -1 && repeatsKind(lines[first] ?? '', kind)) lines.splice(0, first + 1);
      while (lines.length > 0 && (lines[0] ?? '').trim() === '') lines.shift();
      // The title is page text written outside Turndown's text pass: it gets the same escapes.
      const shownTitle = title === '' || repeatsKind(title, kind) ? '' : ` ${service.escape(title)}`;
      const head = `> [!${kind.toUpperCase()}]${shownTitle}`;
      let fence: string | undefined;
      const body = lines.map((line) => {
        if (line.trim() === '') return '>';
        fence = fenceAfter(line, fence);
        // Turndown puts three spaces after a list marker; the tidy-up that makes it one skips quotes.
        return `> ${fence === undefined ? line.replace(/^(\s*)([-*+]|\d+\.) {2,}(?=\S)/, '$1$2 ') : line}`;
      });
      return `\n\n${[head, ...body].join('\n')}\n\n`;
    },
  });
}
