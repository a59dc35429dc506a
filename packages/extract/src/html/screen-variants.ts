import { UNDRAWN } from './drawn-text.js';

/**
 * The fewest characters (whitespace aside) a copy must hold to be compared: shorter text ("Read
 * more", a price, a button label) repeats on pages for reasons of its own.
 */
export const SCREEN_VARIANT_MIN_CHARS = 80;

/**
 * Class names that show or hide an element by screen size or medium, in the CSS frameworks and
 * site builders that draw one block twice (or three times) for different screens:
 * - Bootstrap: `d-none`, `d-md-block`, `d-lg-none`, `d-print-none`, `visible-xs`, `hidden-sm`;
 * - Foundation: `show-for-medium`, `hide-for-small-only`;
 * - Bulma: `is-hidden-mobile`, `is-hidden-desktop`;
 * - Tailwind: `md:hidden`, `lg:block`, `max-sm:hidden`;
 * - Framer's server-rendered variants: `ssr-variant`, `hidden-1rq27kw`;
 * - site names: `mobile`, `desktop-view`, `plans-desktop`, `mobile-only`, `hide-on-mobile`,
 *   `visible-tablet`, `print-only`.
 */
const SCREEN_WORDS = '(?:mobile|desktop|tablet|phone|handheld|print)';
const SCREEN_CLASS = new RegExp(
  [
    '^d-none$',
    '^d-(?:sm|md|lg|xl|xxl|print)-(?:none|block|flex|inline|inline-block|inline-flex|grid|table)$',
    '^(?:visible|hidden)-(?:xs|sm|md|lg|xl|xxl|print)(?:-(?:block|inline|inline-block|down|up))?$',
    '^(?:show|hide)-for-(?:small|medium|large|xlarge|xxlarge|print|landscape|portrait)(?:-only|-up|-down)?$',
    '^is-(?:hidden|visible)-(?:mobile|tablet|touch|desktop|widescreen|fullhd)(?:-only)?$',
    '^(?:max-)?(?:sm|md|lg|xl|2xl):(?:hidden|block|flex|grid|inline|inline-block|contents)$',
    '^ssr-variant$',
    '^hidden-(?=[a-z]*[0-9])[a-z0-9]{5,8}$',
    `(?:^|[-_])${SCREEN_WORDS}(?:[-_]?(?:only|view|version|layout|show|hide|visible|hidden))?$`,
    `(?:^|[-_])${SCREEN_WORDS}[-_]?(?:only|view|version|layout|show|hide|visible|hidden)[-_]`,
    `(?:^|[-_])(?:only|show|hide|visible|hidden)[-_](?:on[-_]|for[-_]|in[-_])?(?:${SCREEN_WORDS}|small|large)(?:$|[-_])`,
  ].join('|'),
  'i',
);

/** Whether any of an element's class names shows or hides it by screen (see {@link SCREEN_CLASS}). */
export function namesScreen(element: Element): boolean {
  const classes = element.getAttribute('class');
  if (classes === null || classes === '') return false;
  for (const name of classes.split(/\s+/)) if (name !== '' && SCREEN_CLASS.test(name)) return true;
  return false;
}

/**
 * The share of a variant's text that must stand elsewhere in the page, block by block, for the
 * variant to be a copy drawn with other markup: a section given as tabs for wide screens and as an
 * accordion for narrow ones repeats every panel, but its headings become buttons of other words.
 */
export const SCREEN_VARIANT_MIN_SHARE = 0.8;

/** Blocks whose text is compared one by one (those holding no other such block). */
const BLOCKS = new Set([
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'td',
  'th',
  'dt',
  'dd',
  'pre',
  'blockquote',
  'figcaption',
]);

/** The shortest block compared: shorter ones ("Details", "$24") repeat for reasons of their own. */
const MIN_BLOCK_CHARS = 20;

/** Text compared as a reader sees it: without whitespace and case. */
const squeezed = (text: string | null) => (text ?? '').replace(/\s+/g, '').toLowerCase();

/** Where an element's text starts and ends in the page's squeezed text. */
interface Span {
  start: number;
  end: number;
}

/** A variant, with the spans of the blocks inside it that hold no other block. */
interface Variant {
  element: Element;
  span: Span;
  blocks: Span[];
}

/**
 * The page's drawn text, squeezed (see {@link squeezed}; scripts, styles, `<noscript>` and
 * templates left out, since a page's data scripts often hold its article again), with where each
 * variant and each innermost block inside one stands in it. One walk over the body.
 */
