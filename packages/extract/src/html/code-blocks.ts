/**
 * Elements a code block's toolbar puts inside or beside the code: controls and their styles, never
 * code. A block's `textContent` would otherwise carry "Copy" or the highlighter's CSS into the
 * fenced block, and a control inside `<code>` can make an extractor take the block for a widget.
 */
const CONTROL_ELEMENTS = new Set([
  'button',
  'style',
  'script',
  'template',
  'link',
  'input',
  'select',
  'textarea',
]);

/** Class names, labels and titles that name a copy control ("copy", "copy-button", "clipboard"). */
const COPY_CONTROL_NAME =
  /(?:^|[\s_-])(?:copy|clipboard|copied)(?:$|[\s_-])|copy(?:button|code|btn)|clipboard/i;

/** The words a copy control shows at most ("Copy", "Copy code", "Copied to clipboard!"). */
export const COPY_CONTROL_MAX_WORDS = 4;

/** The most words a code block's wrapper says beside the code for its controls to be a toolbar's. */
export const TOOLBAR_MAX_WORDS = 12;

/** How many ancestors of a `<pre>` are searched for a toolbar beside it. */
const TOOLBAR_ANCESTORS = 2;

/**
 * Takes the controls out of each code block of `document` (the `<pre>`s, and `<code>`s that hold
 * lines of their own): buttons, styles and scripts inside the block, and copy controls inside or
 * beside it ({@link isCopyControl}). A `<code>` outside any `<pre>` that holds several lines and is
 * all its parent holds is a block written without one: it is wrapped in a `<pre>`, so it is read as
 * a fenced block rather than one line of inline code.
 */
export function cleanCodeBlocks(document: Document): void {
  const body = document.body;
  if (body === null) return;
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    dropControls(pre);
    dropToolbarBeside(pre);
  }
  for (const code of Array.from(body.querySelectorAll('code'))) {
    if (code.closest('pre') !== null) continue;
    const hadControls = dropControls(code);
    if (isBareCodeBlock(code, hadControls)) {
      const pre = document.createElement('pre');
      code.replaceWith(pre);
      pre.append(code);
      dropToolbarBeside(pre);
    }
  }
}

/** Removes the control elements and copy controls inside `block`; whether it held any. */
function dropControls(block: Element): boolean {
  let found = false;
  for (const element of Array.from(block.querySelectorAll('*'))) {
    if (element.parentNode === null || !block.contains(element)) continue;
    if (CONTROL_ELEMENTS.has(element.localName) || isCopyControl(element)) {
      element.remove();
      found = true;
    }
  }
  return found;
}

/**
 * Removes copy controls that sit beside `pre` in its wrappers (a Docusaurus or Prism toolbar), up to
 * {@link TOOLBAR_ANCESTORS} levels up, and only in wrappers that hold no other code block.
 */
function dropToolbarBeside(pre: Element): void {
  let wrapper = pre.parentElement;
  for (let level = 0; level < TOOLBAR_ANCESTORS && wrapper !== null; level++) {
    if (wrapper.localName === 'body' || wrapper.querySelectorAll('pre').length > 1) return;
    // A toolbar says a few words beside the code; a wrapper saying more is the page's text.
    if (wordCount(wrapper) - wordCount(pre) > TOOLBAR_MAX_WORDS) return;
    for (const element of Array.from(wrapper.querySelectorAll('*'))) {
      if (element.parentNode === null || element.contains(pre) || pre.contains(element)) continue;
      if (isCopyControl(element)) element.remove();
    }
    wrapper = wrapper.parentElement;
  }
}

/**
 * Whether `element` is a copy control: a button (by element or role) or an element named for
 * copying (class, id, label, title), showing at most {@link COPY_CONTROL_MAX_WORDS} words and no
 * code of its own.
 */
function isCopyControl(element: Element): boolean {
  if (element.querySelector('pre, code') !== null) return false;
  if (wordCount(element) > COPY_CONTROL_MAX_WORDS) return false;
  if (element.localName === 'button' || element.getAttribute('role') === 'button') return true;
  // A control without words (an icon) adds nothing to the Markdown, and is left to the extractors.
  if (wordCount(element) === 0) return false;
  const names = [
    element.getAttribute('class'),
    element.id,
    element.getAttribute('aria-label'),
    element.getAttribute('title'),
  ];
  if (names.some((name) => name !== null && name !== '' && COPY_CONTROL_NAME.test(name))) return true;
  return Array.from(element.attributes).some(
    (attribute) => attribute.name.startsWith('data-') && /copy|clipboard/i.test(attribute.name),
  );
}

/** Elements inside which a `<code>` is part of a sentence, never a block of its own. */
const INLINE_CONTEXT = 'p, a, span, li, td, th, h1, h2, h3, h4, h5, h6, dt, label, summary';

/**
 * Whether `code` (outside any `<pre>`) is a block: several non-empty lines, or a toolbar's control
 * taken out of it, and all the text of a parent that is not a sentence's.
 */
function isBareCodeBlock(code: Element, hadControls: boolean): boolean {
  const text = code.textContent ?? '';
  const lines = text.split('\n').filter((line) => line.trim() !== '').length;
  if (lines < 2 && !hadControls) return false;
  if (text.trim() === '') return false;
  const parent = code.parentElement;
  if (parent === null || parent.matches(INLINE_CONTEXT)) return false;
  return (parent.textContent ?? '').trim() === text.trim();
}

function wordCount(element: Element): number {
  return (element.textContent ?? '').split(/\s+/).filter(Boolean).length;
}
