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

/** An element marked for a screen, and where its text stands. */
interface Variant {
  element: Element;
  span: Span;
}

/** What one walk reads of the page. */
interface PageText {
  page: string;
  variants: Variant[];
  /** The blocks inside variants that hold no other block, in page order (they do not overlap). */
  blocks: Span[];
}

/**
 * The page's drawn text, squeezed (see {@link squeezed}; scripts, styles, `<noscript>` and
 * templates left out, since a page's data scripts often hold its article again), with where each
 * variant and each innermost block inside one stands in it. One walk over the body.
 */
function readPage(body: Element, marked: ReadonlySet<Element>): PageText {
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
  return { page: reader.parts.join(''), variants: reader.variants, blocks: reader.leafBlocks };
}

/** What {@link readPage} keeps as it walks. */
class PageReader {
  readonly parts: string[] = [];
  readonly variants: Variant[] = [];
  readonly leafBlocks: Span[] = [];
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
      const variant: Variant = { element, span: { start: this.length, end: this.length } };
      this.variants.push(variant);
      this.open.push(variant);
    }
    if (this.open.length > 0 && BLOCKS.has(element.localName)) {
      // The block around this one holds another block (and the ones around it were marked when
      // their own first inner block began).
      const enclosing = this.blocks[this.blocks.length - 1];
      if (enclosing !== undefined) enclosing.inner = true;
      this.blocks.push({ start: this.length, inner: false });
    }
    return true;
  }

  leave(element: Element): void {
    if (this.open.length > 0 && BLOCKS.has(element.localName)) {
      const entered = this.blocks.pop();
      if (entered !== undefined && !entered.inner)
        this.leafBlocks.push({ start: entered.start, end: this.length });
    }
    if (this.marked.has(element)) {
      const variant = this.open.pop();
      if (variant !== undefined) variant.span.end = this.length;
    }
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * The most characters of page text the comparisons of one page may search. Each comparison
 * searches the text before a variant, so a hostile page of thousands of nested variants over a
 * long text would otherwise cost their product; past the budget the remaining variants stay.
 */
export const SCREEN_VARIANT_SEARCH_BUDGET = 10_000_000;

/** The comparisons of one page, and what they have searched so far. */
class Comparisons {
  private searched = 0;

  constructor(
    private readonly page: string,
    private readonly blocks: readonly Span[],
  ) {}

  /** Whether the budget still allows comparisons of a variant starting at `start`. */
  affords(start: number): boolean {
    return this.searched + start <= SCREEN_VARIANT_SEARCH_BUDGET;
  }

  /** Whether the page's text before `before` holds `text`. */
  standsBefore(text: string, before: number): boolean {
    if (text.length > before) return false;
    this.searched += before;
    return this.page.slice(0, before).includes(text);
  }

  /** The index of the first block starting at or after `start` (binary search). */
  private firstBlockFrom(start: number): number {
    let low = 0;
    let high = this.blocks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.blocks[middle] as Span).start < start) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Whether the page gives the variant's text before it: whole, or block by block for
   * {@link SCREEN_VARIANT_MIN_SHARE} of it.
   */
  isLaterCopy(variant: Variant): boolean {
    const { start, end } = variant.span;
    if (end - start < SCREEN_VARIANT_MIN_CHARS || !this.affords(start)) return false;
    if (this.standsBefore(this.page.slice(start, end), start)) return true;
    let covered = 0;
    for (let index = this.firstBlockFrom(start); index < this.blocks.length; index++) {
      const block = this.blocks[index] as Span;
      if (block.start >= end) break;
      if (block.end - block.start < MIN_BLOCK_CHARS) continue;
      if (!this.affords(start)) return false;
      if (this.standsBefore(this.page.slice(block.start, block.end), start))
        covered += block.end - block.start;
    }
    return covered >= SCREEN_VARIANT_MIN_SHARE * (end - start);
  }
}

/**
 * Removes the extra copies of a block the page draws once per screen: an element whose class names
 * show or hide it by screen size or medium ({@link SCREEN_CLASS}), whose text (at least
 * {@link SCREEN_VARIANT_MIN_CHARS} characters, whitespace and case aside) the page already gave
 * before it, whole or block by block (see `Comparisons.isLaterCopy`), within
 * {@link SCREEN_VARIANT_SEARCH_BUDGET}. A reader on any one screen is shown
 * that text once; the first copy stays, as pages put the one for wide screens first. Text a page
 * repeats without such markup (a chorus, a reminder at the end of a guide, a step done twice) is
 * never touched. Returns how many copies were removed.
 */
export function dropScreenVariants(document: Document): number {
  const body = document.body;
  if (body === null) return 0;
  const marked = new Set(Array.from(body.querySelectorAll('[class]')).filter(namesScreen));
  if (marked.size === 0) return 0;
  const { page, variants, blocks } = readPage(body, marked);
  const comparisons = new Comparisons(page, blocks);
  const copies = variants.filter((variant) => comparisons.isLaterCopy(variant));
  for (const copy of copies) copy.element.remove();
  return copies.length;
}
