import { scanHtml } from './html/html-scan.js';

/**
 * The most elements a page may have for the DOM stages (Readability, Defuddle, Turndown) to run.
 * Real article pages stay far below it (the largest of 1,358 benchmark pages has under 16,000); the
 * DOM stages cost time and memory that grow faster than the element count past it.
 */
export const MAX_HTML_ELEMENTS = 30_000;

/**
 * The deepest element nesting the DOM stages are given. Real pages nest below 60; Readability's
 * scoring walks ancestors of every node and Turndown recurses per level, so depth costs
 * quadratic time and stack.
 */
export const MAX_HTML_DEPTH = 128;

/** How big an HTML page is for the DOM stages: elements and deepest nesting, as a browser would open them. */
export interface HtmlShape {
  /** Elements opened, implied ones included. */
  elements: number;
  /** The deepest nesting of open elements. */
  depth: number;
}

/**
 * Counts the elements and the nesting depth of a page in one streaming pass, without building a DOM,
 * so a hostile page is recognised before anything expensive runs.
 */
export async function measureHtml(html: string): Promise<HtmlShape> {
  const shape: HtmlShape = { elements: 0, depth: 0 };
  await scanHtml(html, {
    open(_name, _attributes, depth) {
      shape.elements++;
      if (depth > shape.depth) shape.depth = depth;
    },
    readsAttributes: false,
  });
  return shape;
}

/** Whether a page's shape is within the bounds of the DOM stages. */
export function withinDomBounds(shape: HtmlShape): boolean {
  return shape.elements <= MAX_HTML_ELEMENTS && shape.depth <= MAX_HTML_DEPTH;
}

/** A short reason naming the bound a page passed, for `parserFailures`. */
export function boundsReason(shape: HtmlShape): string {
  if (shape.depth > MAX_HTML_DEPTH) return `nesting depth ${shape.depth} is over ${MAX_HTML_DEPTH}`;
  return `${shape.elements} elements are over ${MAX_HTML_ELEMENTS}`;
}
