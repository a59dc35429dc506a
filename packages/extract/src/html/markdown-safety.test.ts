import { describe, expect, it } from 'vitest';
import { htmlToStreamedText } from './html-streamed-text.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { markdownToText } from './markdown-to-text.js';

const BASE = 'https://site.example/dir/page.html';

/** Every link target and autolink a CommonMark or GitHub-flavoured reader would find, roughly. */
function linkTargets(markdown: string): string[] {
  const unescaped = markdown.replace(/\\[!-/:-@[-`{-~]/g, '_');
  const targets = [...unescaped.matchAll(/\]\(\s*<?([^)\s>]*)/g)].map((match) => match[1]!);
  targets.push(...[...unescaped.matchAll(/<\s*([A-Za-z][\w+.-]*\s*:[^\s<>]*)>/g)].map((match) => match[1]!));
  targets.push(...[...unescaped.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!));
  targets.push(...[...unescaped.matchAll(/<(a|img|iframe)\b/gi)].map((match) => `html:${match[1]}`));
  targets.push(...[...unescaped.matchAll(/\b[\w.+-]+@[\w-]+\.\w+/g)].map((match) => `mailto:${match[0]}`));
  return targets;
}

const HOSTILE_HTML = [
  '<p>&lt;javascript:alert(1)&gt; and &lt;JAVASCRIPT:alert(2)&gt; and &lt;data:text/html,x&gt;</p>',
  '<p>&lt;vbscript&#58;msgbox&gt; &#x3C;file:///etc/passwd&#x3E; &lt;<span>javascript:alert(3)</span>&gt;</p>',
  '<p>[click](javascript:alert(4)) and [ref]: javascript:alert(5)</p>',
  '<p>&lt;a href="javascript:alert(6)"&gt;raw&lt;/a&gt; mail me@example.org ftp://files.example.org/x</p>',
  '<p><a href="JAVASCRIPT:alert(7)">upper</a> <a href=" java&#x09;script:alert(8)">tab</a>',
  '<a href="vbscript:x">vb</a> <a href="file:///etc">file</a> <a href="data:text/html,x">data</a></p>',
  '<p><img src="javascript:alert(9)" alt="&lt;javascript:alert(10)&gt;"></p>',
  '<p><a href="/ok">outer <a href="/inner">inner</a> tail</a></p>',
  '<p><a href="https://ok.example/" title="a\nb (c) &quot;d&quot;">titled</a></p>',
].join('');

describe('Markdown from a hostile page', () => {
  it('carries no link or autolink whose target is not http(s)', async () => {
    const markdown = await htmlToMarkdown(HOSTILE_HTML, BASE);
    for (const target of linkTargets(markdown)) expect(target, markdown).toMatch(/^https?:\/\//);
    expect(markdown).not.toMatch(/javascript:|vbscript:|data:text|file:\/\//i);
    expect(markdown).toContain('[titled](https://ok.example/)');
  });

  it('carries none from the streaming pass either', async () => {
    const { markdown } = await htmlToStreamedText(HOSTILE_HTML, BASE);
    for (const target of linkTargets(markdown)) expect(target, markdown).toMatch(/^https?:\/\//);
  });

  it('reads as plain text in format text: no link syntax, titles, emphasis or heading marks', async () => {
    const markdown = await htmlToMarkdown(
      `<h2>Heading</h2><p><em>soft</em> <strong>loud</strong> ${HOSTILE_HTML}</p>`,
      BASE,
    );
    const text = markdownToText(markdown);
    expect(text).not.toMatch(/\]\(https?:|^#+ |\*\*|https?:\/\/|\\/m);
    expect(text).toMatch(/^Heading$/m);
    expect(text).toContain('soft loud');
    expect(text).toContain('outer inner tail');
    // What the page itself wrote stays as written: its words are text, not this converter's markup.
    expect(text).toContain('[click](javascript:alert(4)) and [ref]: javascript:alert(5)');
  });
});

describe('markdownToText on Markdown from other sources', () => {
  it('drops nested links, titles over lines or with parentheses, and reference links', () => {
    const markdown =
      '[[inner](https://a.example/) outer](https://b.example/ "t (x)")\n' +
      '[multi](https://c.example/x_(y) "first\nsecond") and [ref][r] and <https://d.example/>\n\n[r]: https://e.example/ "title"';
    expect(markdownToText(markdown)).toBe('inner outer\nmulti and ref and https://d.example/');
  });
});
