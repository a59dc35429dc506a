import { type CascadeLog, type HtmlArticle, recordFailure } from './cascade-record.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { markdownToText } from './markdown-to-text.js';
import { removeChrome } from './page-chrome.js';
import { parseShownDocument } from './prepare-document.js';

/** Elements whose text is never shown, removed before the last resort reads the body's text. */
const INVISIBLE_SELECTOR = 'script, style, noscript, template';

/** The descriptions a page gives of itself: its `description`, Open Graph and Twitter card. */
const DESCRIPTION_SELECTOR = [
  'meta[name="description" i]',
  'meta[property="og:description" i]',
  'meta[name="twitter:description" i]',
  'meta[property="twitter:description" i]',
].join(', ');

/** The longest of the page's descriptions of itself, whitespace collapsed; undefined when it gives none. */
function pageDescription(document: Document): string | undefined {
  let longest: string | undefined;
  for (const meta of Array.from(document.querySelectorAll(DESCRIPTION_SELECTOR))) {
    const content = (meta.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
    if (content !== '' && content.length > (longest?.length ?? 0)) longest = content;
  }
  return longest;
}

/** Whether Markdown shows a reader nothing: everything in it was markup. */
function readsAsEmpty(markdown: string): boolean {
  return markdownToText(markdown) === '';
}

/**
 * Whether the body's text is none at all: the page is an application's shell, which shows its
 * content once scripts have run.
 */
function isEmptyShell(text: string): boolean {
  return text === '';
}

/**
 * The last resorts, when no stage's article was usable: the body without its chrome; the whole
 * body's text when everything readable sat in chrome, so that a page with text never comes back
 * empty; and the page's description of itself when its body holds no text at all. `title` is the
 * one the route ended with.
 */
export async function readBody(log: CascadeLog, title: string | undefined): Promise<HtmlArticle> {
  const { html, baseUrl, parserFailures } = log;
  // Readability rewrote the first document, so the last resorts start from a fresh parse.
  const fresh = await parseShownDocument(html);
  removeChrome(fresh.body);
  let markdown = await htmlToMarkdown(fresh.body.innerHTML, baseUrl);
  if (readsAsEmpty(markdown)) {
    // Everything readable sat in page chrome (a header, a form…): the page's text is still its text.
    const whole = await parseShownDocument(html);
    for (const element of Array.from(whole.body.querySelectorAll(INVISIBLE_SELECTOR))) element.remove();
    markdown = await htmlToMarkdown(whole.body.innerHTML, baseUrl);
  }
  let text = markdownToText(markdown);
  if (isEmptyShell(text)) {
    // The body holds no text at all (an application's shell): the summary the page gives of itself
    // is all there is to read until it is rendered.
    const description = pageDescription(fresh);
    if (description !== undefined) {
      recordFailure(log, 'cleaned-body', 'no text in the body');
      const paragraph = fresh.createElement('p');
      paragraph.textContent = description;
      markdown = await htmlToMarkdown(paragraph.outerHTML, baseUrl);
      text = markdownToText(markdown);
      return { markdown, text, title, stage: 'page-description', parserFailures };
    }
  }
  return { markdown, text, title, stage: 'cleaned-body', parserFailures };
}
