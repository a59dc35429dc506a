import { isControlMenuRole } from './control-menus.js';
import { PARAGRAPH_BLOCKS } from './element-names.js';
import { HIDDEN_KEEP_SHARE, hiddenByMarkup } from './hidden-content.js';
import { scanHtml } from './html-scan.js';
import { escapeLinkLikeText } from './markdown-safety.js';
import { markdownToText } from './markdown-to-text.js';
import { inlineFormula } from './mathml-latex.js';
import type { DomNode } from './metadata-markup.js';
import { safeAbsoluteUrl } from './safe-link.js';
import { statedMarkup } from './stated-markup.js';

/** An HTML page read as text in one streaming pass. */
export interface StreamedText {
  /** The text as Markdown: headings, paragraphs, list items and links. */
  markdown: string;
  /** The same as plain text. */
  text: string;
  /** The `<title>`, when present. */
  title: string | undefined;
  /** The markup the page states its metadata in, for the metadata reader (see `stated-markup.ts`). */
  stated: DomNode;
}

/** Elements whose content is never readable text. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'textarea',
  'button',
  'nav',
  'head',
  'title',
]);

const HEADING = /^h([1-6])$/;

/**
 * The class of a picture of a formula, whose alternative text is its TeX: MediaWiki's
 * `mwe-math-fallback-image-inline`, WordPress's `latex`.
 */
const FORMULA_PICTURE = /(?:^|[\s_-])(?:math|latex)(?:$|[\s_-])/i;

/**
 * The formula an element gives as TeX, written in a line between spaces: a `<math>`'s `alttext`, or
 * the alternative text of a picture of one ({@link FORMULA_PICTURE}), unless the element hides
 * itself; else empty.
 */
function formulaOf(name: string, attributes: Record<string, string | undefined>): string {
  const tex =
    name === 'math'
      ? attributes.alttext
      : name === 'img' && FORMULA_PICTURE.test(attributes.class ?? '')
        ? attributes.alt
        : undefined;
  if (tex === undefined || hiddenByMarkup(name, (attribute) => attributes[attribute]) !== false) return '';
  const formula = inlineFormula(tex);
  return formula === '' ? '' : ` ${formula} `;
}

/**
 * The last-resort HTML stage for pages past the DOM stages' bounds: one streaming pass with no DOM,
 * so its time and memory grow with the page's length and nothing else (no recursion, no tree).
 * Headings, paragraphs, list items and safe links survive; page furniture is not recognised.
 */
export async function htmlToStreamedText(html: string, baseUrl: string): Promise<StreamedText> {
  // Blocks inside an element the page hides are kept apart, and dropped at the end unless they
  // hold most of the page's text (as the DOM stages do, see `dropHiddenContent`).
  const blocks: Array<{ text: string; hidden: boolean }> = [];
  let hiddenLength = 0;
  let shownLength = 0;
  let line = '';
  let prefix = '';
  let skipDepth = 0;
  let hiddenDepth = 0;
  const stated = statedMarkup();
  const links: Array<{ href: string | undefined; start: number }> = [];
  // The links whose text is still open on the current line: a flush closes these alone, so a page of
  // thousands of unclosed links costs each flush nothing for the links closed before it.
  let openOnLine: Array<{ href: string | undefined; start: number }> = [];
  const closeLink = (link: { href: string | undefined; start: number }) => {
    if (link.href === undefined) return;
    if (line.slice(link.start + 1).trim() === '') line = line.slice(0, link.start);
    else line += `](${link.href.replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
    link.href = undefined;
  };
  const flush = () => {
    // A block inside a link ends the link's text here, so no bracket is left open across blocks.
    for (const link of openOnLine) closeLink(link);
    openOnLine = [];
    const text = line.replace(/\s+/g, ' ').trim();
    if (text !== '') {
      blocks.push({ text: `${prefix}${text}`, hidden: hiddenDepth > 0 });
      if (hiddenDepth > 0) hiddenLength += text.length;
      else shownLength += text.length;
    }
    line = '';
    prefix = '';
  };
  await scanHtml(html, {
    open(name, attributes) {
      stated.open(name, attributes);
      if (skipDepth === 0 && hiddenDepth === 0) line += formulaOf(name, attributes);
      if (skipDepth > 0 || SKIPPED.has(name) || isControlMenuRole(attributes.role)) {
        skipDepth++;
        return;
      }
      if (hiddenDepth > 0) hiddenDepth++;
      else if (hiddenByMarkup(name, (attribute) => attributes[attribute]) !== false) {
        flush();
        hiddenDepth = 1;
      }
      if (name === 'br') {
        flush();
        return;
      }
      if (name === 'a') {
        const href = safeAbsoluteUrl(attributes.href, baseUrl);
        const link = { href, start: line.length };
        links.push(link);
        if (href !== undefined) {
          line += '[';
          openOnLine.push(link);
        }
        return;
      }
      if (PARAGRAPH_BLOCKS.has(name)) {
        flush();
        const heading = HEADING.exec(name);
        if (heading !== null) prefix = `${'#'.repeat(Number(heading[1]))} `;
        else if (name === 'li') prefix = '- ';
      }
    },
    text(text) {
      stated.text(text);
      // Page text spells no Markdown link: brackets and link-like openers are escaped.
      if (skipDepth === 0) line += escapeLinkLikeText(text.replace(/[\\[\]]/g, '\\$&'));
    },
    close(name) {
      stated.close(name);
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      if (hiddenDepth === 1) flush();
      if (hiddenDepth > 0) hiddenDepth--;
      if (name === 'a') {
        const link = links.pop();
        if (link !== undefined) closeLink(link);
        return;
      }
      if (PARAGRAPH_BLOCKS.has(name)) flush();
    },
  });
  flush();
  const keepHidden = hiddenLength > HIDDEN_KEEP_SHARE * (hiddenLength + shownLength);
  const markdown = blocks
    .filter((block) => keepHidden || !block.hidden)
    .map((block) => block.text)
    .join('\n\n');
  const tree = stated.tree();
  const titleNode = tree.children?.find((node) => node.name === 'title');
  const title = (titleNode?.children?.[0]?.data ?? '').replace(/\s+/g, ' ').trim();
  return { markdown, text: markdownToText(markdown), title: title === '' ? undefined : title, stated: tree };
}
