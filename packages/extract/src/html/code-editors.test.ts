import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { writeEditorCode } from './code-editors.js';
import { parseHtmlDocument } from './parse-html-document.js';

const gutter = (numbers: number[], element: string) =>
  numbers.map((n) => `<div class="${element}">${n}</div>`).join('');

describe('extract: code shown in an editor', () => {
  it('writes a CodeMirror 6 editor as a fenced block of its lines, in its language (failing before: a paragraph a line)', async () => {
    const content = await markdownOf(
      `<div class="cm-editor ͼ1 ͼ2"><div class="cm-scroller"><div class="cm-gutters" aria-hidden="true"><div class="cm-gutter cm-lineNumbers">${gutter([1, 2, 3], 'cm-gutterElement')}</div></div>` +
        '<div class="cm-content" role="textbox" contenteditable="false" data-language="javascript"><div class="cm-line"><span class="ͼb">const</span> level = gauge.read();</div><div class="cm-line"><br></div><div class="cm-line">console.log(level);</div></div></div></div>',
    );
    expect(content).toContain('```javascript\nconst level = gauge.read();\n\nconsole.log(level);\n```');
  });

  it('writes a CodeMirror 5 editor as one fenced block, not one a line, without its line numbers', async () => {
    const line = (n: number, code: string) =>
      `<div style="position: relative;"><div class="CodeMirror-gutter-wrapper"><div class="CodeMirror-linenumber CodeMirror-gutter-elt">${n}</div></div><pre class="CodeMirror-line"><span>${code}</span></pre></div>`;
    const content = await markdownOf(
      `<div class="CodeMirror cm-s-default"><div class="CodeMirror-lines"><div class="CodeMirror-code">${line(1, 'make')}${line(2, 'make test')}</div></div></div>`,
    );
    expect(content).toContain('```\nmake\nmake test\n```');
    expect(content).not.toMatch(/^1$/m);
  });
});

describe('writeEditorCode', () => {
  it('leaves an editor without lines as it is', async () => {
    const document = await parseHtmlDocument(
      '<!doctype html><html><head></head><body><div class="cm-editor"><div class="cm-content"></div></div></body></html>',
    );
    writeEditorCode(document);
    expect(document.querySelector('.cm-editor')).not.toBeNull();
    expect(document.querySelector('pre')).toBeNull();
  });
});
