// A page that shows code in an editor (CodeMirror, in a playground, an interactive example, or any
// page read after its scripts ran, as the browser stage reads it) draws each line as an element of
// its own inside the editor's content, and the line numbers in a gutter beside it; there is no
// `<pre>`. The lines came out as paragraphs, a blank line between them, and CodeMirror 5's as one
// fenced block per line. Each editor here becomes a `<pre><code>` of its lines.

/** The editors known: their root, the element holding the lines, and a line. */
const EDITORS = [
  // CodeMirror 6: `.cm-editor` > `.cm-scroller` > `.cm-content` of `.cm-line`s, the language in
  // `data-language` on the content.
  { root: '.cm-editor', content: '.cm-content', line: '.cm-line' },
  // CodeMirror 5: `.CodeMirror` > … > `.CodeMirror-code` of `pre.CodeMirror-line`s.
  { root: '.CodeMirror', content: '.CodeMirror-code', line: '.CodeMirror-line' },
];

/** A CodeMirror editor, without which a page has none for {@link writeEditorCode}. */
export const EDITOR_MARKUP = /\b(?:cm-content|codemirror-code)\b/i;

/**
 * Replaces each code editor of `document` ({@link EDITORS}) with a `<pre><code>` holding its lines,
 * one a line, in the language its content names (`data-language`). An editor whose content holds
 * no line stays as it is.
 */
export function writeEditorCode(document: Document): void {
  const body = document.body;
  if (body === null) return;
  for (const { root, content, line } of EDITORS) {
    for (const editor of Array.from(body.querySelectorAll(root))) {
      if (editor.parentNode === null) continue;
      const lines = editor.querySelector(content);
      const drawn = lines === null ? [] : Array.from(lines.querySelectorAll(line));
      if (lines === null || drawn.length === 0) continue;
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = drawn
        .map((element) => (element.textContent ?? '').replace(/\u00a0/g, ' '))
        .join('\n');
      const language = lines.getAttribute('data-language');
      if (language !== null && /^[\w+#-]{1,20}$/.test(language))
        code.setAttribute('class', `language-${language}`);
      pre.append(code);
      editor.replaceWith(pre);
    }
  }
}