function readPage(body: Element, marked: ReadonlySet<Element>): { page: string; variants: Variant[] } {
  const reader = new PageReader(marked);
  // An entry is a node to enter, or an element whose end has been reached.
  const stack: Array<{ node: Node; leaving: boolean }> = [{ node: body, leaving: false }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, leaving } = entry;
    if (node.nodeType === TEXT_NODE) reader.text(node.nodeValue);
    else if (node.nodeType !== ELEMENT_NODE) continue;
    else if (leaving) reader.leave(node as Element);
    else if (reader.enter(node as Element)) {
      stack.push({ node, leaving: true });
      for (let child = node.lastChild; child !== null; child = child.previousSibling) {
        stack.push({ node: child, leaving: false });
      }
    }
  }
  return { page: reader.parts.join(''), variants: reader.variants };
}

/** What {@link readPage} keeps as it walks. */
class PageReader {
  readonly parts: string[] = [];
  readonly variants: Variant[] = [];
  private length = 0;
  /** The variants the walk is inside. */
  private readonly open: Variant[] = [];
  /** The blocks inside a variant the walk is inside, with whether each holds another block. */
  private readonly blocks: Array<{ start: number; inner: boolean }> = [];

  constructor(private readonly marked: ReadonlySet<Element>) {}

  text(value: string | null): void {
    const text = squeezed(value);
    this.parts.push(text);
    this.length += text.length;
  }

  /** Starts an element; `false` when its text is never drawn (and it is skipped). */
  enter(element: Element): boolean {
    if (UNDRAWN.has(element.localName)) return false;
    if (this.marked.has(element)) {
      const variant: Variant = { element, span: { start: this.length, end: this.length }, blocks: [] };
      this.variants.push(variant);
      this.open.push(variant);
    }
    if (this.open.length > 0 && BLOCKS.has(element.localName)) {
      for (const enclosing of this.blocks) enclosing.inner = true;
      this.blocks.push({ start: this.length, inner: false });
    }
    return true;
  }

  leave(element: Element): void {
    if (this.open.length > 0 && BLOCKS.has(element.localName)) {
      const entered = this.blocks.pop();
      if (entered !== undefined && !entered.inner) {
        for (const variant of this.open) variant.blocks.push({ start: entered.start, end: this.length });
      }
    }
    if (this.marked.has(element)) {
      const variant = this.open.pop();
      if (variant !== undefined) variant.span.end = this.length;
    }
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Whether `page` holds `text` ending at or before `before`. */
const standsBefore = (page: string, text: string, before: number) =>
  before >= text.length && page.lastIndexOf(text, before - text.length) !== -1;

/**
 * Whether the page gives the variant's text before it: whole, or block by block for
 * {@link SCREEN_VARIANT_MIN_SHARE} of it.
 */
function isLaterCopy(page: string, variant: Variant): boolean {
  const { start, end } = variant.span;
  if (end - start < SCREEN_VARIANT_MIN_CHARS) return false;
  if (standsBefore(page, page.slice(start, end), start)) return true;
  let covered = 0;
  for (const block of variant.blocks) {
    if (block.end - block.start < MIN_BLOCK_CHARS) continue;
    if (standsBefore(page, page.slice(block.start, block.end), start)) covered += block.end - block.start;
  }
  return covered >= SCREEN_VARIANT_MIN_SHARE * (end - start);
}

/**
 * Removes the extra copies of a block the page draws once per screen: an element whose class names
 * show or hide it by screen size or medium ({@link SCREEN_CLASS}), whose text (at least
 * {@link SCREEN_VARIANT_MIN_CHARS} characters, whitespace and case aside) the page already gave
 * before it, whole or block by block (see {@link isLaterCopy}). A reader on any one screen is shown
 * that text once; the first copy stays, as pages put the one for wide screens first. Text a page
 * repeats without such markup (a chorus, a reminder at the end of a guide, a step done twice) is
 * never touched. Returns how many copies were removed.
 */
export function dropScreenVariants(document: Document): number {
  const body = document.body;
  if (body === null) return 0;
  const marked = new Set(Array.from(body.querySelectorAll('[class]')).filter(namesScreen));
  if (marked.size === 0) return 0;
  const { page, variants } = readPage(body, marked);
  const copies = variants.filter((variant) => isLaterCopy(page, variant));
  for (const copy of copies) copy.element.remove();
  return copies.length;
}
