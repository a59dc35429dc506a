import { describe, expect, it } from 'vitest';
import { markdownToText } from './markdown-to-text.js';

describe('markdownToText', () => {
  it('removes headings, emphasis, link targets and images, keeping paragraphs', () => {
    const markdown =
      '# Title\n\nSome **bold**, *italic*, _under_ and ~~gone~~ text with [a link](https://x.example/a "t").\n\n![alt](https://x.example/i.png)\n\n> quoted `code`';
    expect(markdownToText(markdown)).toBe(
      'Title\n\nSome bold, italic, under and gone text with a link.\n\nquoted code',
    );
  });

  it('restores escaped characters without treating them as markup', () => {
    expect(markdownToText('1\\. not a list, \\*not emphasis\\*, snake\\_case and \\[brackets\\]')).toBe(
      '1. not a list, *not emphasis*, snake_case and [brackets]',
    );
  });

  it('keeps list items and code blocks as they are, dropping the fences and rules', () => {
    expect(markdownToText('- one\n- two\n\n---\n\n```js\nconst a = *b*;\n```')).toBe(
      '- one\n- two\n\nconst a = *b*;',
    );
  });

  it("keeps a callout's code block as written, without the fences or the quote's markers", () => {
    // Failing before: the fences of a quoted block were read as text, and its code as prose.
    const markdown =
      "> [!TIP] Aliases\n> Pass the alias:\n>\n> ```python\n> user = User(__name__='x')  # *one*\n>\n>     indented()\n> ```\n>\n> Done.\n\n> > ```\n> > nested = 1\n> > ```";
    expect(markdownToText(markdown)).toBe(
      "[!TIP] Aliases\nPass the alias:\n\nuser = User(__name__='x')  # *one*\n\n    indented()\n\nDone.\n\nnested = 1",
    );
  });

  it('ends a quoted code block where its blockquote ends, and keeps a code line that starts with ">"', () => {
    expect(markdownToText('> ```\n> a = 1\n\nAfter **the** quote.')).toBe('a = 1\n\nAfter the quote.');
    expect(markdownToText('```\n> prompt\n```')).toBe('> prompt');
  });
});
