import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { closeStrayCdata } from './cdata-in-html.js';

const thread = (posts: number) =>
  Array.from(
    { length: posts },
    (_, index) =>
      `<article class="message"><h4>member${index}</h4><p>Post ${index}: the gauge on the harbour wall reads two metres at noon, and the crew checks it again every hour until dusk.</p></article>`,
  ).join('');

describe('closeStrayCdata', () => {
  it('makes a stray <![CDATA[ in HTML content the comment a browser makes, ending at the next >', () => {
    expect(closeStrayCdata('<body><![CDATA[\n\n<div id="top"></div><p>Shown</p>]]></body>')).toBe(
      '<body><!--[CDATA[\n\n<div id="top"--></div><p>Shown</p>]]></body>',
    );
  });

  it('leaves scripts, styles, SVG, MathML and comments alone, and a page without one as it is', () => {
    const page =
      '<script>//<![CDATA[\nif (a > b) go();\n//]]></script><style>/*<![CDATA[*/a > b {}/*]]>*/</style>' +
      '<svg><style><![CDATA[ .a > .b {} ]]></style></svg><math><mi><![CDATA[x > y]]></mi></math>' +
      '<!-- <![CDATA[ kept > as is ]]> --><p>Text</p>';
    expect(closeStrayCdata(page)).toBe(page);
    const plain = '<p>No sections here</p>';
    expect(closeStrayCdata(plain)).toBe(plain);
  });

  it('leaves one with no > after it as it is: the parser, as a browser, reads a comment to the end', () => {
    expect(closeStrayCdata('<p>a</p><![CDATA[ no end')).toBe('<p>a</p><![CDATA[ no end');
  });
});

describe('extract: a page with a stray <![CDATA[', () => {
  it('reads the thread after it, as a browser shows it', async () => {
    const html = `<!doctype html><html><head><title>Which gauge?</title></head><body class="forum"><![CDATA[\n\n<div id="jumpToTop"></div><main>${thread(6)}</main></body></html>`;
    for (const format of ['markdown', 'text'] as const) {
      const document = await extract({
        body: html,
        url: 'https://forum.example.org/t/1',
        contentType: 'text/html',
        format,
      });
      expect(document.content).toContain('Post 0: the gauge on the harbour wall');
      expect(document.content).toContain('Post 5: the gauge on the harbour wall');
    }
  });

  it('reads it in the streamed stage too, for a page past the DOM stages', async () => {
    const html = `<!doctype html><html><body><![CDATA[\n<div></div><p>Post after the section: the harbour gauge.</p>${'<div>'.repeat(200)}x${'</div>'.repeat(200)}</body></html>`;
    const document = await extract({
      body: html,
      url: 'https://forum.example.org/t/2',
      contentType: 'text/html',
    });
    expect(document.stage).toBe('streamed-text');
    expect(document.content).toContain('Post after the section: the harbour gauge.');
  });
});
